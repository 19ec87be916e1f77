/* The one place that decides what an input path is (the reader registry): a
 * directory is a shard directory; a file is read through its compression (gzip, bzip2,
 * xz: by content, io/text_in.h) and is CPLEX LP when its first line that is not a
 * comment starts with the objective sense (Minimize, Maximize, ...), MPS otherwise;
 * a pipe is read as MPS. Every front end and command asks here, so `shardlp solve`,
 * `check`, `shard`, `convert`, the C API and Python accept and refuse the same inputs
 * with the same message. */
#ifndef SLP_INPUT_FORMAT_H
#define SLP_INPUT_FORMAT_H

#include "core/error.h"
#include "core/model.h"

typedef enum {
    SLP_INPUT_SHARDS, /* a shard directory (shard/) */
    SLP_INPUT_MPS,    /* MPS, fixed or free, in any compression */
    SLP_INPUT_LP      /* CPLEX LP, in any compression (io/lp_read.c) */
} slp_input_format;

/* The format of `path`; errors name the file. */
slp_err slp_input_format_of(const char *path, slp_input_format *out);
/* Read a whole model file in any supported file format (MPS or LP). */
slp_err slp_model_read(const char *path, slp_model_t **out);
/* Rough bytes of the uncompressed text (for memory budgets), 0 when unknown. */
int64_t slp_input_text_bytes(const char *path);

#endif
