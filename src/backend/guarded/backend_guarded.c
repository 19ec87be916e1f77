/* The guarded backend (docs/gpu.md section 3): the CPU backend's arithmetic, with
 * every vector in pages that host code cannot touch. A vector is an mmap'd region
 * kept PROT_NONE; an operation opens the regions of its arguments (read-write),
 * runs the CPU backend's operation and closes them again. Any dereference outside
 * an operation or an upload/download faults at once, and the fault handler names
 * the vector region before the process dies. A pointer that is not a vector of
 * this backend, handed to an operation as one, aborts with a message.
 *
 * It declares its memory SLP_MEM_DEVICE, so the exchange stages its vectors
 * exactly as it stages CUDA's: a run with --backend guarded takes the CUDA
 * backend's host-side paths with the CPU backend's results. It is a test
 * instrument: two mprotect calls per vector argument per operation. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "backend/backend.h"

typedef struct {
    char *base;
    size_t bytes;
} region_t;

typedef struct {
    slp_backend_t base;
    slp_backend_t *cpu; /* the arithmetic */
    size_t page;
} guarded_t;

/* The regions of every guarded backend of the process, for the fault handler
 * (one backend per run; a small fixed table keeps the handler async-signal-safe). */
#define SLP_GUARD_MAX_REGIONS 256
static region_t g_regions[SLP_GUARD_MAX_REGIONS];
static volatile sig_atomic_t g_handler_installed;

static guarded_t *guarded_of(slp_backend_t *be) { return (guarded_t *)be; }

static void die(const char *what, const void *p)
{
    fprintf(stderr, "shardlp: error: guarded backend: %s (%p)\n", what, p);
    abort();
}

static region_t *region_of(const void *p)
{
    for (int k = 0; k < SLP_GUARD_MAX_REGIONS; k++) {
        region_t *r = &g_regions[k];
        if (r->base && (const char *)p >= r->base && (const char *)p < r->base + r->bytes)
            return r;
    }
    return NULL;
}

static void protect(const double *p, int prot)
{
    if (!p)
        return;
    region_t *r = region_of(p);
    if (!r)
        die("an operation was given a pointer that is not one of its vectors", p);
    if (mprotect(r->base, r->bytes, prot) != 0)
        die("mprotect failed", p);
}

/* Open (read-write) / close (no access) the regions of up to 16 arguments. */
static void open_args(const double *const *args, int count)
{
    for (int k = 0; k < count; k++)
        protect(args[k], PROT_READ | PROT_WRITE);
}

static void close_args(const double *const *args, int count)
{
    for (int k = 0; k < count; k++)
        protect(args[k], PROT_NONE);
}

#define GUARDED(args_list, call)                                                  \
    do {                                                                          \
        const double *guard_args_[] = args_list;                                  \
        int guard_n_ = (int)(sizeof guard_args_ / sizeof guard_args_[0]);         \
        open_args(guard_args_, guard_n_);                                         \
        call;                                                                     \
        close_args(guard_args_, guard_n_);                                        \
    } while (0)
#define ARGS(...) {__VA_ARGS__}

/* SIGSEGV / SIGBUS: say which vector host code touched, then die of the signal. */
static void on_fault(int sig, siginfo_t *info, void *ctx)
{
    (void)ctx;
    if (region_of(info->si_addr)) {
        static const char msg[] = "shardlp: error: guarded backend: host code touched a backend "
                                  "vector outside a backend operation\n";
        ssize_t ignored = write(STDERR_FILENO, msg, sizeof msg - 1);
        (void)ignored;
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_fault_handler(void)
{
    if (g_handler_installed)
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    g_handler_installed = 1;
}

/* ------------------------------------------------------------------ vectors */

static slp_err g_vec_create(slp_backend_t *be, int64_t len, double **out)
{
    guarded_t *g = guarded_of(be);
    *out = NULL;
    int slot = -1;
    for (int k = 0; k < SLP_GUARD_MAX_REGIONS && slot < 0; k++)
        if (!g_regions[k].base)
            slot = k;
    if (slot < 0)
        return slp_error(SLP_ERR_NOMEM, "guarded backend: more than %d vectors",
                         SLP_GUARD_MAX_REGIONS);
    size_t want = (size_t)(len > 0 ? len : 1) * sizeof(double);
    size_t bytes = (want + g->page - 1) / g->page * g->page;
    void *p = mmap(NULL, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0); /* zero-filled */
    if (p == MAP_FAILED)
        return slp_error(SLP_ERR_NOMEM, "guarded backend: mmap of %zu bytes failed", bytes);
    g_regions[slot].base = p;
    g_regions[slot].bytes = bytes;
    *out = p;
    return SLP_OK;
}

static void g_vec_destroy(slp_backend_t *be, double *v)
{
    (void)be;
    region_t *r = v ? region_of(v) : NULL;
    if (!r)
        return;
    munmap(r->base, r->bytes);
    r->base = NULL;
    r->bytes = 0;
}

static slp_err g_vec_upload(slp_backend_t *be, double *dst, const double *host, int64_t len)
{
    slp_backend_t *cpu = guarded_of(be)->cpu;
    slp_err rc = SLP_OK;
    GUARDED(ARGS(dst), rc = cpu->vec_upload(cpu, dst, host, len));
    return rc;
}

static slp_err g_vec_download(slp_backend_t *be, double *host, const double *src, int64_t len)
{
    slp_backend_t *cpu = guarded_of(be)->cpu;
    slp_err rc = SLP_OK;
    GUARDED(ARGS(src), rc = cpu->vec_download(cpu, host, src, len));
    return rc;
}

static void g_vec_copy(slp_backend_t *be, double *dst, const double *src, int64_t len)
{
    slp_backend_t *cpu = guarded_of(be)->cpu;
    GUARDED(ARGS(dst, src), cpu->vec_copy(cpu, dst, src, len));
}

static void g_vec_fill(slp_backend_t *be, double *dst, double value, int64_t len)
{
    slp_backend_t *cpu = guarded_of(be)->cpu;
    GUARDED(ARGS(dst), cpu->vec_fill(cpu, dst, value, len));
}

static void g_vec_axpby(slp_backend_t *be, double *dst, double a, const double *x, double b,
                        const double *y, int64_t len)
{
    slp_backend_t *cpu = guarded_of(be)->cpu;
    GUARDED(ARGS(dst, x, y), cpu->vec_axpby(cpu, dst, a, x, b, y, len));
}

static void g_vec_mul(slp_backend_t *be, double *dst, const double *x, const double *y,
                      int64_t len)
{
    slp_backend_t *cpu = guarded_of(be)->cpu;
    GUARDED(ARGS(dst, x, y), cpu->vec_mul(cpu, dst, x, y, len));
}

static double g_vec_dot(slp_backend_t *be, const double *x, const double *y, int64_t len)
{
    slp_backend_t *cpu = guarded_of(be)->cpu;
    double d = 0.0;
    GUARDED(ARGS(x, y), d = cpu->vec_dot(cpu, x, y, len));
    return d;
}

/* ------------------------------------------------------------------ block, products */

/* The block stays in the CPU backend's memory: its handle is opaque, so host code
 * has no way to reach its arrays. */
static slp_err g_block_create(slp_backend_t *be, slp_csr_t *a, slp_csr_t *at,
                              const slp_block_options_t *opt, slp_block_t **out)
{
    slp_backend_t *cpu = guarded_of(be)->cpu;
    return cpu->block_create(cpu, a, at, opt, out);
}

static void g_block_destroy(slp_backend_t *be, slp_block_t *block)
{
    slp_backend_t *cpu = guarded_of(be)->cpu;
    cpu->block_destroy(cpu, block);
}

static void g_block_report(slp_backend_t *be, const slp_block_t *block, slp_block_report_t *out)
{
    slp_backend_t *cpu = guarded_of(be)->cpu;
    cpu->block_report(cpu, block, out);
}

static void g_spmv(slp_backend_t *be, const slp_block_t *a, const double *x, double *y)
{
    slp_backend_t *cpu = guarded_of(be)->cpu;
    GUARDED(ARGS(x, y), cpu->spmv(cpu, a, x, y));
}

static void g_spmv_iterate(slp_backend_t *be, const slp_block_t *a, const double *x, double *y)
{
    slp_backend_t *cpu = guarded_of(be)->cpu;
    GUARDED(ARGS(x, y), cpu->spmv_iterate(cpu, a, x, y));
}

static void g_spmv_t_iterate(slp_backend_t *be, const slp_block_t *a, const double *y, double *x)
{
    slp_backend_t *cpu = guarded_of(be)->cpu;
    GUARDED(ARGS(y, x), cpu->spmv_t_iterate(cpu, a, y, x));
}

static void g_spmv_t(slp_backend_t *be, const slp_block_t *a, const double *y, double *x)
{
    slp_backend_t *cpu = guarded_of(be)->cpu;
    GUARDED(ARGS(y, x), cpu->spmv_t(cpu, a, y, x));
}

static void g_primal_step(slp_backend_t *be, const slp_primal_args *p)
{
    slp_backend_t *cpu = guarded_of(be)->cpu;
    GUARDED(ARGS(p->g, p->c, p->l, p->u, p->x0, p->x, p->xbar, p->xhat, p->slack, p->dx),
            cpu->primal_step(cpu, p));
}

static void g_dual_step(slp_backend_t *be, const slp_dual_args *d)
{
    slp_backend_t *cpu = guarded_of(be)->cpu;
    GUARDED(ARGS(d->h, d->l, d->u, d->y0, d->y, d->yhat, d->dy), cpu->dual_step(cpu, d));
}

static void g_ray_project(slp_backend_t *be, slp_ray_kind kind, const double *src,
                          const double *l, const double *u, double *dst, int64_t len)
{
    slp_backend_t *cpu = guarded_of(be)->cpu;
    GUARDED(ARGS(src, l, u, dst), cpu->ray_project(cpu, kind, src, l, u, dst, len));
}

static void g_col_check(slp_backend_t *be, const slp_col_check_args *a, double out[SLP_COL_COUNT])
{
    slp_backend_t *cpu = guarded_of(be)->cpu;
    GUARDED(ARGS(a->prod, a->xhat, a->x0, a->dx, a->c, a->slack, a->dcol, a->lv, a->uv,
                 a->ray_x),
            cpu->col_check(cpu, a, out));
}

static void g_row_check(slp_backend_t *be, const slp_row_check_args *a, double out[SLP_ROW_COUNT])
{
    slp_backend_t *cpu = guarded_of(be)->cpu;
    GUARDED(ARGS(a->prod, a->yhat, a->y0, a->dy, a->l, a->u, a->drow, a->ray_y),
            cpu->row_check(cpu, a, out));
}

/* ------------------------------------------------------------------ the rest */

static slp_err g_status(slp_backend_t *be)
{
    (void)be;
    return SLP_OK;
}

static int64_t g_memory_free(slp_backend_t *be)
{
    (void)be;
    return -1;
}

static slp_err g_host_alloc(slp_backend_t *be, size_t bytes, void **out)
{
    slp_backend_t *cpu = guarded_of(be)->cpu;
    return cpu->host_alloc(cpu, bytes, out);
}

static void g_host_free(slp_backend_t *be, void *p)
{
    slp_backend_t *cpu = guarded_of(be)->cpu;
    cpu->host_free(cpu, p);
}

static void g_window_done(slp_backend_t *be, int64_t iterations, double seconds)
{
    slp_backend_t *cpu = guarded_of(be)->cpu;
    cpu->window_done(cpu, iterations, seconds);
}

static void g_destroy(slp_backend_t *be)
{
    guarded_t *g = guarded_of(be);
    if (g->cpu)
        g->cpu->destroy(g->cpu);
    free(g);
}

slp_err slp_backend_guarded_create(int threads, slp_backend_t **out)
{
    *out = NULL;
    guarded_t *g = slp_calloc(1, sizeof *g);
    if (!g)
        return SLP_ERR_NOMEM;
    slp_err rc = slp_backend_cpu_create(threads, &g->cpu);
    if (rc != SLP_OK) {
        free(g);
        return rc;
    }
    long page = sysconf(_SC_PAGESIZE);
    g->page = page > 0 ? (size_t)page : 4096;
    install_fault_handler();
    slp_backend_t *be = &g->base;
    be->name = "guarded";
    be->memory = SLP_MEM_DEVICE;
    be->parts = g->cpu->parts; /* its host work is the CPU backend's */
    be->status = g_status;
    be->memory_free = g_memory_free;
    be->host_alloc = g_host_alloc;
    be->host_free = g_host_free;
    be->vec_create = g_vec_create;
    be->vec_destroy = g_vec_destroy;
    be->vec_upload = g_vec_upload;
    be->vec_download = g_vec_download;
    be->vec_copy = g_vec_copy;
    be->vec_fill = g_vec_fill;
    be->vec_axpby = g_vec_axpby;
    be->vec_mul = g_vec_mul;
    be->vec_dot = g_vec_dot;
    be->block_create = g_block_create;
    be->block_destroy = g_block_destroy;
    be->block_report = g_block_report;
    be->spmv = g_spmv;
    be->spmv_t = g_spmv_t;
    be->spmv_iterate = g_spmv_iterate;
    be->spmv_t_iterate = g_spmv_t_iterate;
    be->primal_step = g_primal_step;
    be->dual_step = g_dual_step;
    be->ray_project = g_ray_project;
    be->col_check = g_col_check;
    be->row_check = g_row_check;
    be->window_done = g_window_done;
    be->destroy = g_destroy;
    *out = be;
    return SLP_OK;
}
