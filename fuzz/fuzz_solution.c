/* Fuzz target: the text solution reader (slp_solution_text_read) against a small fixed
 * model: 3 rows r1..r3 and 4 columns x1..x4 (the names of the seed files). */
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/name_index.h"
#include "fuzz_common.h"
#include "io/solution_text.h"

#ifndef SLP_FUZZ_ENTRY
#define SLP_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

static slp_name_index_t *slp_fuzz_sol_rows_, *slp_fuzz_sol_cols_;

static void slp_fuzz_sol_init_(void)
{
    static const char *const rows[] = {"r1", "r2", "r3"};
    static const char *const cols[] = {"x1", "x2", "x3", "x4"};
    if (slp_fuzz_sol_rows_)
        return;
    if (slp_name_index_create(3, &slp_fuzz_sol_rows_) != SLP_OK ||
        slp_name_index_create(4, &slp_fuzz_sol_cols_) != SLP_OK)
        abort();
    for (int i = 0; i < 3; i++)
        if (slp_name_index_insert(slp_fuzz_sol_rows_, rows[i], i, NULL, NULL) != SLP_OK)
            abort();
    for (int j = 0; j < 4; j++)
        if (slp_name_index_insert(slp_fuzz_sol_cols_, cols[j], j, NULL, NULL) != SLP_OK)
            abort();
}

int SLP_FUZZ_ENTRY(const uint8_t *data, size_t size);
int SLP_FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    char path[300];
    slp_fuzz_sol_init_();
    snprintf(path, sizeof path, "%s/model.sol", slp_fuzz_scratch());
    slp_fuzz_write(path, data, size);
    slp_solution_t *sol = NULL;
    slp_err rc = slp_solution_text_read(path, 3, 4, slp_fuzz_sol_rows_, slp_fuzz_sol_cols_, &sol);
    if (rc == SLP_OK) {
        if (!sol || sol->m != 3 || sol->n != 4 || !sol->model_status)
            abort();
        for (int k = 0; k < SLP_SOL_SECTION_COUNT; k++) {
            int64_t len = (k == SLP_SOL_PRIMAL_COLUMNS || k == SLP_SOL_DUAL_COLUMNS ||
                           k == SLP_SOL_RAY_COLUMNS) ? 4 : 3;
            if (sol->missing[k] < 0 || sol->missing[k] > len)
                abort();
        }
    } else if (sol != NULL || slp_error_message()[0] == '\0') {
        abort();
    }
    slp_solution_destroy(&sol);
    slp_error_clear();
    return 0;
}
