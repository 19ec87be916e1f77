/* Logging: one print function family, rank 0 only (other ranks are muted by
 * slp_log_set_rank). Errors do not go through here: they are returned as codes
 * with a message (error.h) and printed once by the command-line layer. */
#ifndef SLP_LOG_H
#define SLP_LOG_H

typedef enum { SLP_LOG_QUIET = 0, SLP_LOG_NORMAL = 1, SLP_LOG_VERBOSE = 2 } slp_log_level;

void slp_log_set_level(slp_log_level level);
slp_log_level slp_log_get_level(void);
/* Only the rank given 1 here prints (default: prints). */
void slp_log_set_printing(int prints);

/* Also write the normal (and, when enabled, verbose) log to `file` (NULL: stop),
 * whatever the console level: HiGHS's log_file, read back by PuLP's HiGHS_CMD.
 * Not owned: the caller closes it after setting NULL. */
#include <stdint.h>
#include <stdio.h>
void slp_log_set_file(FILE *file);
/* The file set above (NULL when none): warnings and the command's error line go there
 * too, so a caller reading only the log file (PuLP) sees why a run failed. */
FILE *slp_log_file(void);

/* prefix + formatted text + suffix to `stream` in one write (prefix, suffix may be NULL). */
#include <stdarg.h>
void slp_log_write(FILE *stream, const char *prefix, const char *suffix, const char *fmt,
                   va_list ap);

/* Send the console log (normal and verbose lines) to fn(text, user) instead of
 * stdout; NULL restores stdout. The C API's log callback (Python prints through it
 * to sys.stdout). Warnings stay on stderr. */
typedef void (*slp_log_sink_fn)(const char *text, void *user);
void slp_log_set_sink(slp_log_sink_fn fn, void *user);

/* Normal log line(s) on stdout. */
void slp_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Only with --verbose. */
void slp_log_verbose(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Warning on stderr, prefixed "shardlp: warning: ", printed even when quiet. */
void slp_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Warnings issued by this process so far, printed or not (the parallel reader's fuzz
 * target compares the two readers with it). */
int64_t slp_warn_count(void);

#endif
