/* Parallel lines (docs/presolve.md, passes 11 and 12, and "Recovery"): columns j < k
 * with A_k = lambda A_j, and rows i < l with a_l = lambda a_i.
 *
 * Finding them without gathering: every line gets a signature from sums and minima
 * over the ranks its entries are spread on (col_comm for a column, row_comm for a row):
 * its pivot (the entry at the lowest global cross index), two 40-bit hashes of its
 * entries' cross indices and ratios a / pivot, and its count. The signatures are joined
 * by hash over the other communicator (the grid row for columns): each goes to the
 * rank h1 mod size. Every grid row (for rows: grid column) runs the same join on the
 * same replicated data, so the verdicts reach every rank holding the line without a
 * broadcast. Lines are paired two by two within a group of equal signatures, so a
 * group of g lines is reduced in about log2(g) rounds.
 *
 * Columns: with c_k = lambda c_j the pair is merged, x_j' = x_j + lambda x_k keeps j's
 * slot with the summed bounds and k goes (kind parallel); otherwise, when the pair's
 * cost favours a move that only one bound blocks, that column is fixed at the bound
 * (kind parallel_fix). Rows: l goes and i keeps the intersection of [lc_i, uc_i] with
 * row l's bounds divided by lambda (kind duplicate_row); an empty intersection is
 * primal infeasibility. Two signatures that collide without the lines being parallel
 * would need equal 80-bit hashes and counts: about n^2 / 2^81 for n lines. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "grid/comm.h"
#include "grid/reduce.h"
#include "grid/route.h"
#include "presolve/presolve_internal.h"

#define HASH_BITS 0xFFFFFFFFFFull /* 40 bits: sums of grid-size partial sums cannot overflow */
#define COST_TOL 1e-12             /* relative: c_k = lambda c_j */
#define LAMBDA_MAX 1e6             /* 1/LAMBDA_MAX <= |lambda| <= LAMBDA_MAX */
#ifndef SLP_PS_JOIN_BATCH
#define SLP_PS_JOIN_BATCH 32768 /* lines per rank and batch of the join (~7 MB) */
#endif

/* Which lines a pass works on, and where their pieces live. */
typedef struct lines {
    int rows;              /* 1: rows, 0: columns */
    int64_t count, lo;     /* local lines and the global index of the first */
    slp_comm_t *along;     /* the ranks a line's entries are spread on */
    slp_comm_t *across;    /* the ranks holding the other blocks of lines: the join */
    int block;             /* this rank's index in `across` */
} lines_t;

static lines_t lines_of(const ps_ctx_t *x, int rows)
{
    const slp_local_problem_t *lp = x->lp;
    slp_grid_t *g = x->grid;
    return rows ? (lines_t){1, lp->m_loc, lp->row_lo, g->row_comm, g->col_comm, g->r}
                : (lines_t){0, lp->n_loc, lp->col_lo, g->col_comm, g->row_comm, g->c};
}

/* A line's signature, sent to the rank that joins its hash. */
typedef struct line_sig {
    uint64_t h1, h2;
    int64_t count, line; /* global index */
    double pivot, cost, lo, hi; /* cost: a column's, in min form; rows: 0 */
    int32_t from;        /* the sender's index in `across` */
} line_sig_t;

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The ratio rounded to 36 mantissa bits, so that ratios that agree to rounding agree. */
static uint64_t ratio_key(double r)
{
    uint64_t b;
    memcpy(&b, &r, sizeof b);
    b += (uint64_t)1 << 15;
    return b & ~(((uint64_t)1 << 16) - 1);
}

/* The line of entry (i, j) of the block, and its global index across the line. */
static int64_t entry_line(const lines_t *ln, int64_t i, int32_t j) { return ln->rows ? i : j; }
static int64_t entry_cross(const slp_local_problem_t *lp, const lines_t *ln, int64_t i, int32_t j)
{
    return ln->rows ? lp->col_lo + j : lp->row_lo + i;
}

/* Signatures of this rank's lines: the pivot values in buf[L..2L), the hashes in
 * h1[0..L) and h2[0..L), where h1 is buf[0..L) (the pivot positions' place, reused once
 * they are read: the pass's scratch is allocated memory, so it takes the type last
 * stored). Collective over `along`. */
static slp_err signatures(const ps_ctx_t *x, const lines_t *ln, double *buf, uint64_t *h2)
{
    const slp_local_problem_t *lp = x->lp;
    const slp_csr_t *a = &lp->A;
    int64_t L = ln->count;
    double *ppos = buf, *pval = buf + L;
    for (int64_t t = 0; t < L; t++)
        ppos[t] = INFINITY;
    for (int64_t i = 0; i < a->rows; i++)
        for (int64_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++) {
            int64_t t = entry_line(ln, i, a->col_idx[k]);
            ppos[t] = fmin(ppos[t], (double)entry_cross(lp, ln, i, a->col_idx[k]));
        }
    SLP_CALL(slp_comm_min(ln->along, ppos, L));
    memset(pval, 0, (size_t)L * sizeof(double));
    for (int64_t i = 0; i < a->rows; i++)
        for (int64_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++) {
            int64_t t = entry_line(ln, i, a->col_idx[k]);
            if ((double)entry_cross(lp, ln, i, a->col_idx[k]) == ppos[t])
                pval[t] = a->val[k];
        }
    SLP_CALL(slp_comm_sum(ln->along, pval, L));
    uint64_t *h1 = (uint64_t *)(void *)buf;
    memset(h1, 0, (size_t)L * sizeof *h1);
    memset(h2, 0, (size_t)L * sizeof *h2);
    for (int64_t i = 0; i < a->rows; i++)
        for (int64_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++) {
            int64_t t = entry_line(ln, i, a->col_idx[k]);
            uint64_t g = (uint64_t)entry_cross(lp, ln, i, a->col_idx[k]);
            uint64_t q = ratio_key(a->val[k] / pval[t]);
            h1[t] += mix64(g * 0x9e3779b97f4a7c15ull + q) & HASH_BITS;
            h2[t] += mix64((g + 0x632be59bd9b4e019ull) ^ (q * 0xd6e8feb86659fd93ull)) & HASH_BITS;
        }
    for (int64_t t = 0; t < L; t++) {
        h1[t] &= HASH_BITS;
        h2[t] &= HASH_BITS;
    }
    SLP_CALL(slp_comm_sum_i64(ln->along, (int64_t *)h1, L));
    SLP_CALL(slp_comm_sum_i64(ln->along, (int64_t *)h2, L));
    for (int64_t t = 0; t < L; t++) {
        h1[t] &= HASH_BITS;
        h2[t] &= HASH_BITS;
    }
    return SLP_OK;
}

static int by_signature(const void *pa, const void *pb)
{
    const line_sig_t *a = pa, *b = pb;
    if (a->h1 != b->h1)
        return a->h1 < b->h1 ? -1 : 1;
    if (a->h2 != b->h2)
        return a->h2 < b->h2 ? -1 : 1;
    if (a->count != b->count)
        return a->count < b->count ? -1 : 1;
    return (a->line > b->line) - (a->line < b->line);
}

/* The bound a column reaches moving in direction dir (+1 up, -1 down). */
static double bound_toward(double dir, double lo, double hi) { return dir > 0.0 ? hi : lo; }

/* Columns (j, k), j < k, A_k = lambda A_j (v[0] j's verdict, v[1] k's). Moving k by t
 * and j by -lambda t keeps A x and changes the cost by d t, d = c_k - lambda c_j.
 * When d != 0, k's improving move is blocked by k's bound or by j's; if j's is
 * infinite, k sits at its bound in every optimum (and the same with the roles
 * exchanged). */
static void judge_columns(const line_sig_t *j, const line_sig_t *k, parallel_rec_t v[2])
{
    double lam = v[0].lambda, d = k->cost - lam * j->cost;
    if (fabs(d) <= COST_TOL * (1.0 + fabs(k->cost) + fabs(lam * j->cost))) {
        v[0].role = PAR_KEEP;
        v[1].role = PAR_REMOVE;
        return;
    }
    double dir_k = d > 0.0 ? -1.0 : 1.0; /* k's improving move; j moves by -lambda */
    double k_at = bound_toward(dir_k, k->lo, k->hi);
    if (isinf(bound_toward(-lam * dir_k, j->lo, j->hi)) && isfinite(k_at)) {
        v[1].role = PAR_FIX;
        v[1].value = k_at;
        return;
    }
    double dir_j = -d / lam > 0.0 ? -1.0 : 1.0; /* j's improving move; k moves by -1/lambda */
    double j_at = bound_toward(dir_j, j->lo, j->hi);
    if (isinf(bound_toward(-dir_j / lam, k->lo, k->hi)) && isfinite(j_at)) {
        v[0].role = PAR_FIX;
        v[0].value = j_at;
    }
}

/* The verdict on the pair (j, k), j < k: v[0] for j, v[1] for k. Rows always merge. */
static void judge_pair(int rows, const line_sig_t *j, const line_sig_t *k, parallel_rec_t v[2])
{
    double lam = k->pivot / j->pivot;
    v[0] = (parallel_rec_t){.line = j->line, .peer = k->line, .owner = j->from,
                            .peer_owner = k->from, .role = PAR_NONE, .lambda = lam,
                            .lj = j->lo, .uj = j->hi, .lk = k->lo, .uk = k->hi};
    v[1] = v[0];
    v[1].line = k->line;
    v[1].peer = j->line;
    v[1].owner = k->from;
    v[1].peer_owner = j->from;
    if (!isfinite(lam) || fabs(lam) > LAMBDA_MAX || fabs(lam) < 1.0 / LAMBDA_MAX)
        return;
    if (!rows) {
        judge_columns(j, k, v);
        return;
    }
    v[0].role = PAR_KEEP;
    v[1].role = PAR_REMOVE;
}

/* Records sent to rank dest_of(record, size) of comm (grid/route.h: ordered by
 * destination and exchanged). `local` is the caller's status so far (when not SLP_OK,
 * rec is not read): one agreement covers it and the routing's allocations, so every
 * rank enters the exchange or none does. */
static slp_err route(slp_comm_t *comm, slp_err local, const void *rec, size_t size_rec,
                     int64_t nrec, int (*dest_of)(const void *rec, int size), void **recv,
                     int64_t *nrecv)
{
    int size = slp_comm_size(comm);
    int *dest = local == SLP_OK ? malloc(sizeof *dest * (size_t)(nrec + 1)) : NULL;
    slp_err rc = local != SLP_OK || dest ? local
                                         : slp_error(SLP_ERR_NOMEM, "presolve: out of memory");
    for (int64_t t = 0; rc == SLP_OK && t < nrec; t++)
        dest[t] = dest_of((const char *)rec + (size_t)t * size_rec, size);
    rc = slp_route_records(comm, rc, rec, size_rec, nrec, dest, "presolve", recv, nrecv);
    free(dest);
    return rc;
}

/* Destinations: a signature's join rank, a verdict's line block. */
static int signature_dest(const void *rec, int size)
{
    return (int)(((const line_sig_t *)rec)->h1 % (uint64_t)size);
}
static int verdict_dest(const void *rec, int size)
{
    (void)size;
    return ((const parallel_rec_t *)rec)->owner;
}

/* Pairs of a sorted run of signatures: two by two within each group of equal
 * (h1, h2, count). Calls judge on each pair; returns the number of verdicts written
 * (v may be NULL to count them). */
static int64_t judge_groups(const lines_t *ln, const line_sig_t *sig, int64_t nsig,
                            parallel_rec_t *v)
{
    int64_t nv = 0;
    for (int64_t s = 0; s < nsig;) {
        int64_t e = s + 1;
        while (e < nsig && sig[e].h1 == sig[s].h1 && sig[e].h2 == sig[s].h2 &&
               sig[e].count == sig[s].count)
            e++;
        for (int64_t a = s; a + 1 < e; a += 2) {
            parallel_rec_t pair[2];
            judge_pair(ln->rows, &sig[a], &sig[a + 1], pair);
            for (int t = 0; t < 2; t++)
                if (pair[t].role != PAR_NONE) {
                    if (v)
                        v[nv] = pair[t];
                    nv++;
                }
        }
        s = e;
    }
    return nv;
}

/* The join on this rank: the received signatures sorted and judged; the verdicts for
 * both lines of a pair go back to their lines' blocks and are appended to *out. */
static slp_err join(const lines_t *ln, line_sig_t *sig, int64_t nsig, parallel_rec_t **out,
                    int64_t *nout, int64_t *cap)
{
    qsort(sig, (size_t)nsig, sizeof *sig, by_signature);
    int64_t nv = judge_groups(ln, sig, nsig, NULL);
    parallel_rec_t *v = NULL;
    slp_err rc = slp_alloc(&v, (size_t)nv + 1, sizeof *v);
    if (rc == SLP_OK)
        judge_groups(ln, sig, nsig, v);
    void *recv = NULL;
    int64_t nrecv = 0;
    rc = route(ln->across, rc, v, sizeof *v, nv, verdict_dest, &recv, &nrecv);
    free(v);
    if (rc == SLP_OK)
        rc = slp_grow(out, cap, *nout + nrecv, sizeof **out, 64, "presolve's parallel lines");
    if (rc == SLP_OK && nrecv > 0) {
        memcpy(*out + *nout, recv, (size_t)nrecv * sizeof **out);
        *nout += nrecv;
    }
    free(recv);
    return rc;
}

/* Whether local line t takes part: kept, not empty, and for a column not fixed. */
static int candidate(const ps_ctx_t *x, const lines_t *ln, int64_t t)
{
    return ln->rows ? x->p->row_stage[t] < 0 && x->rcnt[t] > 0 : ps_movable_column(x, t);
}

/* The batch of a hash: its high bits (the join rank takes its low bits, h1 mod size),
 * so equal signatures meet in the same batch on every rank. h1 < 2^40, nb < 2^24. */
static int64_t batch_of(uint64_t h1, int64_t nb) { return (int64_t)((h1 * (uint64_t)nb) >> 40); }

/* This rank's candidate lines ordered by batch: batch b is order[start[b] .. start[b+1]). */
static void order_by_batch(const ps_ctx_t *x, const lines_t *ln, const uint64_t *h1, int64_t nb,
                           int64_t *order, int64_t *start)
{
    memset(start, 0, (size_t)(nb + 1) * sizeof *start);
    for (int64_t t = 0; t < ln->count; t++)
        if (candidate(x, ln, t))
            start[batch_of(h1[t], nb) + 1]++;
    for (int64_t b = 0; b < nb; b++)
        start[b + 1] += start[b];
    for (int64_t t = 0; t < ln->count; t++)
        if (candidate(x, ln, t))
            order[start[batch_of(h1[t], nb)]++] = t;
    for (int64_t b = nb; b > 0; b--) /* the fill moved each start to the next batch's */
        start[b] = start[b - 1];
    start[0] = 0;
}

/* One batch: the lines lines[0..ns) of this rank sent to their join ranks (h1 mod size of
 * `across`), joined, verdicts appended. */
static slp_err join_batch(ps_ctx_t *x, const lines_t *ln, const uint64_t *h1, const uint64_t *h2,
                          const double *pval, const int64_t *lines, int64_t ns,
                          parallel_rec_t **v, int64_t *nv, int64_t *cap)
{
    const slp_local_problem_t *lp = x->lp;
    double sg = lp->sense < 0 ? -1.0 : 1.0;
    line_sig_t *sig = NULL;
    slp_err rc = slp_alloc(&sig, (size_t)ns + 1, sizeof *sig);
    for (int64_t s = 0; rc == SLP_OK && s < ns; s++) {
        int64_t t = lines[s];
        int64_t cnt = ln->rows ? x->rcnt[t] : x->ccnt[t];
        double lo = ln->rows ? lp->lc[t] : lp->lv[t], hi = ln->rows ? lp->uc[t] : lp->uv[t];
        sig[s] = (line_sig_t){h1[t], h2[t], cnt, ln->lo + t, pval[t],
                              ln->rows ? 0.0 : sg * lp->obj[t], lo, hi, (int32_t)ln->block};
    }
    void *recv = NULL;
    int64_t nrecv = 0;
    rc = route(ln->across, rc, sig, sizeof *sig, ns, signature_dest, &recv, &nrecv);
    free(sig);
    if (rc == SLP_OK)
        rc = join(ln, recv, nrecv, v, nv, cap);
    free(recv);
    return rc;
}

/* This rank's candidate lines' signatures joined in batches of about SLP_PS_JOIN_BATCH
 * lines per rank (the join's memory is bounded by a batch; the lines are ordered by
 * batch once, so the batches together read each line once); the verdicts on this
 * rank's lines come back in *v. Collective over the grid. */
static slp_err find_pairs(ps_ctx_t *x, const lines_t *ln, parallel_rec_t **v, int64_t *nv)
{
    int64_t L = ln->count, cap = 0;
    double *buf = ln->rows ? x->rbuf : x->cbuf; /* 2 L: pivot positions (then h1), values */
    uint64_t *h2 = NULL;
    int64_t *order = NULL, *start = NULL;
    slp_err rc = ps_alloc_all(x, &h2, (size_t)L + 1, sizeof *h2);
    if (rc == SLP_OK)
        rc = ps_alloc_all(x, &order, (size_t)L + 1, sizeof *order);
    if (rc == SLP_OK)
        rc = ln->rows ? ps_row_counts(x) : ps_col_counts(x);
    if (rc == SLP_OK)
        rc = signatures(x, ln, buf, h2);
    int64_t most[1] = {L};
    if (rc == SLP_OK)
        rc = slp_comm_max_i64(x->grid->world, most, 1);
    int64_t nb = most[0] / SLP_PS_JOIN_BATCH + 1;
    if (rc == SLP_OK)
        rc = ps_alloc_all(x, &start, (size_t)nb + 1, sizeof *start);
    const uint64_t *h1 = (const uint64_t *)(const void *)buf;
    if (rc == SLP_OK)
        order_by_batch(x, ln, h1, nb, order, start);
    for (int64_t b = 0; rc == SLP_OK && b < nb; b++)
        rc = join_batch(x, ln, h1, h2, buf + L, order + start[b], start[b + 1] - start[b], v,
                        nv, &cap);
    free(start);
    free(order);
    free(h2);
    return rc;
}

static void push_record(slp_presolve_t *p, const parallel_rec_t *r)
{
    if (ps_grow(p, &p->par, &p->cap_par, p->n_par + 1, sizeof *p->par, 64,
                "presolve's parallel lines"))
        p->par[p->n_par++] = *r;
}

/* Row l's bounds seen on row i (a_l = lambda a_i): [lc_l, uc_l] / lambda. */
static void row_bounds_on_survivor(const parallel_rec_t *r, double *lo, double *hi)
{
    *lo = (r->lambda > 0.0 ? r->lk : r->uk) / r->lambda;
    *hi = (r->lambda > 0.0 ? r->uk : r->lk) / r->lambda;
}

/* The survivor's new bounds: a column's widen to those of x_j + lambda x_k, a row's
 * narrow to the intersection (crossing beyond the tolerance counted in *crossed,
 * smaller crossings closed at the midpoint). */
static void survivor_bounds(const parallel_rec_t *r, int rows, double *lo, double *hi,
                            double *crossed)
{
    double lam = r->lambda;
    if (!rows) {
        *lo = r->lj + lam * (lam > 0.0 ? r->lk : r->uk);
        *hi = r->uj + lam * (lam > 0.0 ? r->uk : r->lk);
        return;
    }
    double llo, lhi;
    row_bounds_on_survivor(r, &llo, &lhi);
    *lo = fmax(r->lj, llo);
    *hi = fmin(r->uj, lhi);
    if (*lo > *hi) {
        double scale = 1.0 + fmax(fabs(*lo), fabs(*hi));
        if (*lo - *hi > SLP_PS_FEAS_TOL * scale)
            *crossed += 1.0;
        else
            *lo = *hi = 0.5 * (*lo + *hi);
    }
}

/* Merge the pairs of the verdicts: the removed line's entries are recorded under the
 * new stage, the survivor gets its new bounds. */
static slp_err merge(ps_ctx_t *x, const lines_t *ln, parallel_rec_t *v, int64_t nv,
                     int64_t *changed)
{
    slp_local_problem_t *lp = x->lp;
    slp_presolve_t *p = x->p;
    int stage = p->nstages;
    double lines = 0.0, crossed = 0.0;
    memset(x->col_kill, 0, (size_t)lp->n_loc);
    memset(x->row_kill, 0, (size_t)lp->m_loc);
    memset(x->row_flags, 0, (size_t)lp->m_loc);
    for (int64_t t = 0; t < nv; t++) {
        parallel_rec_t *r = &v[t];
        int64_t j = r->line - ln->lo;
        if (r->role == PAR_REMOVE) {
            (ln->rows ? x->row_kill : x->col_kill)[j] = 1;
            lines += 1.0;
        } else if (r->role == PAR_KEEP) {
            double *lo = ln->rows ? &lp->lc[j] : &lp->lv[j], *hi = ln->rows ? &lp->uc[j] : &lp->uv[j];
            survivor_bounds(r, ln->rows, lo, hi, &crossed);
        } else {
            continue;
        }
        r->stage = stage;
        push_record(p, r);
    }
    int64_t removed = 0;
    ps_compact_block(x, stage, &removed);
    for (int64_t j = 0; j < ln->count; j++) {
        if (ln->rows && x->row_kill[j]) {
            lp->lc[j] = -INFINITY;
            lp->uc[j] = INFINITY;
            p->row_stage[j] = stage;
        } else if (!ln->rows && x->col_kill[j]) {
            ps_remove_column(p, (int32_t)j, stage, 0.0, lp->obj[j]);
            lp->obj[j] = 0.0;
            lp->lv[j] = lp->uv[j] = 0.0;
        }
    }
    double linev[2] = {lines, crossed}, blk[1] = {(double)removed};
    if (ln->rows)
        SLP_CALL(ps_batch_sums(x->grid, NULL, 0, linev, 2, blk, 1));
    else
        SLP_CALL(ps_batch_sums(x->grid, linev, 2, NULL, 0, blk, 1));
    if (linev[0] > 0.0) {
        ps_commit_stage(p, ln->rows ? STAGE_DUPROW : STAGE_PARALLEL);
        if (ln->rows)
            ps_add_count(p, SLP_PRESOLVE_DUPLICATE_ROW, linev[0], 0.0, blk[0]);
        else
            ps_add_count(p, SLP_PRESOLVE_PARALLEL, 0.0, linev[0], blk[0]);
        *changed += (int64_t)linev[0];
    }
    if (linev[1] > 0.0) {
        x->status = SLP_STATUS_PRIMAL_INFEASIBLE;
        slp_log_verbose("presolve: %.0f pair(s) of duplicate rows with disjoint bounds\n", linev[1]);
    }
    return SLP_OK;
}

static slp_err pass_parallel(ps_ctx_t *x, int rows, int64_t *changed)
{
    slp_local_problem_t *lp = x->lp;
    lines_t ln = lines_of(x, rows);
    parallel_rec_t *v = NULL;
    int64_t nv = 0;
    slp_err rc = slp_comm_agree(x->grid->world, find_pairs(x, &ln, &v, &nv));
    if (rc == SLP_OK)
        rc = merge(x, &ln, v, nv, changed);
    if (rows || rc != SLP_OK) {
        free(v);
        return rc;
    }
    memset(x->col_mark, 0, (size_t)lp->n_loc);
    for (int64_t t = 0; t < nv; t++)
        if (v[t].role == PAR_FIX) {
            int64_t j = v[t].line - lp->col_lo;
            lp->lv[j] = lp->uv[j] = v[t].value;
            x->col_mark[j] = 1;
        }
    free(v);
    return ps_pass_fixcol(x, SLP_PRESOLVE_PARALLEL_FIX, x->col_mark, changed);
}

/* ------------------------------------------------------------ recovery */

/* x_k of a merged column pair from x' = x_j + lambda x_k: the point of [lk, uk] nearest
 * 0 that puts x_j in [lj, uj], or the nearest to that set when x' lies outside the
 * merged bounds. Both ranks of a pair compute it from the same record. */
static double split_column(const parallel_rec_t *r, double xp)
{
    double a = (xp - r->uj) / r->lambda, b = (xp - r->lj) / r->lambda;
    return ps_nearest_zero(fmin(a, b), fmax(a, b), r->lk, r->uk);
}

/* The merged row's dual y' (min form) goes to the row whose bound it stands on: the
 * lower when y' > 0, the upper when y' < 0; row l takes y' / lambda. Returns the
 * removed row's share (the survivor keeps y' minus lambda times it). */
static double split_row(const parallel_rec_t *r, double yp)
{
    double llo, lhi;
    row_bounds_on_survivor(r, &llo, &lhi);
    int from_removed = yp > 0.0 ? llo > r->lj : yp < 0.0 ? lhi < r->uj : 0;
    return from_removed ? yp / r->lambda : 0.0;
}

typedef struct merged_value {
    int64_t line; /* the removed line (global) */
    double v;     /* its survivor's x' or y' */
    int32_t dest; /* the removed line's block */
} merged_value_t;

static int merged_value_dest(const void *rec, int size)
{
    (void)size;
    return ((const merged_value_t *)rec)->dest;
}

/* The survivors' values sent to the removed lines' ranks: val[t] of the removed local
 * line t after the call (in buf). */
static slp_err send_survivor_values(const slp_presolve_t *p, int s, slp_comm_t *across,
                                    int64_t lo, const double *val, double *buf)
{
    int64_t nsend = 0;
    for (int64_t t = 0; t < p->n_par; t++)
        nsend += p->par[t].stage == s && p->par[t].role == PAR_KEEP;
    merged_value_t *send = NULL;
    slp_err rc = slp_alloc(&send, (size_t)nsend + 1, sizeof *send);
    nsend = 0;
    for (int64_t t = 0; rc == SLP_OK && t < p->n_par; t++) {
        const parallel_rec_t *r = &p->par[t];
        if (r->stage == s && r->role == PAR_KEEP)
            send[nsend++] = (merged_value_t){r->peer, val[r->line - lo], r->peer_owner};
    }
    void *recv = NULL;
    int64_t nrecv = 0;
    rc = route(across, rc, send, sizeof *send, nsend, merged_value_dest, &recv, &nrecv);
    free(send);
    const merged_value_t *got = recv;
    for (int64_t t = 0; rc == SLP_OK && t < nrecv; t++)
        buf[got[t].line - lo] = got[t].v;
    free(recv);
    return rc;
}

/* The split of stage s on this rank's lines (the first of which has global index lo):
 * a removed line takes its share of its survivor's value (received in `got`), a survivor
 * keeps the rest. The survivor's value and the removed line's are x_j' and x_k for
 * columns, y' and y_l for rows; both sides compute the same share from the same record. */
static slp_err split_stage(slp_grid_t *grid, const slp_presolve_t *p, int s, slp_comm_t *across,
                           int64_t lo, double *v, double *got,
                           double (*share)(const parallel_rec_t *, double))
{
    SLP_CALL(slp_comm_agree(grid->world, send_survivor_values(p, s, across, lo, v, got)));
    for (int64_t t = 0; t < p->n_par; t++) {
        const parallel_rec_t *r = &p->par[t];
        int64_t j = r->line - lo;
        if (r->stage == s && r->role == PAR_REMOVE)
            v[j] = share(r, got[j]);
        else if (r->stage == s)
            v[j] -= r->lambda * share(r, v[j]);
    }
    return SLP_OK;
}

slp_err ps_pass_parallel_columns(ps_ctx_t *x, int64_t *changed)
{
    return pass_parallel(x, 0, changed);
}

slp_err ps_pass_parallel_rows(ps_ctx_t *x, int64_t *changed)
{
    return pass_parallel(x, 1, changed);
}

/* Undo a STAGE_PARALLEL stage: x' split; the removed column's reduced cost is that of a
 * removed column (c_k - A_k^T y over its entries recorded in the span). */
slp_err ps_undo_parallel(const ps_undo_t *u, int s, ps_span_t span)
{
    slp_grid_t *grid = u->grid;
    const slp_presolve_t *p = u->p;
    double *xv = u->x, *z = u->z, *cb = u->cb;
    const double *y = u->y;
    SLP_CALL(split_stage(grid, p, s, grid->row_comm, p->col_lo, xv, cb, split_column));
    return ps_undo_removed_costs(grid, p, s, span, z, y, cb);
}

/* Undo a STAGE_DUPROW stage: the merged row's dual goes to the row whose bound held. */
slp_err ps_undo_duplicate_rows(const ps_undo_t *u, int s, ps_span_t span)
{
    (void)span; /* a duplicate row leaves no entries in the record */
    return split_stage(u->grid, u->p, s, u->grid->col_comm, u->p->row_lo, u->y, u->rb,
                       split_row);
}
