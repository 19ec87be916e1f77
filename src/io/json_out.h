/* A minimal streaming JSON writer for the run summary (no DOM, no escaping
 * surprises: strings are escaped per RFC 8259). Numbers that are not finite
 * are written as null. */
#ifndef SLP_JSON_OUT_H
#define SLP_JSON_OUT_H

#include <stdint.h>
#include <stdio.h>

typedef struct {
    FILE *f;
    int depth;
    int need_comma[32];
} slp_json_t;

/* A JSON string literal (escaped) / a number (non-finite as null), for hand-written JSON. */
void slp_json_write_string(FILE *f, const char *s);
void slp_json_write_number(FILE *f, double v);
/* A number that reads back exactly; non-finite values as the strings "inf", "-inf",
 * "nan" (io/json_read.h's slp_mjson_num accepts those). */
void slp_json_write_exact(FILE *f, double v);

void slp_json_begin(slp_json_t *j, FILE *f);      /* opens the top-level object */
void slp_json_end(slp_json_t *j);                 /* closes it, newline */
void slp_json_key(slp_json_t *j, const char *key);
void slp_json_string(slp_json_t *j, const char *key, const char *value); /* NULL value -> null */
void slp_json_number(slp_json_t *j, const char *key, double value);
void slp_json_int(slp_json_t *j, const char *key, int64_t value);
void slp_json_null(slp_json_t *j, const char *key);
void slp_json_open_object(slp_json_t *j, const char *key);
void slp_json_close_object(slp_json_t *j);
void slp_json_int_array(slp_json_t *j, const char *key, const int64_t *values, int64_t count);
void slp_json_number_array(slp_json_t *j, const char *key, const double *values, int64_t count);

#endif
