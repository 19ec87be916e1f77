/* The one place that decides what an input path is (the reader registry): a
 * directory is a shard directory; a file is recognised by its content first (gzip,
 * bzip2, xz magic; the MPS sections) and its extension second. Every front end and
 * command asks here, so `shardlp solve`, `check`, `shard`, the C API and Python accept
 * and refuse the same inputs with the same message. */
#ifndef SLP_INPUT_FORMAT_H
#define SLP_INPUT_FORMAT_H

#include "core/error.h"
#include "core/model.h"

typedef enum {
    SLP_INPUT_SHARDS,  /* a shard directory (shard/) */
    SLP_INPUT_MPS,     /* MPS, fixed or free */
    SLP_INPUT_MPS_GZ   /* gzip-compressed MPS */
} slp_input_format;

/* The format of `path`; an unsupported one (bzip2, xz, CPLEX LP) is SLP_ERR_UNSUPPORTED
 * with one line naming the file and what to do. */
slp_err slp_input_format_of(const char *path, slp_input_format *out);
/* Read a whole model file in any supported file format. */
slp_err slp_model_read(const char *path, slp_model_t **out);
/* Rough bytes of the uncompressed text (for memory budgets), 0 when unknown. */
int64_t slp_input_text_bytes(const char *path);

#endif
