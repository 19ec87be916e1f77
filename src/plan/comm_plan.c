/* The dense and support-aware communication plans (comm_plan.h).
 *
 * Table of contents:
 *   side_build      index lists of one direction from the participant masks
 *   side_sum        the ordered sum of one product (collective part + point-to-point)
 *   side_sync       rebuild non-participants' copies from the owners
 *   slp_plan_*      the public functions
 */
#include "plan/comm_plan.h"

#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "grid/comm_mpi.h"
#include "shard/shard.h"
#include "grid/reduce.h"

enum { TAG_REDUCE = 11, TAG_RETURN = 12, TAG_SYNC = 13 };

/* One direction: the rows of block r over the grid row (P = C), or the columns
 * of block c over the grid column (P = R). Group rank = this rank's index. */
typedef struct side {
    int P, me;
    MPI_Comm comm;          /* owned duplicate of row_comm / col_comm; MPI_COMM_NULL when P == 1 */
    int64_t len;            /* local slice length */
    int support;            /* 0: every coordinate is in the full bucket */
    /* Full bucket: MPI_Alltoallv of the partials, segment k summed by group rank k,
     * then MPI_Allgatherv. */
    int64_t nfull;
    int64_t *full_idx;      /* [nfull] coordinates; NULL: identity (all of them) */
    int *seg_cnt, *seg_off; /* [P] segments of the full list */
    int *rcv_cnt, *rcv_off; /* [P] the alltoallv receive layout: seg_cnt[me] from each */
    double *full_pack;      /* [nfull] packed partials, then sums (NULL for identity) */
    double *full_recv;      /* [P * seg_cnt[me]] */
    /* Partial buckets (2 <= |S| < P): point-to-point through the lowest participant. */
    int64_t *out_ptr, *out_idx; /* [P+1], [..]: coordinates I participate in, owned by p */
    int64_t *in_ptr, *in_idx;   /* [P+1], [..]: coordinates I own in which p participates */
    double *out_buf, *in_buf;
    int64_t sum_scalars;    /* scalars this rank sent in the sums (all legs) */
    int64_t sync_scalars;   /* scalars this rank sent at synchronisations */
    int64_t messages;       /* messages this rank sent (sums and syncs): a point-to-point
                               send, or one non-empty destination of a collective */
    /* Synchronisation: I own nown coordinates with 1 <= |S| < P (their masks kept);
     * from owner p I receive the coordinates I do not participate in. */
    int words;
    int64_t nown;
    int64_t *own_idx;       /* [nown] */
    uint64_t *own_mask;     /* [nown * words] */
    int64_t *sync_out_cnt;  /* [P] coordinates I send to p at a sync */
    int64_t *sin_ptr, *sin_idx; /* [P+1], [..]: coordinates owned by p that I do not hold */
    MPI_Request *req;       /* [2P] */
} side_t;

struct slp_comm_plan {
    int support;            /* 1 for "support" */
    side_t rows, cols;
    slp_plan_model_t model; /* computed at creation, identical on every rank */
    double comm_seconds;
    int64_t sum_calls, sync_calls;
    double sync_modelled;   /* the model's sync hops of the syncs that ran (whole grid) */
    double sum_modelled;    /* the model's legs of the sums that ran (whole grid) */
};

static slp_err mpi_ok(int rc, const char *what)
{
    if (rc == MPI_SUCCESS)
        return SLP_OK;
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, text, &len);
    return slp_error(SLP_ERR_MPI, "communication plan: %s failed: %s", what, text);
}

static int has_bit(const uint64_t *mask, int p) { return (int)((mask[p / 64] >> (p % 64)) & 1u); }

/* ---------------------------------------------------------------- side_build */

static void side_free(side_t *s)
{
    if (s->comm != MPI_COMM_NULL && slp_comm_uses_mpi())
        MPI_Comm_free(&s->comm);
    void *arrays[] = {s->full_idx, s->seg_cnt,  s->seg_off,  s->rcv_cnt,      s->rcv_off,
                      s->full_pack, s->full_recv, s->out_ptr, s->out_idx,     s->in_ptr,
                      s->in_idx,   s->out_buf,  s->in_buf,   s->own_idx,      s->own_mask,
                      s->sync_out_cnt, s->sin_ptr, s->sin_idx, s->req};
    for (size_t k = 0; k < sizeof arrays / sizeof *arrays; k++)
        free(arrays[k]);
    memset(s, 0, sizeof *s);
    s->comm = MPI_COMM_NULL;
}

/* Counts become MPI ints: refuse what does not fit rather than truncate. */
static slp_err fits_int(int64_t v, const char *what)
{
    if (v > INT_MAX)
        return slp_error(SLP_ERR_UNSUPPORTED,
                         "communication plan: %s of %lld values exceeds one MPI message",
                         what, (long long)v);
    return SLP_OK;
}

/* Segments of the full list and the receive layout of the alltoallv. */
static slp_err build_segments(side_t *s)
{
    int P = s->P;
    SLP_CALL(slp_alloc(&s->seg_cnt, (size_t)P, sizeof(int)));
    SLP_CALL(slp_alloc(&s->seg_off, (size_t)P, sizeof(int)));
    SLP_CALL(slp_alloc(&s->rcv_cnt, (size_t)P, sizeof(int)));
    SLP_CALL(slp_alloc(&s->rcv_off, (size_t)P, sizeof(int)));
    SLP_CALL(fits_int(s->nfull, "a full bucket"));
    for (int k = 0; k < P; k++) {
        int64_t lo = s->nfull * k / P, hi = s->nfull * (k + 1) / P;
        s->seg_off[k] = (int)lo;
        s->seg_cnt[k] = (int)(hi - lo);
    }
    SLP_CALL(fits_int((int64_t)P * s->seg_cnt[s->me], "a reduction segment"));
    for (int k = 0; k < P; k++) {
        s->rcv_cnt[k] = s->seg_cnt[s->me];
        s->rcv_off[k] = k * s->seg_cnt[s->me];
    }
    SLP_CALL(slp_alloc(&s->full_recv, (size_t)P * (size_t)s->seg_cnt[s->me] + 1, sizeof(double)));
    if (s->full_idx)
        SLP_CALL(slp_alloc(&s->full_pack, (size_t)s->nfull + 1, sizeof(double)));
    return SLP_OK;
}

/* Turn per-peer counts in ptr[1..P] into offsets (ptr[0] = 0). */
static void counts_to_offsets(int64_t *ptr, int P)
{
    ptr[0] = 0;
    for (int p = 0; p < P; p++)
        ptr[p + 1] += ptr[p];
}

/* The support lists from the participant masks (len * words, identical across the
 * group). Two passes: count, then fill. */
static slp_err build_support(side_t *s, const uint64_t *masks)
{
    int P = s->P, me = s->me, W = s->words;
    int64_t len = s->len;
    SLP_CALL(slp_alloc(&s->out_ptr, (size_t)P + 1, sizeof(int64_t)));
    SLP_CALL(slp_alloc(&s->in_ptr, (size_t)P + 1, sizeof(int64_t)));
    SLP_CALL(slp_alloc(&s->sin_ptr, (size_t)P + 1, sizeof(int64_t)));
    SLP_CALL(slp_alloc(&s->sync_out_cnt, (size_t)P, sizeof(int64_t)));
    memset(s->out_ptr, 0, ((size_t)P + 1) * sizeof(int64_t));
    memset(s->in_ptr, 0, ((size_t)P + 1) * sizeof(int64_t));
    memset(s->sin_ptr, 0, ((size_t)P + 1) * sizeof(int64_t));
    memset(s->sync_out_cnt, 0, (size_t)P * sizeof(int64_t));
    for (int64_t i = 0; i < len; i++) {
        const uint64_t *mk = masks + i * W;
        int k = slp_plan_mask_count(mk, W);
        if (k == 0)
            continue;
        if (k == P) {
            s->nfull++;
            continue;
        }
        int owner = slp_plan_mask_lowest(mk, W);
        if (owner == me) {
            s->nown++;
            for (int p = 0; p < P; p++) {
                if (p == me)
                    continue;
                if (has_bit(mk, p))
                    s->in_ptr[p + 1]++;
                else
                    s->sync_out_cnt[p]++;
            }
        } else if (has_bit(mk, me)) {
            s->out_ptr[owner + 1]++;
        } else {
            s->sin_ptr[owner + 1]++;
        }
    }
    counts_to_offsets(s->out_ptr, P);
    counts_to_offsets(s->in_ptr, P);
    counts_to_offsets(s->sin_ptr, P);
    for (int p = 0; p < P; p++) {
        SLP_CALL(fits_int(s->out_ptr[p + 1] - s->out_ptr[p], "a partial-bucket message"));
        SLP_CALL(fits_int(s->in_ptr[p + 1] - s->in_ptr[p], "a partial-bucket message"));
        SLP_CALL(fits_int(s->sin_ptr[p + 1] - s->sin_ptr[p], "a synchronisation message"));
        SLP_CALL(fits_int(s->sync_out_cnt[p], "a synchronisation message"));
    }
    SLP_CALL(slp_alloc(&s->full_idx, (size_t)s->nfull + 1, sizeof(int64_t)));
    SLP_CALL(slp_alloc(&s->out_idx, (size_t)s->out_ptr[P] + 1, sizeof(int64_t)));
    SLP_CALL(slp_alloc(&s->in_idx, (size_t)s->in_ptr[P] + 1, sizeof(int64_t)));
    SLP_CALL(slp_alloc(&s->sin_idx, (size_t)s->sin_ptr[P] + 1, sizeof(int64_t)));
    SLP_CALL(slp_alloc(&s->out_buf, (size_t)s->out_ptr[P] + 1, sizeof(double)));
    SLP_CALL(slp_alloc(&s->in_buf, (size_t)s->in_ptr[P] + 1, sizeof(double)));
    SLP_CALL(slp_alloc(&s->own_idx, (size_t)s->nown + 1, sizeof(int64_t)));
    SLP_CALL(slp_alloc(&s->own_mask, (size_t)(s->nown * W) + 1, sizeof(uint64_t)));
    int64_t *out_fill = NULL, *in_fill = NULL, *sin_fill = NULL;
    slp_err rc = slp_alloc(&out_fill, (size_t)P, sizeof(int64_t));
    if (rc == SLP_OK)
        rc = slp_alloc(&in_fill, (size_t)P, sizeof(int64_t));
    if (rc == SLP_OK)
        rc = slp_alloc(&sin_fill, (size_t)P, sizeof(int64_t));
    if (rc == SLP_OK) {
        memcpy(out_fill, s->out_ptr, (size_t)P * sizeof(int64_t));
        memcpy(in_fill, s->in_ptr, (size_t)P * sizeof(int64_t));
        memcpy(sin_fill, s->sin_ptr, (size_t)P * sizeof(int64_t));
        int64_t nf = 0, no = 0;
        for (int64_t i = 0; i < len; i++) {
            const uint64_t *mk = masks + i * W;
            int k = slp_plan_mask_count(mk, W);
            if (k == 0)
                continue;
            if (k == P) {
                s->full_idx[nf++] = i;
                continue;
            }
            int owner = slp_plan_mask_lowest(mk, W);
            if (owner == me) {
                s->own_idx[no] = i;
                memcpy(s->own_mask + no * W, mk, (size_t)W * sizeof(uint64_t));
                no++;
                for (int p = 0; p < P; p++)
                    if (p != me && has_bit(mk, p))
                        s->in_idx[in_fill[p]++] = i;
            } else if (has_bit(mk, me)) {
                s->out_idx[out_fill[owner]++] = i;
            } else {
                s->sin_idx[sin_fill[owner]++] = i;
            }
        }
    }
    free(out_fill);
    free(in_fill);
    free(sin_fill);
    return rc;
}

static slp_err side_build(side_t *s, slp_comm_t *group, const uint64_t *masks, int64_t len,
                          int support)
{
    s->comm = MPI_COMM_NULL;
    s->P = slp_comm_size(group);
    s->me = slp_comm_rank(group);
    s->len = len;
    s->support = support;
    s->words = slp_plan_mask_words(s->P);
    if (s->P == 1 || slp_comm_mpi(group) == MPI_COMM_NULL) {
        s->P = 1;
        s->me = 0;
        return SLP_OK;
    }
    /* A private communicator: the plan's messages never match anyone else's. */
    SLP_CALL(mpi_ok(MPI_Comm_dup(slp_comm_mpi(group), &s->comm), "MPI_Comm_dup"));
    SLP_CALL(slp_alloc(&s->req, 2 * (size_t)s->P, sizeof(MPI_Request)));
    if (support) {
        SLP_CALL(build_support(s, masks));
    } else {
        s->nfull = len; /* full_idx stays NULL: the identity */
    }
    return build_segments(s);
}

/* ---------------------------------------------------------------- side_sum */

static slp_err wait_all(side_t *s, int nreq)
{
    return mpi_ok(MPI_Waitall(nreq, s->req, MPI_STATUSES_IGNORE), "MPI_Waitall");
}

/* Full bucket: the ordered sum of every coordinate in the full list, everywhere. */
static slp_err sum_full(side_t *s, double *v)
{
    int P = s->P, me = s->me, seg = s->seg_cnt[me];
    double *pack = s->full_idx ? s->full_pack : v;
    if (s->full_idx)
        for (int64_t t = 0; t < s->nfull; t++)
            pack[t] = v[s->full_idx[t]];
    SLP_CALL(mpi_ok(MPI_Alltoallv(pack, s->seg_cnt, s->seg_off, MPI_DOUBLE, s->full_recv,
                                  s->rcv_cnt, s->rcv_off, MPI_DOUBLE, s->comm),
                    "MPI_Alltoallv"));
    s->sum_scalars += (s->nfull - seg) + (int64_t)seg * (P - 1); /* alltoallv + allgatherv */
    for (int q = 0; q < P; q++)
        s->messages += q != me && s->seg_cnt[q] > 0; /* alltoallv: to each non-empty segment */
    s->messages += seg > 0 ? P - 1 : 0;              /* allgatherv: my segment to the others */
    double *mine = pack + s->seg_off[me];
    for (int t = 0; t < seg; t++) {
        double acc = 0.0;
        for (int q = 0; q < P; q++)
            acc += s->full_recv[(int64_t)q * seg + t];
        mine[t] = acc;
    }
    SLP_CALL(mpi_ok(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, pack, s->seg_cnt,
                                   s->seg_off, MPI_DOUBLE, s->comm),
                    "MPI_Allgatherv"));
    if (s->full_idx)
        for (int64_t t = 0; t < s->nfull; t++)
            v[s->full_idx[t]] = pack[t];
    return SLP_OK;
}

/* One leg of the support sum: receives into rbuf by rptr, and sends to each peer the
 * entries sidx of v (by sptr) through sbuf. Leg 1 sends the partials to their owners,
 * leg 2 the sums back, with the two sides' roles swapped. */
static slp_err post_leg(side_t *s, double *rbuf, const int64_t *rptr, double *sbuf,
                        const int64_t *sptr, const int64_t *sidx, const double *v, int tag,
                        int *nreq)
{
    for (int p = 0; p < s->P; p++) {
        int cnt = (int)(rptr[p + 1] - rptr[p]);
        if (cnt)
            SLP_CALL(mpi_ok(MPI_Irecv(rbuf + rptr[p], cnt, MPI_DOUBLE, p, tag, s->comm,
                                      &s->req[(*nreq)++]),
                            "MPI_Irecv"));
    }
    for (int p = 0; p < s->P; p++) {
        int cnt = (int)(sptr[p + 1] - sptr[p]);
        if (!cnt)
            continue;
        for (int64_t t = sptr[p]; t < sptr[p + 1]; t++)
            sbuf[t] = v[sidx[t]];
        s->sum_scalars += cnt;
        s->messages++;
        SLP_CALL(mpi_ok(MPI_Isend(sbuf + sptr[p], cnt, MPI_DOUBLE, p, tag, s->comm,
                                  &s->req[(*nreq)++]),
                        "MPI_Isend"));
    }
    return SLP_OK;
}

static slp_err side_sum(side_t *s, double *v)
{
    if (s->P == 1)
        return SLP_OK;
    if (!s->support)
        return sum_full(s, v);
    int P = s->P, nreq = 0;
    /* Leg 1: partials to the owner (lowest participant), overlapped with the
     * full-bucket collectives. */
    SLP_CALL(post_leg(s, s->in_buf, s->in_ptr, s->out_buf, s->out_ptr, s->out_idx, v,
                      TAG_REDUCE, &nreq));
    if (s->nfull)
        SLP_CALL(sum_full(s, v));
    SLP_CALL(wait_all(s, nreq));
    /* The owner is the lowest participant, so its own partial comes first; the
     * others are added in increasing rank order, as the dense sum does. */
    for (int p = 0; p < P; p++)
        for (int64_t t = s->in_ptr[p]; t < s->in_ptr[p + 1]; t++)
            v[s->in_idx[t]] += s->in_buf[t];
    /* Leg 2: the sums back to the other participants. */
    nreq = 0;
    SLP_CALL(post_leg(s, s->out_buf, s->out_ptr, s->in_buf, s->in_ptr, s->in_idx, v,
                      TAG_RETURN, &nreq));
    SLP_CALL(wait_all(s, nreq));
    for (int64_t t = 0; t < s->out_ptr[P]; t++)
        v[s->out_idx[t]] = s->out_buf[t];
    return SLP_OK;
}

/* ---------------------------------------------------------------- side_sync */

static slp_err sync_exchange(side_t *s, double **vecs, int count, double *sbuf, double *rbuf)
{
    int P = s->P, W = s->words, nreq = 0;
    for (int p = 0; p < P; p++) {
        int64_t cnt = (s->sin_ptr[p + 1] - s->sin_ptr[p]) * count;
        SLP_CALL(fits_int(cnt, "a synchronisation message"));
        if (cnt)
            SLP_CALL(mpi_ok(MPI_Irecv(rbuf + s->sin_ptr[p] * count, (int)cnt, MPI_DOUBLE, p,
                                      TAG_SYNC, s->comm, &s->req[nreq++]),
                            "MPI_Irecv"));
    }
    double *at = sbuf;
    for (int p = 0; p < P; p++) {
        int64_t cnt = s->sync_out_cnt[p];
        SLP_CALL(fits_int(cnt * count, "a synchronisation message"));
        if (!cnt)
            continue;
        double *start = at;
        for (int k = 0; k < count; k++)
            for (int64_t t = 0; t < s->nown; t++)
                if (!has_bit(s->own_mask + t * W, p))
                    *at++ = vecs[k][s->own_idx[t]];
        SLP_CALL(mpi_ok(MPI_Isend(start, (int)(cnt * count), MPI_DOUBLE, p, TAG_SYNC, s->comm,
                                  &s->req[nreq++]),
                        "MPI_Isend"));
        s->sync_scalars += cnt * count;
        s->messages++;
    }
    SLP_CALL(wait_all(s, nreq));
    for (int p = 0; p < P; p++) {
        int64_t lo = s->sin_ptr[p], cnt = s->sin_ptr[p + 1] - lo;
        const double *from = rbuf + lo * count;
        for (int k = 0; k < count; k++)
            for (int64_t t = 0; t < cnt; t++)
                vecs[k][s->sin_idx[lo + t]] = from[k * cnt + t];
    }
    return SLP_OK;
}

static slp_err side_sync(side_t *s, double **vecs, int count)
{
    if (s->P == 1 || !s->support || count <= 0)
        return SLP_OK;
    int64_t nsend = 0;
    for (int p = 0; p < s->P; p++)
        nsend += s->sync_out_cnt[p];
    double *sbuf = NULL, *rbuf = NULL;
    slp_err rc = slp_alloc(&sbuf, (size_t)(nsend * count) + 1, sizeof(double));
    if (rc == SLP_OK)
        rc = slp_alloc(&rbuf, (size_t)(s->sin_ptr[s->P] * count) + 1, sizeof(double));
    if (rc == SLP_OK)
        rc = sync_exchange(s, vecs, count, sbuf, rbuf);
    free(sbuf);
    free(rbuf);
    return rc;
}

/* ---------------------------------------------------------------- public */

slp_err slp_plan_create(slp_grid_t *grid, const slp_local_problem_t *lp, const char *mode,
                        slp_comm_plan_t **out)
{
    *out = NULL;
    int support;
    if (!mode || !strcmp(mode, "dense"))
        support = 0;
    else if (!strcmp(mode, "support"))
        support = 1;
    else
        return slp_error(SLP_ERR_INPUT, "unknown communication plan '%s' (dense or support)", mode);
    slp_comm_plan_t *plan = slp_calloc(1, sizeof *plan);
    slp_err rc = plan ? SLP_OK : SLP_ERR_NOMEM;
    uint64_t *rmask = NULL, *cmask = NULL;
    if (rc == SLP_OK) {
        plan->rows.comm = plan->cols.comm = MPI_COMM_NULL;
        rc = slp_plan_model_local(grid, lp, &plan->model, &rmask, &cmask);
    }
    if (rc == SLP_OK) {
        /* In the single-process layer every plan is dense (and does nothing). */
        plan->support = support && slp_comm_uses_mpi() && grid->size > 1;
        rc = side_build(&plan->rows, grid->row_comm, rmask, lp->A.rows, plan->support);
        if (rc == SLP_OK)
            rc = side_build(&plan->cols, grid->col_comm, cmask, lp->A.cols, plan->support);
    }
    free(rmask);
    free(cmask);
    rc = slp_comm_agree(grid->world, rc);
    if (rc != SLP_OK) {
        slp_plan_destroy(&plan);
        return rc;
    }
    double dense = slp_plan_model_dense(&plan->model);
    slp_log_verbose("communication plan (%s): modelled %.6g (dense) and %.6g (support) logical "
                    "scalar-hops per iteration\n",
                    plan->support ? "support" : "dense", dense, slp_plan_model_support(&plan->model));
    *out = plan;
    return SLP_OK;
}

void slp_plan_destroy(slp_comm_plan_t **plan)
{
    if (!plan || !*plan)
        return;
    slp_log_verbose("communication plan (%s): %.6f s in %lld sums and %lld syncs (rank 0)\n",
                    (*plan)->support ? "support" : "dense", (*plan)->comm_seconds,
                    (long long)(*plan)->sum_calls, (long long)(*plan)->sync_calls);
    side_free(&(*plan)->rows);
    side_free(&(*plan)->cols);
    free(*plan);
    *plan = NULL;
}

/* One sum (vecs == NULL: v is summed) or sync (count vectors) on one side of the plan,
 * after checking the length and with the time counted. */
static slp_err timed_side(slp_comm_plan_t *plan, side_t *side, const char *what, double *v,
                          double **vecs, int count, int64_t len)
{
    if (len != side->len)
        return slp_error(SLP_ERR_INTERNAL, "%s of %lld values on a plan for %lld", what,
                         (long long)len, (long long)side->len);
    double t0 = MPI_Wtime();
    slp_err rc = vecs ? side_sync(side, vecs, count) : side_sum(side, v);
    plan->comm_seconds += MPI_Wtime() - t0;
    if (vecs) {
        plan->sync_calls++;
        if (side->support && side->P > 1) {
            const slp_plan_tally_t *t = side == &plan->rows ? &plan->model.rows : &plan->model.cols;
            plan->sync_modelled += (double)count * (double)t->sync_hops;
        }
    } else {
        plan->sum_calls++;
        if (side->P > 1) {
            const slp_plan_tally_t *t = side == &plan->rows ? &plan->model.rows : &plan->model.cols;
            plan->sum_modelled += (double)(side->support ? t->support_hops : t->dense_hops);
        }
    }
    return rc;
}

slp_err slp_plan_sum_rows(slp_comm_plan_t *plan, slp_grid_t *grid, double *v, int64_t m_loc)
{
    if (!plan)
        return slp_sum_over_row(grid, v, m_loc);
    return timed_side(plan, &plan->rows, "row sum", v, NULL, 0, m_loc);
}

slp_err slp_plan_sum_cols(slp_comm_plan_t *plan, slp_grid_t *grid, double *v, int64_t n_loc)
{
    if (!plan)
        return slp_sum_over_col(grid, v, n_loc);
    return timed_side(plan, &plan->cols, "column sum", v, NULL, 0, n_loc);
}

slp_err slp_plan_sync_rows(slp_comm_plan_t *plan, slp_grid_t *grid, double **vecs, int count,
                           int64_t m_loc)
{
    (void)grid;
    return plan ? timed_side(plan, &plan->rows, "row sync", NULL, vecs, count, m_loc) : SLP_OK;
}

slp_err slp_plan_sync_cols(slp_comm_plan_t *plan, slp_grid_t *grid, double **vecs, int count,
                           int64_t n_loc)
{
    (void)grid;
    return plan ? timed_side(plan, &plan->cols, "column sync", NULL, vecs, count, n_loc) : SLP_OK;
}

slp_err slp_plan_hops(slp_comm_plan_t *plan, slp_grid_t *grid, const slp_local_problem_t *lp,
                      double *dense_hops, double *plan_hops)
{
    if (!plan) {
        int64_t ax_hops = 0, aty_hops = 0;
        slp_shard_dense_hops(lp->m, lp->n, grid->R, grid->C, &ax_hops, &aty_hops);
        *dense_hops = (double)(ax_hops + aty_hops);
        *plan_hops = *dense_hops;
        return SLP_OK;
    }
    *dense_hops = slp_plan_model_dense(&plan->model);
    *plan_hops = plan->support ? slp_plan_model_support(&plan->model) : *dense_hops;
    return SLP_OK;
}

void slp_plan_set_sync_interval(slp_comm_plan_t *plan, int iterations)
{
    if (plan && iterations > 0)
        plan->model.sync_interval = iterations;
}

const slp_plan_model_t *slp_plan_model(const slp_comm_plan_t *plan)
{
    return plan ? &plan->model : NULL;
}

double slp_plan_comm_seconds(const slp_comm_plan_t *plan) { return plan ? plan->comm_seconds : 0.0; }
int64_t slp_plan_sum_calls(const slp_comm_plan_t *plan) { return plan ? plan->sum_calls : 0; }
int64_t slp_plan_sync_calls(const slp_comm_plan_t *plan) { return plan ? plan->sync_calls : 0; }
int slp_plan_is_support(const slp_comm_plan_t *plan) { return plan ? plan->support : 0; }

slp_err slp_plan_traffic(slp_comm_plan_t *plan, slp_grid_t *grid, slp_plan_traffic_t *out)
{
    memset(out, 0, sizeof *out);
    double sent[3] = {0.0, 0.0, 0.0};
    if (plan) {
        sent[0] = (double)(plan->rows.sum_scalars + plan->cols.sum_scalars);
        sent[1] = (double)(plan->rows.sync_scalars + plan->cols.sync_scalars);
        sent[2] = (double)(plan->rows.messages + plan->cols.messages);
        out->syncs = plan->sync_calls;
        out->sync_modelled = plan->sync_modelled;
        out->sum_modelled = plan->sum_modelled;
    }
    SLP_CALL(slp_comm_sum(grid->world, sent, 3));
    out->sum_scalars = sent[0];
    out->sync_scalars = sent[1];
    out->messages = sent[2];
    return SLP_OK;
}
