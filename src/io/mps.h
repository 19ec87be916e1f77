/* MPS reader and writer (free and fixed format, gzip-compressed or plain).
 * See docs/mps.md for the conventions followed on every edge case. */
#ifndef SLP_MPS_H
#define SLP_MPS_H

#include "core/model.h"

/* Read an LP from `path` (.mps, .mps.gz, or any gzip/plain file; compression is
 * detected from the content). Errors name the file and line:
 * "FILE:LINE: problem". Warnings (integrality relaxed, duplicate entries, ...)
 * go through slp_warn(). */
slp_err slp_mps_read(const char *path, slp_model_t **out);

/* Write `model` as free-format MPS (gzip-compressed when path ends in .gz).
 * Values are printed with 17 significant digits so a round trip is exact. */
slp_err slp_mps_write(const slp_model_t *model, const char *path);

#endif
