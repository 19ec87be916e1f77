/* The table of presolve's reductions (presolve_internal.h, docs/presolve.md "Code"): the
 * order of a round's passes, and for every kind of stage the undo that reverses it. */
#include "presolve/presolve_internal.h"

const ps_reduction_t ps_reductions[] = {
    {"paper", ps_pass_paper, STAGE_NONE, NULL},           /* stages: singleton, fixcol */
    {"fixed", ps_pass_fixed, STAGE_FIXCOL, ps_undo_fixcol},
    {"singleton", ps_pass_singleton, STAGE_SINGLETON, ps_undo_singleton},
    {"empty_row", ps_pass_empty_rows, STAGE_EMPTYROW, NULL}, /* y = 0, set already */
    {"empty_col", ps_pass_empty_cols, STAGE_NONE, NULL},  /* fixcol */
    {"activity", ps_pass_activity, STAGE_FORCING, ps_undo_forcing},
    {"dual_fix", ps_pass_dual_fix, STAGE_NONE, NULL},     /* fixcol */
    {"dominated", ps_pass_dominated, STAGE_NONE, NULL},   /* fixcol */
    {"free_col", ps_pass_free_singleton, STAGE_SUBST, ps_undo_subst},
    {"slack_col", ps_pass_slack, STAGE_SLACK, ps_undo_slack},
    {"doubleton", ps_pass_doubleton, STAGE_DOUBLETON, ps_undo_doubleton},
    {"parallel", ps_pass_parallel_columns, STAGE_PARALLEL, ps_undo_parallel},
    {"duplicate_row", ps_pass_parallel_rows, STAGE_DUPROW, ps_undo_duplicate_rows},
};

const int ps_reduction_count = (int)(sizeof ps_reductions / sizeof ps_reductions[0]);
