/* Checkpoint / restart of the main loop (see checkpoint.h and docs/reliability.md). */
#include "solver/checkpoint.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#include <zlib.h>

#include "core/interrupt.h"
#include "core/log.h"
#include "grid/comm.h"

#define CKPT_MAGIC "SLPCKPT1"
#define CKPT_VERSION 1u
#define CKPT_BOM 0x01020304u
#define CKPT_MANIFEST "checkpoint.json"

/* Header scalars, in file order (native byte order; the BOM rejects a foreign one). */
enum { HI_R, HI_C, HI_r, HI_c, HI_rank, HI_size, HI_n_loc, HI_m_loc, HI_eval_freq, HI_total,
       HI_epoch, HI_restarts, HI_checks, HI_reserved, HI_use_pid, HI_seq,
       HI_fingerprint, HI_COUNT };
enum { HD_fpe0, HD_fpe_last, HD_pid_omega_best, HD_pid_g_best, HD_pid_integral,
       HD_pid_e_prev, HD_eta, HD_omega, HD_omega0, HD_theta_b, HD_theta_c, HD_obj_const,
       HD_elapsed, HD_COUNT };

static struct {
    char *dir, *resume_dir;
    double every;
    double last_saved;  /* agreed elapsed time of the last checkpoint (or of the start) */
    int64_t seq;        /* checkpoints written by this run (continues a resumed run's) */
} cfg;

slp_err slp_checkpoint_configure(const char *dir, double every, const char *resume_dir)
{
    slp_checkpoint_reset();
    if (dir && !(cfg.dir = slp_strdup(dir)))
        return SLP_ERR_NOMEM;
    if (resume_dir && !(cfg.resume_dir = slp_strdup(resume_dir)))
        return SLP_ERR_NOMEM;
    cfg.every = every;
    return SLP_OK;
}

void slp_checkpoint_reset(void)
{
    free(cfg.dir);
    free(cfg.resume_dir);
    memset(&cfg, 0, sizeof cfg);
}

slp_err slp_checkpoint_agree(slp_pdhg_t *s, double local_elapsed, double *elapsed,
                             int *interrupted, int *checkpoint_due)
{
    double v[2] = {local_elapsed, slp_interrupt_pending() ? 1.0 : 0.0};
    SLP_CALL(slp_comm_max(s->grid->world, v, 2));
    *elapsed = v[0];
    *interrupted = v[1] > 0.0;
    *checkpoint_due = cfg.dir && cfg.every > 0.0 && v[0] - cfg.last_saved >= cfg.every;
    return SLP_OK;
}

/* The iterate vectors saved, in file order: n-vectors then m-vectors. */
static int state_vectors(slp_pdhg_t *s, double **vec[], int64_t len[])
{
    double **nv[] = {&s->x, &s->x0, &s->xbar, &s->xhat, &s->slack, &s->dx, &s->g, &s->aty,
                     &s->ray_x, &s->aty_ray};
    double **mv[] = {&s->y, &s->y0, &s->yhat, &s->dy, &s->h, &s->ax, &s->ray_y, &s->ax_ray};
    int k = 0;
    for (size_t i = 0; i < sizeof nv / sizeof *nv; i++, k++) {
        vec[k] = nv[i];
        len[k] = s->n;
    }
    for (size_t i = 0; i < sizeof mv / sizeof *mv; i++, k++) {
        vec[k] = mv[i];
        len[k] = s->m;
    }
    return k;
}
#define CKPT_MAX_VECS 18

/* crc32 of the local scaled problem (c, bounds, row bounds): a resume on another model,
 * another grid cut or other scaling options changes it. */
static slp_err fingerprint(slp_pdhg_t *s, double *buf, int64_t *out)
{
    unsigned long crc = crc32(0L, Z_NULL, 0);
    const double *nv[] = {s->c, s->lv, s->uv, s->dcol};
    const double *mv[] = {s->lc, s->uc, s->drow};
    for (int k = 0; k < 4; k++) {
        SLP_CALL(s->be->vec_download(s->be, buf, nv[k], s->n));
        crc = crc32(crc, (const unsigned char *)buf, (uInt)((size_t)s->n * sizeof(double)));
    }
    for (int k = 0; k < 3; k++) {
        SLP_CALL(s->be->vec_download(s->be, buf, mv[k], s->m));
        crc = crc32(crc, (const unsigned char *)buf, (uInt)((size_t)s->m * sizeof(double)));
    }
    *out = (int64_t)crc;
    return SLP_OK;
}

static void fill_header(slp_pdhg_t *s, const slp_loop_t *loop, double elapsed, int64_t fp,
                        int64_t hi[HI_COUNT], double hd[HD_COUNT])
{
    const slp_grid_t *g = s->grid;
    int64_t v[HI_COUNT] = {g->R, g->C, g->r, g->c, g->rank, g->size, s->n, s->m,
                           s->set->eval_freq, loop->total, loop->epoch, loop->restarts,
                           loop->checks, 0 /* reserved */, loop->use_pid, cfg.seq, fp};
    double d[HD_COUNT] = {loop->fpe0, loop->fpe_last, loop->pid.omega_best, loop->pid.g_best,
                          loop->pid.integral, loop->pid.e_prev, s->eta, s->omega, s->omega0,
                          s->theta_b, s->theta_c, s->obj_const, elapsed};
    memcpy(hi, v, sizeof v);
    memcpy(hd, d, sizeof d);
}

/* "dir/name" (malloc'd; NULL on out-of-memory, message recorded). */
static char *join(const char *dir, const char *name)
{
    size_t len = strlen(dir) + strlen(name) + 2;
    char *p = slp_malloc(len);
    if (p)
        snprintf(p, len, "%s/%s", dir, name);
    return p;
}

/* DIR/g<gen>/rank_<k>.ckpt and, when tmp is not NULL, its temporary name. */
static slp_err rank_paths(const char *dir, int gen, int rank, char **gdir, char **path, char **tmp)
{
    char name[64];
    snprintf(name, sizeof name, "g%d", gen);
    *gdir = join(dir, name);
    snprintf(name, sizeof name, "rank_%d.ckpt", rank);
    *path = *gdir ? join(*gdir, name) : NULL;
    if (tmp) {
        snprintf(name, sizeof name, "rank_%d.ckpt.tmp.%ld", rank, (long)getpid());
        *tmp = *gdir ? join(*gdir, name) : NULL;
    }
    return *path && (!tmp || *tmp) ? SLP_OK : SLP_ERR_NOMEM;
}

static slp_err make_dir(const char *path)
{
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        return slp_error(SLP_ERR_IO, "%s: cannot create the checkpoint directory: %s", path,
                         strerror(errno));
    return SLP_OK;
}

/* Buffered write with a running crc. */
typedef struct {
    FILE *f;
    unsigned long crc;
    int failed;
} cw_t;
static void cw_put(cw_t *w, const void *p, size_t bytes)
{
    if (!bytes)
        return;
    w->crc = crc32(w->crc, p, (uInt)bytes);
    if (fwrite(p, 1, bytes, w->f) != bytes)
        w->failed = 1;
}

static slp_err save_rank(slp_pdhg_t *s, const slp_loop_t *loop, double elapsed, int gen)
{
    int64_t len_max = s->n > s->m ? s->n : s->m;
    double *buf = NULL;
    SLP_CALL(slp_alloc(&buf, (size_t)len_max + 1, sizeof(double)));
    char *gdir = NULL, *path = NULL, *tmp = NULL;
    slp_err rc = rank_paths(cfg.dir, gen, s->grid->rank, &gdir, &path, &tmp);
    int64_t fp = 0;
    if (rc == SLP_OK)
        rc = fingerprint(s, buf, &fp);
    if (rc == SLP_OK)
        rc = make_dir(cfg.dir);
    if (rc == SLP_OK)
        rc = make_dir(gdir);
    cw_t w = {NULL, crc32(0L, Z_NULL, 0), 0};
    if (rc == SLP_OK && !(w.f = fopen(tmp, "wb")))
        rc = slp_error(SLP_ERR_IO, "%s: cannot create: %s", tmp, strerror(errno));
    if (rc == SLP_OK) {
        int64_t hi[HI_COUNT];
        double hd[HD_COUNT];
        fill_header(s, loop, elapsed, fp, hi, hd);
        uint32_t ver = CKPT_VERSION, bom = CKPT_BOM, nhi = HI_COUNT, nhd = HD_COUNT;
        cw_put(&w, CKPT_MAGIC, 8);
        cw_put(&w, &ver, 4);
        cw_put(&w, &bom, 4);
        cw_put(&w, &nhi, 4);
        cw_put(&w, &nhd, 4);
        cw_put(&w, hi, sizeof hi);
        cw_put(&w, hd, sizeof hd);
        double **vec[CKPT_MAX_VECS];
        int64_t len[CKPT_MAX_VECS];
        int nvec = state_vectors(s, vec, len);
        for (int k = 0; k < nvec && rc == SLP_OK; k++) {
            rc = s->be->vec_download(s->be, buf, *vec[k], len[k]);
            cw_put(&w, buf, (size_t)len[k] * sizeof(double));
        }
        uint32_t crc = (uint32_t)w.crc;
        if (fwrite(&crc, 4, 1, w.f) != 1)
            w.failed = 1;
        if (fflush(w.f) != 0 || fsync(fileno(w.f)) != 0)
            w.failed = 1;
        if (fclose(w.f) != 0)
            w.failed = 1;
        if (rc == SLP_OK && w.failed)
            rc = slp_error(SLP_ERR_IO, "%s: write failed: %s", tmp, strerror(errno));
        if (rc == SLP_OK && rename(tmp, path) != 0)
            rc = slp_error(SLP_ERR_IO, "%s: cannot rename into place: %s", path, strerror(errno));
        if (rc != SLP_OK)
            remove(tmp);
    }
    free(buf);
    free(gdir);
    free(path);
    free(tmp);
    return rc;
}

static slp_err write_manifest(const slp_pdhg_t *s, const slp_loop_t *loop, double elapsed,
                              int gen)
{
    char name[64];
    snprintf(name, sizeof name, "%s.tmp.%ld", CKPT_MANIFEST, (long)getpid());
    char *path = join(cfg.dir, CKPT_MANIFEST), *tmp = join(cfg.dir, name);
    if (!path || !tmp) {
        free(tmp);
        free(path);
        return SLP_ERR_NOMEM;
    }
    slp_err rc = SLP_OK;
    FILE *f = fopen(tmp, "w");
    if (!f) {
        rc = slp_error(SLP_ERR_IO, "%s: cannot create: %s", tmp, strerror(errno));
    } else {
        int bad = fprintf(f,
                          "{\"format\": \"shardlp-checkpoint\", \"version\": %u, \"grid\": [%d, "
                          "%d], \"ranks\": %d, \"sequence\": %lld, \"generation\": %d, "
                          "\"iterations\": %lld, \"elapsed\": %.17g}\n",
                          CKPT_VERSION, s->grid->R, s->grid->C, s->grid->size,
                          (long long)cfg.seq, gen, (long long)loop->total, elapsed) < 0;
        bad |= fflush(f) != 0 || fsync(fileno(f)) != 0;
        bad |= fclose(f) != 0;
        if (bad)
            rc = slp_error(SLP_ERR_IO, "%s: write failed", tmp);
        else if (rename(tmp, path) != 0)
            rc = slp_error(SLP_ERR_IO, "%s: cannot rename into place: %s", path, strerror(errno));
        if (rc != SLP_OK)
            remove(tmp);
    }
    free(path);
    free(tmp);
    return rc;
}

slp_err slp_checkpoint_save(slp_pdhg_t *s, const slp_loop_t *loop, double elapsed)
{
    slp_comm_t *world = s->grid->world;
    int gen = (int)(cfg.seq % 2);
    /* Rank 0 creates the directories first, so the others do not race it. */
    slp_err rc = s->grid->rank == 0 ? make_dir(cfg.dir) : SLP_OK;
    SLP_CALL(slp_comm_agree(world, rc));
    SLP_CALL(slp_comm_agree(world, save_rank(s, loop, elapsed, gen)));
    rc = s->grid->rank == 0 ? write_manifest(s, loop, elapsed, gen) : SLP_OK;
    SLP_CALL(slp_comm_agree(world, rc));
    slp_log_verbose("checkpoint %lld written to %s (iteration %lld)\n", (long long)cfg.seq,
                    cfg.dir, (long long)loop->total);
    cfg.seq++;
    cfg.last_saved = elapsed;
    return SLP_OK;
}

/* ---- resume -------------------------------------------------------------------------- */

/* Read "key": <integer> from the small manifest text. */
static int manifest_int(const char *text, const char *key, long long *out)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(text, pat);
    if (!p)
        return 0;
    char *end;
    errno = 0;
    *out = strtoll(p + strlen(pat), &end, 10);
    return errno == 0 && end != p + strlen(pat);
}

static slp_err read_manifest(const slp_grid_t *g, int *gen, long long *seq)
{
    const char *dir = cfg.resume_dir;
    char *path = join(dir, CKPT_MANIFEST);
    if (!path)
        return SLP_ERR_NOMEM;
    char text[1024];
    size_t got = 0;
    FILE *f = fopen(path, "r");
    slp_err rc = SLP_OK;
    if (!f) {
        rc = slp_error(SLP_ERR_IO, "%s: cannot open the checkpoint manifest: %s", path,
                       strerror(errno));
    } else {
        got = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        text[got] = '\0';
        long long ver = 0, R = 0, C = 0, ranks = 0, generation = 0;
        if (!strstr(text, "\"shardlp-checkpoint\"") || !manifest_int(text, "version", &ver) ||
            !manifest_int(text, "ranks", &ranks) || !manifest_int(text, "sequence", seq) ||
            !manifest_int(text, "generation", &generation) ||
            !strstr(text, "\"grid\": [") || generation < 0 || generation > 1)
            rc = slp_error(SLP_ERR_INPUT, "%s: not a shardlp checkpoint manifest (corrupted?)",
                           path);
        else if (ver != CKPT_VERSION)
            rc = slp_error(SLP_ERR_INPUT, "%s: checkpoint format version %lld, this build reads %u",
                           path, ver, CKPT_VERSION);
        else if (sscanf(strstr(text, "\"grid\": [") + 9, "%lld, %lld", &R, &C) != 2 ||
                 R != g->R || C != g->C || ranks != g->size)
            rc = slp_error(SLP_ERR_INPUT,
                           "%s: checkpoint was written on a %lldx%lld grid (%lld ranks), this "
                           "run has a %dx%d grid (%d ranks); resume on the same grid",
                           path, R, C, ranks, g->R, g->C, g->size);
        *gen = (int)generation;
    }
    free(path);
    return rc;
}

typedef struct {
    FILE *f;
    unsigned long crc;
} cr_t;
static int cr_get(cr_t *r, void *p, size_t bytes)
{
    if (bytes && fread(p, 1, bytes, r->f) != bytes)
        return 0;
    r->crc = crc32(r->crc, p, (uInt)bytes);
    return 1;
}

#define CKPT_FAIL(...) do { rc = slp_error(SLP_ERR_INPUT, __VA_ARGS__); goto done; } while (0)

static slp_err load_rank(slp_pdhg_t *s, slp_loop_t *loop, int gen, long long seq, double *elapsed)
{
    int64_t len_max = s->n > s->m ? s->n : s->m;
    double *buf = NULL;
    SLP_CALL(slp_alloc(&buf, (size_t)len_max + 1, sizeof(double)));
    char *gdir = NULL, *path = NULL;
    slp_err rc = rank_paths(cfg.resume_dir, gen, s->grid->rank, &gdir, &path, NULL);
    cr_t r = {NULL, crc32(0L, Z_NULL, 0)};
    if (rc != SLP_OK)
        goto done;
    if (!(r.f = fopen(path, "rb"))) {
        rc = slp_error(SLP_ERR_IO, "%s: cannot open this rank's checkpoint: %s", path,
                       strerror(errno));
        goto done;
    }
    char magic[8];
    uint32_t ver, bom, nhi, nhd;
    int64_t hi[HI_COUNT];
    double hd[HD_COUNT];
    if (!cr_get(&r, magic, 8) || memcmp(magic, CKPT_MAGIC, 8) != 0)
        CKPT_FAIL("%s: not a shardlp checkpoint file (wrong magic)", path);
    if (!cr_get(&r, &ver, 4) || !cr_get(&r, &bom, 4) || !cr_get(&r, &nhi, 4) ||
        !cr_get(&r, &nhd, 4))
        CKPT_FAIL("%s: truncated checkpoint header", path);
    if (ver != CKPT_VERSION || bom != CKPT_BOM || nhi != HI_COUNT || nhd != HD_COUNT)
        CKPT_FAIL("%s: checkpoint version %u or byte order not supported by this build", path,
                  ver);
    if (!cr_get(&r, hi, sizeof hi) || !cr_get(&r, hd, sizeof hd))
        CKPT_FAIL("%s: truncated checkpoint header", path);
    const slp_grid_t *g = s->grid;
    if (hi[HI_R] != g->R || hi[HI_C] != g->C || hi[HI_r] != g->r || hi[HI_c] != g->c ||
        hi[HI_rank] != g->rank || hi[HI_size] != g->size)
        CKPT_FAIL("%s: checkpoint is for rank %lld at (%lld, %lld) of a %lldx%lld grid, this is "
                  "rank %d at (%d, %d) of %dx%d", path, (long long)hi[HI_rank],
                  (long long)hi[HI_r], (long long)hi[HI_c], (long long)hi[HI_R],
                  (long long)hi[HI_C], g->rank, g->r, g->c, g->R, g->C);
    if (hi[HI_seq] != seq)
        CKPT_FAIL("%s: checkpoint file is from save %lld but the manifest names save %lld "
                  "(incomplete checkpoint)", path, (long long)hi[HI_seq], seq);
    int64_t fp = 0;
    if ((rc = fingerprint(s, buf, &fp)) != SLP_OK)
        goto done;
    if (hi[HI_n_loc] != s->n || hi[HI_m_loc] != s->m || hi[HI_fingerprint] != fp ||
        hd[HD_theta_b] != s->theta_b || hd[HD_theta_c] != s->theta_c ||
        hd[HD_obj_const] != s->obj_const)
        CKPT_FAIL("%s: checkpoint was written for a different model, grid cut or scaling "
                  "options", path);
    if (hi[HI_eval_freq] != s->set->eval_freq)
        CKPT_FAIL("%s: checkpoint was written with --eval-freq %lld, this run uses %d", path,
                  (long long)hi[HI_eval_freq], s->set->eval_freq);
    double **vec[CKPT_MAX_VECS];
    int64_t len[CKPT_MAX_VECS];
    int nvec = state_vectors(s, vec, len);
    for (int k = 0; k < nvec; k++) {
        if (!cr_get(&r, buf, (size_t)len[k] * sizeof(double)))
            CKPT_FAIL("%s: truncated checkpoint (vector %d)", path, k);
        if ((rc = s->be->vec_upload(s->be, *vec[k], buf, len[k])) != SLP_OK)
            goto done;
    }
    uint32_t want = (uint32_t)r.crc, crc;
    if (fread(&crc, 4, 1, r.f) != 1 || crc != want || fgetc(r.f) != EOF)
        CKPT_FAIL("%s: checkpoint checksum mismatch (file corrupted)", path);
    loop->total = hi[HI_total];
    loop->epoch = hi[HI_epoch];
    loop->restarts = hi[HI_restarts];
    loop->checks = hi[HI_checks];
    loop->use_pid = (int)hi[HI_use_pid];
    loop->fpe0 = hd[HD_fpe0];
    loop->fpe_last = hd[HD_fpe_last];
    loop->pid.omega_best = hd[HD_pid_omega_best];
    loop->pid.g_best = hd[HD_pid_g_best];
    loop->pid.integral = hd[HD_pid_integral];
    loop->pid.e_prev = hd[HD_pid_e_prev];
    s->eta = hd[HD_eta];
    s->omega = hd[HD_omega];
    s->omega0 = hd[HD_omega0];
    *elapsed = hd[HD_elapsed];
done:
    if (r.f)
        fclose(r.f);
    free(buf);
    free(gdir);
    free(path);
    return rc;
}

slp_err slp_checkpoint_resume(slp_pdhg_t *s, slp_loop_t *loop, double *elapsed)
{
    *elapsed = 0.0;
    if (!cfg.resume_dir)
        return SLP_OK;
    slp_comm_t *world = s->grid->world;
    int gen = 0;
    long long seq = 0;
    /* Every rank reads the same small manifest: same answer everywhere. */
    SLP_CALL(slp_comm_agree(world, read_manifest(s->grid, &gen, &seq)));
    SLP_CALL(slp_comm_agree(world, load_rank(s, loop, gen, seq, elapsed)));
    double e[1] = {*elapsed};
    SLP_CALL(slp_comm_max(world, e, 1));
    *elapsed = e[0];
    /* Continue the numbering, into the other generation. */
    cfg.seq = seq + 1;
    cfg.last_saved = *elapsed;
    slp_log("Resumed from %s at iteration %lld (%.1f s into the run)\n", cfg.resume_dir,
            (long long)loop->total, *elapsed);
    return SLP_OK;
}
