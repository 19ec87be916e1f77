/* Strict parsing of numeric option values: the whole text must be a number in
 * range ("--time-limit abc" is an error, not 0). */
#ifndef SLP_PARSE_H
#define SLP_PARSE_H

#include <stdint.h>

#include "core/error.h"

slp_err slp_parse_double(const char *option, const char *text, double lo, double hi, double *out);
slp_err slp_parse_int64(const char *option, const char *text, int64_t lo, int64_t hi, int64_t *out);
/* A positive byte count: "123", "64K", "2M", "1G", "1T" (powers of 1024; "KiB", "KB" too). */
slp_err slp_parse_bytes(const char *option, const char *text, int64_t *out);
/* HiGHS-style boolean: true/false, on/off, 1/0 (case as written). */
slp_err slp_parse_bool(const char *option, const char *text, int *out);
/* 1 / 0 for the words slp_parse_bool accepts (true/on/1, false/off/0), -1 for others. */
int slp_bool_word(const char *text);

#endif
