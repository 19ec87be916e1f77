/* HiGHS's options and their defaults (highs_options.h), as highspy 1.16's
 * writeOptions writes them. */
#include "run/highs_options.h"

#include "core/parse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *name, *value;
} highs_default_t;

static const highs_default_t HIGHS_DEFAULTS[] = {
    {"presolve", "choose"}, {"solver", "choose"}, {"parallel", "choose"}, {"threads", "0"},
    {"run_crossover", "on"}, {"time_limit", "inf"}, {"ranging", "off"},
    {"infinite_cost", "1e+20"}, {"infinite_bound", "1e+20"}, {"small_matrix_value", "1e-09"},
    {"large_matrix_value", "1e+15"}, {"kkt_tolerance", "1e-07"},
    {"primal_feasibility_tolerance", "1e-07"}, {"dual_feasibility_tolerance", "1e-07"},
    {"primal_residual_tolerance", "1e-07"}, {"dual_residual_tolerance", "1e-07"},
    {"optimality_tolerance", "1e-07"}, {"objective_bound", "inf"}, {"objective_target", "-inf"},
    {"random_seed", "0"}, {"user_objective_scale", "0"}, {"user_bound_scale", "0"},
    {"simplex_strategy", "1"}, {"simplex_scale_strategy", "2"},
    {"simplex_dual_edge_weight_strategy", "-1"}, {"simplex_primal_edge_weight_strategy", "-1"},
    {"simplex_iteration_limit", "2147483647"}, {"simplex_update_limit", "5000"},
    {"simplex_max_concurrency", "8"}, {"output_flag", "true"}, {"log_to_console", "true"},
    {"log_file", ""}, {"write_model_to_file", "false"},
    {"write_presolved_model_to_file", "false"}, {"write_solution_to_file", "false"},
    {"write_solution_style", "0"}, {"glpsol_cost_row_location", "0"},
    {"read_solution_file", ""}, {"read_basis_file", ""}, {"write_model_file", ""},
    {"solution_file", ""}, {"write_basis_file", ""}, {"write_presolved_model_file", ""},
    {"write_iis_model_file", ""}, {"presolve_mode", "0"}, {"mip_detect_symmetry", "true"},
    {"mip_allow_restart", "true"}, {"mip_max_nodes", "2147483647"},
    {"mip_max_stall_nodes", "2147483647"}, {"mip_max_start_nodes", "500"},
    {"mip_improving_solution_save", "false"}, {"mip_improving_solution_report_sparse", "false"},
    {"mip_improving_solution_file", ""}, {"mip_root_presolve_only", "false"},
    {"mip_lifting_for_probing", "-1"}, {"mip_max_leaves", "2147483647"},
    {"mip_max_improving_sols", "2147483647"}, {"mip_lp_age_limit", "10"},
    {"mip_pool_age_limit", "30"}, {"mip_pool_soft_limit", "10000"},
    {"mip_pscost_minreliable", "8"}, {"mip_min_cliquetable_entries_for_parallelism", "100000"},
    {"mip_feasibility_tolerance", "1e-06"}, {"mip_heuristic_effort", "0.05"},
    {"mip_heuristic_run_feasibility_jump", "true"}, {"mip_heuristic_run_rins", "true"},
    {"mip_heuristic_run_rens", "true"}, {"mip_heuristic_run_root_reduced_cost", "true"},
    {"mip_heuristic_run_zi_round", "false"}, {"mip_heuristic_run_shifting", "false"},
    {"mip_allow_cut_separation_at_nodes", "true"}, {"mip_rel_gap", "0.0001"},
    {"mip_abs_gap", "1e-06"}, {"mip_min_logging_interval", "5"}, {"mip_lp_solver", "choose"},
    {"mip_ipm_solver", "choose"}, {"ipm_optimality_tolerance", "1e-08"},
    {"mip_search_simulate_concurrency", "false"}, {"ipm_iteration_limit", "2147483647"},
    {"hipo_system", "choose"}, {"hipo_parallel_type", "choose"}, {"hipo_parallel_force", "0"},
    {"hipo_parallel_forbid", "0"}, {"hipo_ordering", "choose"}, {"hipo_factor", "choose"},
    {"hipo_block_size", "128"}, {"hipo_serial_blas", "true"},
    {"pdlp_iteration_limit", "2147483647"}, {"pdlp_scaling_mode", "5"},
    {"pdlp_ruiz_iterations", "10"}, {"pdlp_restart_strategy", "2"},
    {"pdlp_cupdlpc_restart_method", "1"}, {"pdlp_step_size_strategy", "1"},
    {"pdlp_optimality_tolerance", "1e-07"}, {"test_qp_oracle", "false"},
    {"qp_allow_hot_start", "false"}, {"qp_iteration_limit", "2147483647"},
    {"qp_nullspace_limit", "4000"}, {"qp_regularization_value", "1e-07"}, {"iis_strategy", "0"},
    {"iis_time_limit", "inf"}, {"blend_multi_objectives", "true"},
};

const char *slp_highs_default(const char *name)
{
    for (size_t k = 0; k < sizeof HIGHS_DEFAULTS / sizeof HIGHS_DEFAULTS[0]; k++)
        if (!strcmp(HIGHS_DEFAULTS[k].name, name))
            return HIGHS_DEFAULTS[k].value;
    return NULL;
}

/* Numbers compare by value ("1e-07" and "0.0000001"), words as written, booleans in
 * any of their spellings (core/parse.h). */
int slp_highs_is_default(const char *name, const char *value)
{
    const char *def = slp_highs_default(name);
    if (!def)
        return 0;
    if (!strcmp(def, value))
        return 1;
    char *end_a = NULL, *end_b = NULL;
    double a = strtod(def, &end_a), b = strtod(value, &end_b);
    if (def[0] && value[0] && !*end_a && !*end_b)
        return a == b || (isinf(a) && isinf(b) && (a > 0) == (b > 0));
    return slp_bool_word(def) >= 0 && slp_bool_word(def) == slp_bool_word(value);
}
