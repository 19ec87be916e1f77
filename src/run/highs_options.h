/* HiGHS's own option names and defaults (those of HiGHS 1.16), so that an options
 * file written by highspy's writeOptions is read without noise: an option shardlp
 * has no use for is ignored silently when it holds HiGHS's default, and named in
 * one warning per file otherwise (run_options.c). */
#ifndef SLP_HIGHS_OPTIONS_H
#define SLP_HIGHS_OPTIONS_H

/* HiGHS's default of option `name` as writeOptions prints it, or NULL when HiGHS
 * has no such option. */
const char *slp_highs_default(const char *name);
/* 1 when `value` is HiGHS's default of `name` (numbers by value, booleans in any
 * of HiGHS's spellings). */
int slp_highs_is_default(const char *name, const char *value);

#endif
