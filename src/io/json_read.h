/* A minimal JSON reader: the whole text parsed into a small tree, with typed getters
 * whose errors name the source and the field. */
#ifndef SLP_JSON_READ_H
#define SLP_JSON_READ_H

#include <stdint.h>

#include "core/error.h"

typedef enum { SLP_MJSON_NULL, SLP_MJSON_BOOL, SLP_MJSON_NUM, SLP_MJSON_STR, SLP_MJSON_ARR,
               SLP_MJSON_OBJ } slp_mjson_type;
typedef struct slp_mjson {
    slp_mjson_type type;
    int is_int;          /* number written without fraction or exponent */
    int64_t ival;
    double num;
    char *str;           /* SLP_MJSON_STR */
    int64_t len;         /* children of ARR / OBJ */
    char **keys;         /* OBJ keys [len] */
    struct slp_mjson *items; /* [len] */
} slp_mjson_t;

/* Parse text; on error the message names `source`. */
slp_err slp_mjson_parse(const char *text, const char *source, slp_mjson_t *out);
void slp_mjson_free(slp_mjson_t *v);
const slp_mjson_t *slp_mjson_get(const slp_mjson_t *obj, const char *key);
/* Read the whole (small) file into a NUL-terminated buffer. */
slp_err slp_read_text_file(const char *path, int64_t max_bytes, char **out);
/* Read and parse a JSON file of at most max_bytes (a regular file). */
slp_err slp_mjson_read_file(const char *path, int64_t max_bytes, slp_mjson_t *out);

/* Typed getters for manifest fields: errors say "<source>: field 'key' ...". */
slp_err slp_mjson_int(const slp_mjson_t *obj, const char *key, const char *source, int64_t lo,
                     int64_t hi, int64_t *out);
slp_err slp_mjson_num(const slp_mjson_t *obj, const char *key, const char *source, double *out);
slp_err slp_mjson_int_array(const slp_mjson_t *obj, const char *key, const char *source,
                           int64_t len, int64_t *out);
#endif
