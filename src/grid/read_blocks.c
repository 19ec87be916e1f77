/* Cuts and blocks of the parallel reader, MPS and LP (grid/read_internal.h,
 * docs/parallel-input.md): the pieces' entries and column values go to the ranks of
 * their blocks and slices. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"
#include "grid/fault_hook.h"
#include "grid/read_internal.h"
#include "grid/route.h"

void slp_read_give_up(reader_t *rd, const char *why)
{
    rd->irregular = 1;
    if (!rd->why)
        rd->why = why;
}

slp_err slp_read_all_ranks(slp_comm_t *comm, slp_err rc, int ok, int *all)
{
    *all = 0;
    SLP_CALL(slp_comm_agree(comm, rc));
    int64_t bad = !ok;
    SLP_CALL(slp_comm_max_i64(comm, &bad, 1));
    *all = bad == 0;
    return SLP_OK;
}

int slp_read_model_acceptable(const slp_mps_result_t *res, int relax)
{
    if ((res->n_int > 0 && !relax) || !isfinite(res->obj_const) || res->m > INT32_MAX)
        return 0;
    for (int64_t j = 0; j < res->n; j++) /* lv, uv NULL: all [0, +inf) (a piece of no bound) */
        if (!isfinite(res->c[j]) ||
            (res->lv && slp_bounds_fault_of(res->lv[j], res->uv[j]) != SLP_BOUNDS_OK))
            return 0;
    for (int64_t i = 0; i < res->m; i++)
        if (slp_bounds_fault_of(res->lc[i], res->uc[i]) != SLP_BOUNDS_OK)
            return 0;
    return 1;
}

/* ---- cuts -------------------------------------------------------------------------- */

/* slp_balanced_cuts over all columns weighted by their entries, each rank holding its
 * piece's columns [col_start[me], col_start[me + 1]) (their entries from rd->col_ptr).
 * The serial loop gives off[p] = max(off[p-1], min(F(t_p), len - (parts - p))) with F(t)
 * the first k whose prefix sum of weight + 1 reaches t: each rank finds F in its range,
 * the smallest wins. */
static slp_err column_cuts(reader_t *rd, int parts, int64_t *off)
{
    const int64_t *ptr = rd->col_ptr;
    int64_t n_mine = rd->col_start[rd->me + 1] - rd->col_start[rd->me];
    int64_t len = rd->col_start[rd->P], sum = ptr[n_mine] + n_mine; /* entries + 1 each */
    int64_t *sums = malloc(sizeof *sums * (size_t)rd->P);
    int64_t *first = malloc(sizeof *first * (size_t)(parts + 1));
    slp_err rc = slp_comm_allgather(rd->comm, sums && first ? SLP_OK : SLP_ERR_NOMEM, &sum,
                                    sizeof sum, sums);
    if (rc != SLP_OK) {
        free(sums);
        free(first);
        return rc;
    }
    int64_t before = 0, total = 0;
    for (int k = 0; k < rd->P; k++) {
        before += k < rd->me ? sums[k] : 0;
        total += sums[k];
    }
    for (int p = 1; p < parts; p++)
        first[p] = -INT64_MAX; /* negated: the max over ranks is the smallest k */
    int64_t acc = before, j = 0; /* one pass: the targets grow with p */
    for (int p = 1; p < parts;) {
        if (acc >= (int64_t)((double)total * p / parts))
            first[p++] = -(rd->col_start[rd->me] + j);
        else if (j < n_mine) {
            acc += ptr[j + 1] - ptr[j] + 1;
            j++;
        } else {
            break;
        }
    }
    if (rc == SLP_OK && parts > 1)
        rc = slp_comm_max_i64(rd->comm, first + 1, parts - 1);
    off[0] = 0;
    for (int p = 1; rc == SLP_OK && p < parts; p++) {
        int64_t f = first[p] == -INT64_MAX ? len : -first[p], max_k = len - (parts - p);
        int64_t k = f < max_k ? f : max_k;
        off[p] = k > off[p - 1] ? k : off[p - 1];
    }
    off[parts] = len;
    free(sums);
    free(first);
    return rc;
}

/* Columns [lo, hi) of piece `piece` that fall in [a, b). */
static void overlap(const reader_t *rd, int piece, int64_t a, int64_t b, int64_t *lo, int64_t *hi)
{
    *lo = rd->col_start[piece] > a ? rd->col_start[piece] : a;
    *hi = rd->col_start[piece + 1] < b ? rd->col_start[piece + 1] : b;
    if (*hi < *lo)
        *hi = *lo;
}

typedef struct { /* a column's value, sent to the ranks of its grid column */
    int64_t col;
    double value;
} col_value_t;

static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Where at most one column in 8 holds another value than `dflt` (bit for bit): only
 * those columns go, to every rank of their grid column, which fill the rest of their
 * slice with `dflt` (16 bytes a record against 8 a value in the full exchange; a
 * file's bounds are mostly the defaults 0 and +inf). *sent = 0, on every rank, when
 * there are more. `piece` NULL: all `dflt`. Collective. */
static slp_err send_exceptions(reader_t *rd, const slp_grid_t *grid, const int64_t *col_off,
                               const double *piece, double dflt, double *slice, int *sent)
{
    int64_t first = rd->col_start[rd->me], n_mine = rd->col_start[rd->me + 1] - first;
    int64_t total[2] = {0, n_mine};
    for (int64_t j = 0; piece && j < n_mine; j++)
        total[0] += !same_bits(piece[j], dflt);
    int64_t mine = total[0];
    SLP_CALL(slp_comm_sum_i64(rd->comm, total, 2));
    *sent = total[0] <= total[1] / 8;
    if (!*sent)
        return SLP_OK;
    col_value_t *rec = malloc(sizeof *rec * (size_t)(mine * grid->R + 1));
    int *dest = malloc(sizeof *dest * (size_t)(mine * grid->R + 1));
    slp_err rc = rec && dest ? SLP_OK : slp_error(SLP_ERR_NOMEM, "out of memory");
    int64_t n_rec = 0;
    for (int64_t j = 0, c = 0; rc == SLP_OK && piece && j < n_mine; j++) {
        if (same_bits(piece[j], dflt))
            continue;
        while (col_off[c + 1] <= first + j)
            c++;
        for (int r = 0; r < grid->R; r++, n_rec++) { /* rank (r, c) is world rank r C + c */
            rec[n_rec] = (col_value_t){first + j, piece[j]};
            dest[n_rec] = r * grid->C + (int)c;
        }
    }
    col_value_t *in = NULL;
    int64_t count = 0, lo = col_off[grid->c], n_loc = col_off[grid->c + 1] - lo;
    rc = slp_route_records(rd->comm, rc, rec, sizeof *rec, n_rec, dest, "parallel read",
                           (void **)&in, &count);
    if (rc == SLP_OK) {
        int plus_zero = dflt == 0.0 && !signbit(dflt); /* the slice is calloc'd */
        for (int64_t j = 0; j < n_loc && !plus_zero; j++)
            slice[j] = dflt;
        for (int64_t k = 0; k < count; k++)
            if (in[k].col >= lo && in[k].col < lo + n_loc)
                slice[in[k].col - lo] = in[k].value;
            else
                rc = slp_error(SLP_ERR_INTERNAL, "parallel read: column %lld sent to the "
                               "wrong rank", (long long)in[k].col);
    }
    free(in);
    free(rec);
    free(dest);
    return slp_comm_agree(rd->comm, rc);
}

/* One column vector of the pieces (*piece, freed here; NULL: all `dflt`) into the slice
 * *slice of the ranks of each grid column: only the columns of another value than
 * `dflt` where they are few (send_exceptions); else the pieces send to the ranks (0, c),
 * in column order, which take what they receive as their slice (no copy beside it) and
 * pass it on to their grid column. */
static slp_err send_column_vector(reader_t *rd, const slp_grid_t *grid, const int64_t *col_off,
                                  char letter, double dflt, double **piece, double **slice)
{
    int sent = 0;
    slp_err rc = send_exceptions(rd, grid, col_off, *piece, dflt, *slice, &sent);
    if (rc == SLP_OK && sent && strlen(rd->sparse) + 1 < sizeof rd->sparse)
        rd->sparse[strlen(rd->sparse)] = letter;
    if (rc != SLP_OK || sent) {
        free(*piece);
        *piece = NULL;
        return rc;
    }
    int64_t n_mine = rd->col_start[rd->me + 1] - rd->col_start[rd->me];
    if (!*piece && (*piece = malloc(sizeof **piece * (size_t)(n_mine + 1))))
        for (int64_t j = 0; j < n_mine; j++) /* the values this piece never made */
            (*piece)[j] = dflt;
    int64_t *per = calloc((size_t)rd->P, sizeof *per);
    rc = per && *piece ? SLP_OK : slp_error(SLP_ERR_NOMEM, "out of memory");
    for (int c = 0; rc == SLP_OK && c < grid->C; c++) { /* the pieces' columns are in order */
        int64_t lo, hi;
        overlap(rd, rd->me, col_off[c], col_off[c + 1], &lo, &hi);
        per[c] = hi - lo; /* rank (0, c) is world rank c */
    }
    rc = slp_comm_agree(rd->comm, rc);
    double *in = NULL;
    int64_t count = 0;
    if (rc == SLP_OK)
        rc = slp_comm_exchange(rd->comm, *piece, per, sizeof(double), (void **)&in, &count);
    free(*piece);
    *piece = NULL;
    int64_t n_loc = col_off[grid->c + 1] - col_off[grid->c];
    if (rc == SLP_OK && grid->r == 0 && count != n_loc)
        rc = slp_error(SLP_ERR_INTERNAL, "parallel read: %lld of %lld column values arrived",
                       (long long)count, (long long)n_loc);
    if (rc == SLP_OK && grid->r == 0 && n_loc > 0) {
        free(*slice);
        *slice = in;
        in = NULL;
    }
    free(in);
    rc = slp_comm_agree(rd->comm, rc);
    if (rc == SLP_OK)
        rc = slp_comm_bcast(grid->col_comm, *slice, n_loc * (int64_t)sizeof(double), 0);
    free(per);
    return rc;
}

/* The local problem's frame: sizes, cuts, the row slice (every rank has the rows). */
static slp_err frame(const slp_grid_t *grid, const int64_t *row_off, const int64_t *col_off,
                     const slp_mps_result_t *res, slp_local_problem_t *out)
{
    int64_t m_loc = row_off[grid->r + 1] - row_off[grid->r];
    int64_t n_loc = col_off[grid->c + 1] - col_off[grid->c];
    SLP_CALL(slp_local_problem_alloc(out, grid->R, grid->C, m_loc, n_loc, 0));
    memcpy(out->row_off, row_off, sizeof *row_off * (size_t)(grid->R + 1));
    memcpy(out->col_off, col_off, sizeof *col_off * (size_t)(grid->C + 1));
    if (m_loc > 0) {
        memcpy(out->lc, res->lc + row_off[grid->r], sizeof(double) * (size_t)m_loc);
        memcpy(out->uc, res->uc + row_off[grid->r], sizeof(double) * (size_t)m_loc);
    }
    out->m = res->m;
    out->r = grid->r;
    out->c = grid->c;
    out->row_lo = row_off[grid->r];
    out->col_lo = col_off[grid->c];
    out->sense = res->sense;
    out->obj_const = res->obj_const;
    return SLP_OK;
}

slp_err slp_read_distribute(reader_t *rd, slp_grid_t *grid, slp_mps_result_t *res,
                            slp_local_problem_t *out)
{
    int64_t m = res->m, n_mine = res->n;
    int64_t *row_count = calloc((size_t)m + 1, sizeof *row_count);
    int64_t *cuts = calloc((size_t)(grid->R + grid->C + 2), sizeof *cuts);
    slp_err rc = row_count && cuts ? SLP_OK : slp_error(SLP_ERR_NOMEM, "out of memory");
    int64_t *row_off = cuts, *col_off = cuts + grid->R + 1;
    if (rc == SLP_OK)
        rc = slp_read_column_starts(rd, n_mine);
    for (int64_t k = 0; rc == SLP_OK && k < rd->n_ent; k++)
        row_count[rd->ent[k].row]++;
    rc = slp_comm_agree(rd->comm, rc);
    if (rc == SLP_OK)
        rc = slp_comm_sum_i64(rd->comm, row_count, m);
    if (rc == SLP_OK) {
        slp_balanced_cuts(row_count, m, grid->R, row_off);
        rc = column_cuts(rd, grid->C, col_off);
    }
    free(row_count);
    int ok = 0;
    if (rc == SLP_OK) /* a block's column indices are 32-bit (slp_extract_block) */
        for (int c = 0; c < grid->C; c++)
            if (col_off[c + 1] - col_off[c] > INT32_MAX)
                slp_read_give_up(rd, "a column block of 2^31 columns or more");
    rc = slp_read_all_ranks(rd->comm, rc, !rd->irregular, &ok);
    int64_t nnz = rd->n_ent;
    if (rc == SLP_OK && ok)
        rc = slp_comm_sum_i64(rd->comm, &nnz, 1);
    /* the entries first: the column slices (calloc'd, resident only when written) fill
     * after the piece's entries are gone (docs/parallel-input.md, steps 9 and 10) */
    slp_csr_t block;
    memset(&block, 0, sizeof block);
    if (rc == SLP_OK && ok)
        rc = slp_read_send_entries(rd, grid, row_off, col_off, &block);
    if (rc == SLP_OK && ok) { /* slp_fault_nomem: the test hook of failures.sh */
        rc = slp_fault_nomem("read-blocks");
        rc = slp_comm_agree(rd->comm, rc != SLP_OK ? rc : frame(grid, row_off, col_off, res, out));
    }
    if (rc == SLP_OK && ok) {
        slp_csr_free(&out->A);
        out->A = block;
        memset(&block, 0, sizeof block);
    }
    if (rc == SLP_OK && ok)
        rc = send_column_vector(rd, grid, col_off, 'c', 0.0, &res->c, &out->obj);
    if (rc == SLP_OK && ok)
        rc = send_column_vector(rd, grid, col_off, 'l', 0.0, &res->lv, &out->lv);
    if (rc == SLP_OK && ok)
        rc = send_column_vector(rd, grid, col_off, 'u', INFINITY, &res->uv, &out->uv);
    if (rc == SLP_OK && ok) {
        out->n = rd->col_start[rd->P];
        out->nnz = nnz;
    }
    slp_csr_free(&block);
    free(cuts);
    if (rc == SLP_OK && !ok)
        rd->irregular = 1;
    return rc;
}

