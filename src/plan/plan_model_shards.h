/* The communication model (plan_model.h) of a shard directory's stored matrix,
 * computed by one process reading one block at a time (for `shardlp info`). The
 * solver's own numbers (the --json `comm` object) come from the matrix after
 * presolve, which may have fewer nonzeros. Bucket counts are not computed here. */
#ifndef SLP_PLAN_MODEL_SHARDS_H
#define SLP_PLAN_MODEL_SHARDS_H

#include "plan/plan_model.h"
#include "shard/shard.h"

/* Not collective. */
slp_err slp_plan_model_shards(const char *dir, const slp_shard_manifest_t *man,
                              slp_plan_model_t *out);

#endif
