/* The guarded backend (docs/gpu.md section 3) must really guard: a host read or
 * write of one of its vectors outside an operation dies of SIGSEGV at once, and
 * a host array handed to an operation as a vector aborts. Inside operations and
 * through upload/download it computes what the CPU backend computes. */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend/backend.h"
#include "check.h"

/* Run fn in a child; return the signal that ended it (0: exited normally). */
static int signal_of_child(void (*fn)(void))
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        fn();
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

static slp_backend_t *guarded(void)
{
    slp_backend_t *be = NULL;
    if (slp_backend_guarded_create(1, &be) != SLP_OK)
        _exit(3);
    return be;
}

static void child_reads_vector(void)
{
    slp_backend_t *be = guarded();
    double *v = NULL;
    be->vec_create(be, 8, &v);
    volatile double x = v[3]; /* must fault */
    (void)x;
}

static void child_writes_vector(void)
{
    slp_backend_t *be = guarded();
    double *v = NULL;
    be->vec_create(be, 8, &v);
    v[0] = 1.0; /* must fault */
}

static void child_passes_host_array(void)
{
    slp_backend_t *be = guarded();
    double host[4] = {1, 2, 3, 4};
    be->vec_fill(be, host, 0.0, 4); /* not a backend vector: abort */
}

static void test_faults(void)
{
    CHECK(signal_of_child(child_reads_vector) == SIGSEGV, "a host read did not fault");
    CHECK(signal_of_child(child_writes_vector) == SIGSEGV, "a host write did not fault");
    CHECK(signal_of_child(child_passes_host_array) == SIGABRT,
          "a host array taken as a vector was not refused");
}

/* The same element-wise arithmetic and reductions as the CPU backend, bitwise. */
static void test_same_arithmetic(void)
{
    slp_backend_t *g = NULL, *c = NULL;
    CHECK(slp_backend_guarded_create(1, &g) == SLP_OK && slp_backend_cpu_create(1, &c) == SLP_OK,
          "backends");
    enum { N = 1000 };
    double hx[N], hy[N], out_g[N], out_c[N];
    for (int i = 0; i < N; i++) {
        hx[i] = sin(0.1 * i);
        hy[i] = cos(0.37 * i) * 1e3;
    }
    double dots[2];
    slp_backend_t *bes[2] = {g, c};
    double *outs[2] = {out_g, out_c};
    for (int k = 0; k < 2; k++) {
        slp_backend_t *be = bes[k];
        double *x = NULL, *y = NULL;
        CHECK(be->vec_create(be, N, &x) == SLP_OK && be->vec_create(be, N, &y) == SLP_OK, "vecs");
        CHECK(be->vec_upload(be, x, hx, N) == SLP_OK && be->vec_upload(be, y, hy, N) == SLP_OK,
              "upload");
        be->vec_axpby(be, y, 0.5, x, -2.0, y, N);
        dots[k] = be->vec_dot(be, x, y, N);
        CHECK(be->vec_download(be, outs[k], y, N) == SLP_OK, "download");
        CHECK(be->status(be) == SLP_OK, "status");
        be->vec_destroy(be, x);
        be->vec_destroy(be, y);
    }
    CHECK(memcmp(out_g, out_c, sizeof out_g) == 0, "axpby differs between the backends");
    CHECK(dots[0] == dots[1], "dot %.17g vs %.17g", dots[0], dots[1]);
    CHECK(g->memory == SLP_MEM_DEVICE && c->memory == SLP_MEM_HOST, "memory kinds");
    g->destroy(g);
    c->destroy(c);
}

int main(void)
{
    test_faults();
    test_same_arithmetic();
    return check_summary();
}
