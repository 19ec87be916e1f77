/* MPS reader and writer (free and fixed format, gzip-compressed or plain).
 * See docs/mps.md for the conventions followed on every edge case. The reader
 * is built on the streaming parser in io/mps_parse.h, which bounded-memory
 * consumers (the MPS-to-shards converter) can use directly. */
#ifndef SLP_MPS_H
#define SLP_MPS_H

#include "core/model.h"

/* Read an LP from `path` (.mps, .mps.gz, or any gzip/plain file; compression is
 * detected from the content). Errors name the file and line:
 * "FILE:LINE: problem" (SLP_ERR_INPUT; SLP_ERR_IO for open/read/gzip failures).
 * Warnings (integrality relaxed, duplicate entries, ...) go through slp_warn().
 * The model is checked with slp_model_validate (lower > upper is an error).
 * On success *out is a CSC model with sorted rows and no duplicate entries;
 * row_names and col_names are always set; is_int is NULL unless the file
 * marks integer columns. */
slp_err slp_mps_read(const char *path, slp_model_t **out);

/* Write `model` as free-format MPS (gzip-compressed when path ends in .gz).
 * Values are printed with 17 significant digits so a round trip is exact
 * (names with blanks are replaced by generated ones; finite values >= 1e20
 * read back as infinite: both with a warning). */
slp_err slp_mps_write(const slp_model_t *model, const char *path);

#endif
