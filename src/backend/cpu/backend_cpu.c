/* CPU backend: plain C loops over host arrays, OpenMP threads when available.
 * Reductions add partials over parts fixed by the length alone, in part order, and
 * element-wise loops have no order: results do not depend on the thread count or on
 * which thread ran what, so the thread governor (cpu_threads.h) can change the count
 * between windows without moving an iterate (docs/threads.md). Loops hand out their
 * work in chunks as threads come free, so a thread slowed by another process on its
 * core delays a loop by one chunk, not by its whole share. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef SLP_HAVE_OPENMP
#include <omp.h>
#endif

#include "backend/backend.h"
#include "backend/check_coord.h"
#include "backend/cpu/cpu_block.h"
#include "backend/cpu/cpu_threads.h"
#include "backend/kernels.h"
#include "core/log.h"

/* Below this many elements a loop runs on one thread (fork/join costs more). */
#define SLP_PAR_MIN 20000
/* Element-wise loops hand out chunks of this many coordinates. */
#define SLP_CHUNK 4096
/* A reduction's parts: at least this many entries each, at most SLP_MAX_PARTS. */
#define SLP_PART_LEN 16384
#define SLP_MAX_PARTS 64

typedef struct {
    slp_backend_t base;
    int threads;                   /* the count in use */
    int adaptive;                  /* the default count: the governor may change it */
    slp_thread_governor_t governor;
} cpu_backend_t;

static int thread_count(int64_t len)
{
#ifdef SLP_HAVE_OPENMP
    return len >= SLP_PAR_MIN ? omp_get_max_threads() : 1;
#else
    (void)len;
    return 1;
#endif
}

/* The parts of a reduction over len entries: fixed by len, whatever the threads. */
static int part_count(int64_t len)
{
    int64_t parts = len < SLP_PAR_MIN ? 1 : len / SLP_PART_LEN;
    return parts < 1 ? 1 : parts > SLP_MAX_PARTS ? SLP_MAX_PARTS : (int)parts;
}

/* Static split of [0, len) into `parts`: [lo, hi) of part k. */
static void split_range(int64_t len, int parts, int k, int64_t *lo, int64_t *hi)
{
    *lo = len * k / parts;
    *hi = len * (k + 1) / parts;
}

static slp_err cpu_vec_create(slp_backend_t *be, int64_t len, double **out)
{
    (void)be;
    *out = slp_calloc((size_t)(len > 0 ? len : 1), sizeof(double));
    return *out ? SLP_OK : SLP_ERR_NOMEM;
}

static void cpu_vec_destroy(slp_backend_t *be, double *v)
{
    (void)be;
    free(v);
}

static slp_err cpu_vec_upload(slp_backend_t *be, double *dst, const double *host, int64_t len)
{
    (void)be;
    if (len > 0)
        memcpy(dst, host, (size_t)len * sizeof(double));
    return SLP_OK;
}

static void cpu_vec_copy(slp_backend_t *be, double *dst, const double *src, int64_t len)
{
    (void)be;
    if (len > 0 && dst != src)
        memcpy(dst, src, (size_t)len * sizeof(double));
}

static void cpu_vec_fill(slp_backend_t *be, double *dst, double value, int64_t len)
{
    (void)be;
    for (int64_t i = 0; i < len; i++)
        dst[i] = value;
}

static void cpu_vec_axpby(slp_backend_t *be, double *dst, double a, const double *x, double b,
                          const double *y, int64_t len)
{
    (void)be;
#pragma omp parallel for if (len >= SLP_PAR_MIN) schedule(dynamic, SLP_CHUNK)
    for (int64_t i = 0; i < len; i++)
        dst[i] = a * x[i] + b * y[i];
}

static void cpu_vec_mul(slp_backend_t *be, double *dst, const double *x, const double *y,
                        int64_t len)
{
    (void)be;
#pragma omp parallel for if (len >= SLP_PAR_MIN) schedule(dynamic, SLP_CHUNK)
    for (int64_t i = 0; i < len; i++)
        dst[i] = x[i] * y[i];
}

static double cpu_vec_dot(slp_backend_t *be, const double *x, const double *y, int64_t len)
{
    (void)be;
    int parts = part_count(len), threads = thread_count(len);
    double partial[SLP_MAX_PARTS];
    (void)threads;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (parts > 1 && threads > 1)
    for (int k = 0; k < parts; k++) {
        int64_t lo, hi;
        split_range(len, parts, k, &lo, &hi);
        double s = 0.0;
        for (int64_t i = lo; i < hi; i++)
            s += x[i] * y[i];
        partial[k] = s;
    }
    double total = 0.0;
    for (int k = 0; k < parts; k++)
        total += partial[k];
    return total;
}

static slp_err cpu_block_create(slp_backend_t *be, slp_csr_t *a, slp_csr_t *at,
                                const slp_block_options_t *opt, slp_block_t **out)
{
    slp_block_layout layout =
        slp_cpu_block_layout_asked(opt->copies, a->rows, a->cols, a->nnz, be->parts);
    return slp_cpu_block_create(a, at, layout, be->parts, opt, out);
}

static void cpu_block_report(slp_backend_t *be, const slp_block_t *block, slp_block_report_t *out)
{
    (void)be;
    slp_cpu_block_report(block, out);
}

static void cpu_block_destroy(slp_backend_t *be, slp_block_t *block)
{
    (void)be;
    slp_cpu_block_destroy(block);
}

static void cpu_spmv(slp_backend_t *be, const slp_block_t *a, const double *x, double *y)
{
    (void)be;
    slp_cpu_block_multiply(a, x, y);
}

static void cpu_spmv_t(slp_backend_t *be, const slp_block_t *a, const double *y, double *x)
{
    (void)be;
    slp_cpu_block_multiply_t(a, y, x);
}

static void cpu_spmv_iterate(slp_backend_t *be, const slp_block_t *a, const double *x, double *y)
{
    (void)be;
    slp_cpu_block_iterate_multiply(a, x, y);
}

static void cpu_spmv_t_iterate(slp_backend_t *be, const slp_block_t *a, const double *y,
                               double *x)
{
    (void)be;
    slp_cpu_block_iterate_multiply_t(a, y, x);
}

/* The element-wise passes read the argument struct's pointers into locals first: read
 * through the struct inside the loop they would be reloaded after every store, which
 * keeps the compiler from vectorising; `simd` says that each coordinate is independent
 * (g and xbar may be the same vector, read before written coordinate by coordinate). */
static void cpu_primal_step(slp_backend_t *be, const slp_primal_args *p)
{
    (void)be;
    const int64_t n = p->n;
    const double tau = p->tau, w = p->w;
    const double *g = p->g, *c = p->c, *l = p->l, *u = p->u, *x0 = p->x0;
    double *x = p->x, *xbar = p->xbar, *xhat = p->xhat, *slack = p->slack, *dx = p->dx;
    if (p->major) {
#pragma omp parallel for simd if (n >= SLP_PAR_MIN) schedule(simd : dynamic, SLP_CHUNK)
        for (int64_t j = 0; j < n; j++) {
            double xj = x[j], next, s;
            double h = slp_primal_coord(xj, x0[j], g[j], c[j], l[j], u[j], tau, w, &xbar[j],
                                        &next, &s);
            xhat[j] = h;
            slack[j] = s;
            dx[j] = h - xj;
            x[j] = next;
        }
    } else {
#pragma omp parallel for simd if (n >= SLP_PAR_MIN) schedule(simd : dynamic, SLP_CHUNK)
        for (int64_t j = 0; j < n; j++) {
            double next, s;
            slp_primal_coord(x[j], x0[j], g[j], c[j], l[j], u[j], tau, w, &xbar[j], &next, &s);
            x[j] = next;
        }
    }
}

static void cpu_dual_step(slp_backend_t *be, const slp_dual_args *d)
{
    (void)be;
    const int64_t m = d->m;
    const double sigma = d->sigma, w = d->w;
    const double *h = d->h, *l = d->l, *u = d->u, *y0 = d->y0;
    double *y = d->y, *yhat = d->yhat, *dy = d->dy;
    if (d->major) {
#pragma omp parallel for simd if (m >= SLP_PAR_MIN) schedule(simd : dynamic, SLP_CHUNK)
        for (int64_t i = 0; i < m; i++) {
            double yi = y[i], next;
            double hat = slp_dual_coord(yi, y0[i], h[i], l[i], u[i], sigma, w, &next);
            yhat[i] = hat;
            dy[i] = hat - yi;
            y[i] = next;
        }
    } else {
#pragma omp parallel for simd if (m >= SLP_PAR_MIN) schedule(simd : dynamic, SLP_CHUNK)
        for (int64_t i = 0; i < m; i++) {
            double next;
            slp_dual_coord(y[i], y0[i], h[i], l[i], u[i], sigma, w, &next);
            y[i] = next;
        }
    }
}

static void cpu_ray_project(slp_backend_t *be, slp_ray_kind kind, const double *src,
                            const double *l, const double *u, double *dst, int64_t len)
{
    (void)be;
#pragma omp parallel for if (len >= SLP_PAR_MIN) schedule(dynamic, SLP_CHUNK)
    for (int64_t i = 0; i < len; i++)
        dst[i] = kind == SLP_RAY_PRIMAL ? slp_primal_ray_coord(src[i], l[i], u[i])
                                        : slp_dual_ray_coord(src[i], l[i], u[i]);
}

static void col_check_range(const slp_col_check_args *a, int64_t lo, int64_t hi, double *out)
{
    double s[SLP_COL_COUNT] = {0};
    for (int64_t j = lo; j < hi; j++)
        slp_col_check_coord(a, j, s);
    memcpy(out, s, sizeof s);
}

static void row_check_range(const slp_row_check_args *a, int64_t lo, int64_t hi, double *out)
{
    double s[SLP_ROW_COUNT] = {0};
    for (int64_t i = lo; i < hi; i++)
        slp_row_check_coord(a, i, s);
    memcpy(out, s, sizeof s);
}

/* Run range(args, lo, hi, partial) on each part and combine in part order;
 * is_max(e) says which entries combine by max instead of sum. */
#define SLP_PARALLEL_PARTIALS(range, args, len, count, is_max, out)                    \
    do {                                                                               \
        int parts_ = part_count(len), threads_ = thread_count(len);                    \
        double partial_[SLP_MAX_PARTS][count];                                         \
        (void)threads_;                                                                \
        _Pragma("omp parallel for schedule(dynamic, 1) num_threads(threads_) if (parts_ > 1 && threads_ > 1)") \
        for (int k_ = 0; k_ < parts_; k_++) {                                          \
            int64_t lo_, hi_;                                                          \
            split_range(len, parts_, k_, &lo_, &hi_);                                  \
            range(args, lo_, hi_, partial_[k_]);                                       \
        }                                                                              \
        for (int e_ = 0; e_ < (count); e_++)                                           \
            out[e_] = partial_[0][e_];                                                 \
        for (int k_ = 1; k_ < parts_; k_++)                                            \
            for (int e_ = 0; e_ < (count); e_++)                                       \
                out[e_] = is_max(e_) ? fmax(out[e_], partial_[k_][e_])                 \
                                           : out[e_] + partial_[k_][e_];               \
    } while (0)

static int col_slot_is_max(int e) { return (SLP_COL_MAX_MASK >> e) & 1u; }
static int row_slot_is_max(int e) { return (SLP_ROW_MAX_MASK >> e) & 1u; }

static void cpu_col_check(slp_backend_t *be, const slp_col_check_args *args,
                          double out[SLP_COL_COUNT])
{
    (void)be;
    SLP_PARALLEL_PARTIALS(col_check_range, args, args->n, SLP_COL_COUNT, col_slot_is_max, out);
}

static void cpu_row_check(slp_backend_t *be, const slp_row_check_args *args,
                          double out[SLP_ROW_COUNT])
{
    (void)be;
    SLP_PARALLEL_PARTIALS(row_check_range, args, args->m, SLP_ROW_COUNT, row_slot_is_max, out);
}

static void cpu_destroy(slp_backend_t *be)
{
    cpu_backend_t *cpu = (cpu_backend_t *)be;
    if (cpu->governor.moves)
        slp_log_verbose("threads: the governor changed the count %lld times, ending at %d\n",
                        (long long)cpu->governor.moves, cpu->threads);
    free(be);
}

/* The governor's choice for the next window (cpu_threads.h). */
static void cpu_window_done(slp_backend_t *be, int64_t iterations, double seconds)
{
    cpu_backend_t *cpu = (cpu_backend_t *)be;
    if (!cpu->adaptive)
        return;
    slp_thread_governor_t *g = &cpu->governor;
    int64_t moves = g->moves;
    int next = slp_thread_governor_step(g, iterations, seconds);
    int busy;
    if (slp_thread_governor_probing_up(g) && !g->flip &&
        slp_cpu_threads_free(g->threads[0], &busy) < next) {
        slp_thread_governor_skip_probe(g); /* the cores are still busy: the probe would lose */
        next = g->threads[g->at];
    }
    if (g->moves > moves) /* a probe won */
        slp_log_verbose("threads: %d instead of %d (%.3g s per iteration against %.3g)\n",
                        next, g->threads[g->beaten], g->per_iter[g->at], g->per_iter[g->beaten]);
    if (next == cpu->threads)
        return;
    cpu->threads = next;
#ifdef SLP_HAVE_OPENMP
    omp_set_num_threads(next);
#endif
}

static slp_err cpu_status(slp_backend_t *be)
{
    (void)be;
    return SLP_OK;
}

static int64_t cpu_memory_free(slp_backend_t *be)
{
    (void)be;
    return -1;
}

static slp_err cpu_host_alloc(slp_backend_t *be, size_t bytes, void **out)
{
    (void)be;
    *out = slp_malloc(bytes > 0 ? bytes : 1);
    return *out ? SLP_OK : SLP_ERR_NOMEM;
}

static void cpu_host_free(slp_backend_t *be, void *p)
{
    (void)be;
    free(p);
}

/* The count, where it came from, and a start below it (other processes' busy tasks). */
static void log_threads(int threads, int start, int busy, const char *why, int adaptive,
                        int governed)
{
    if (!adaptive)
        return;
    if (start < threads)
        slp_log("Threads: %d of %d (%s): %d other runnable task%s now; more when the cores "
                "come free (docs/threads.md)\n",
                start, threads, why, busy, busy == 1 ? "" : "s");
    else
        slp_log("Threads: %d (%s)%s\n", threads, why,
                governed ? "; fewer while other processes hold the cores (docs/threads.md)" : "");
}

slp_err slp_backend_cpu_create(int threads, slp_backend_t **out)
{
    *out = NULL;
    cpu_backend_t *cpu = slp_calloc(1, sizeof *cpu);
    if (!cpu)
        return SLP_ERR_NOMEM;
    char why[64] = "";
    int adaptive = threads <= 0;
    if (adaptive)
        threads = slp_cpu_threads_default(why, sizeof why);
#ifndef SLP_HAVE_OPENMP
    threads = 1;
#endif
    cpu->adaptive = adaptive && threads > 1;
    slp_thread_governor_init(&cpu->governor, cpu->adaptive ? threads : 1);
    /* Tests: a count changed after every window must leave every iterate as it is. */
    cpu->governor.flip = getenv("SLP_TEST_GOVERNOR_FLIP") != NULL;
    int start = threads, busy = 0;
    if (cpu->adaptive && !cpu->governor.flip) {
        start = slp_cpu_threads_free(threads, &busy);
        slp_thread_governor_start(&cpu->governor, start);
        start = cpu->governor.threads[cpu->governor.at];
    }
    log_threads(threads, start, busy, why, adaptive, cpu->adaptive);
    cpu->threads = start;
#ifdef SLP_HAVE_OPENMP
    omp_set_num_threads(start);
#endif
    slp_backend_t *be = &cpu->base;
    be->name = "cpu";
    be->memory = SLP_MEM_HOST;
    be->parts = threads;
    be->status = cpu_status;
    be->memory_free = cpu_memory_free;
    be->host_alloc = cpu_host_alloc;
    be->host_free = cpu_host_free;
    be->vec_create = cpu_vec_create;
    be->vec_destroy = cpu_vec_destroy;
    be->vec_upload = cpu_vec_upload;
    be->vec_download = cpu_vec_upload; /* host to host: the same copy */
    be->vec_copy = cpu_vec_copy;
    be->vec_fill = cpu_vec_fill;
    be->vec_axpby = cpu_vec_axpby;
    be->vec_mul = cpu_vec_mul;
    be->vec_dot = cpu_vec_dot;
    be->block_create = cpu_block_create;
    be->block_destroy = cpu_block_destroy;
    be->block_report = cpu_block_report;
    be->spmv = cpu_spmv;
    be->spmv_t = cpu_spmv_t;
    be->spmv_iterate = cpu_spmv_iterate;
    be->spmv_t_iterate = cpu_spmv_t_iterate;
    be->primal_step = cpu_primal_step;
    be->dual_step = cpu_dual_step;
    be->ray_project = cpu_ray_project;
    be->col_check = cpu_col_check;
    be->row_check = cpu_row_check;
    be->window_done = cpu_window_done;
    be->destroy = cpu_destroy;
    *out = be;
    return SLP_OK;
}
