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

#include "core/interrupt.h"
#include "core/log.h"
#include "grid/comm.h"
#include "io/checked_file.h"
#include "io/json_out.h"
#include "io/json_read.h"

#define CKPT_MAGIC "SLPCKPT1"
#define CKPT_VERSION 4u /* 4: the best-FPE weight (--weight-rule); 3: the smaller state
                          (docs/memory.md); 2: little-endian on any host */
#define CKPT_MANIFEST "checkpoint.json"

/* Header scalars, in file order (little-endian on disk). */
enum { HI_R, HI_C, HI_r, HI_c, HI_rank, HI_size, HI_n_loc, HI_m_loc, HI_eval_freq, HI_total,
       HI_epoch, HI_restarts, HI_checks, HI_reserved, HI_use_pid, HI_seq,
       HI_fingerprint, HI_COUNT };
enum { HD_fpe0, HD_fpe_last, HD_pid_omega_best, HD_pid_g_best, HD_pid_integral,
       HD_pid_e_prev, HD_eta, HD_omega, HD_omega0, HD_theta_b, HD_theta_c, HD_obj_const,
       HD_elapsed, HD_pid_fpe_best, HD_pid_omega_fpe_best, HD_COUNT };

static struct {
    char *dir, *resume_dir;
    double every;
    double last_saved;  /* this run's agreed elapsed time at its last checkpoint (or 0) */
    double offset;      /* the resumed runs' elapsed time before this one */
    int64_t seq;        /* checkpoints written by this run (continues a resumed run's) */
    int64_t failed;     /* saves that could not be written */
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

int slp_checkpoint_active(void) { return cfg.dir || cfg.resume_dir; }

int slp_checkpoint_enabled(void) { return cfg.dir != NULL; }

slp_err slp_checkpoint_agree(slp_pdhg_t *s, double local_elapsed, int local_stop, double *elapsed,
                             int *interrupted, int *checkpoint_due)
{
    double v[2] = {local_elapsed, slp_interrupt_pending() || local_stop ? 1.0 : 0.0};
    SLP_CALL(slp_comm_max(s->grid->world, v, 2));
    *elapsed = v[0];
    *interrupted = v[1] > 0.0;
    *checkpoint_due = cfg.dir && cfg.every > 0.0 && v[0] - cfg.last_saved >= cfg.every;
    return SLP_OK;
}

/* The iterate vectors saved, in file order (the state table's, solver/state.c). */
static int state_vectors(slp_pdhg_t *s, double **vec[], int64_t len[])
{
    return slp_state_vectors(s, SLP_VEC_ITERATE, SLP_ANY_SPACE, vec, len);
}
#define CKPT_MAX_VECS SLP_STATE_MAX_VECS

/* crc32 of the local scaled problem (the block's matrix, c, bounds, row bounds, scaling
 * factors): a resume on another model, another grid cut or other scaling options
 * changes it, also when the shapes agree. */
static slp_err fingerprint(slp_pdhg_t *s, double *buf, int64_t *out)
{
    unsigned char m[4];
    slp_le_put_u32(m, s->matrix_crc);
    uint32_t crc = slp_crc32(0, m, sizeof m);
    const double *nv[] = {s->c, s->lv, s->uv, s->dcol};
    const double *mv[] = {s->lc, s->uc, s->drow};
    for (int k = 0; k < 4; k++) {
        SLP_CALL(s->be->vec_download(s->be, buf, nv[k], s->n));
        crc = slp_crc32(crc, buf, (size_t)s->n * sizeof(double));
    }
    for (int k = 0; k < 3; k++) {
        SLP_CALL(s->be->vec_download(s->be, buf, mv[k], s->m));
        crc = slp_crc32(crc, buf, (size_t)s->m * sizeof(double));
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
                          s->theta_b, s->theta_c, s->obj_const, elapsed, loop->pid.fpe_best,
                          loop->pid.omega_fpe_best};
    memcpy(hi, v, sizeof v);
    memcpy(hd, d, sizeof d);
}

/* DIR/g<gen>/rank_<k>.ckpt and its directory. */
static slp_err rank_paths(const char *dir, int gen, int rank, char **gdir, char **path)
{
    char name[64];
    snprintf(name, sizeof name, "g%d", gen);
    *gdir = slp_path_join(dir, name);
    snprintf(name, sizeof name, "rank_%d.ckpt", rank);
    *path = *gdir ? slp_path_join(*gdir, name) : NULL;
    return *path ? SLP_OK : SLP_ERR_NOMEM;
}

static slp_err make_dir(const char *path)
{
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        return slp_error(SLP_ERR_IO, "%s: cannot create the checkpoint directory: %s", path,
                         strerror(errno));
    return SLP_OK;
}

/* Bytes of a rank file: magic, 3 counts, the header scalars, the vectors, the trailer. */
static int64_t rank_file_bytes(int64_t vector_values)
{
    return 8 + 12 + 8 * (HI_COUNT + HD_COUNT) + 8 * vector_values + SLP_CHECKED_TRAILER_BYTES;
}

/* The header (magic, version, counts, scalars) and every state vector. */
static slp_err write_rank_file(slp_pdhg_t *s, const slp_loop_t *loop, double elapsed,
                               int64_t fp, double *buf, slp_fw_t *w)
{
    int64_t hi[HI_COUNT];
    double hd[HD_COUNT];
    fill_header(s, loop, elapsed, fp, hi, hd);
    unsigned char counts[12];
    slp_le_put_u32(counts, CKPT_VERSION);
    slp_le_put_u32(counts + 4, HI_COUNT);
    slp_le_put_u32(counts + 8, HD_COUNT);
    SLP_CALL(slp_fw_bytes(w, CKPT_MAGIC, 8));
    SLP_CALL(slp_fw_bytes(w, counts, sizeof counts));
    SLP_CALL(slp_fw_i64(w, hi, HI_COUNT));
    SLP_CALL(slp_fw_f64(w, hd, HD_COUNT));
    double **vec[CKPT_MAX_VECS];
    int64_t len[CKPT_MAX_VECS];
    int nvec = state_vectors(s, vec, len);
    for (int k = 0; k < nvec; k++) {
        SLP_CALL(s->be->vec_download(s->be, buf, *vec[k], len[k]));
        SLP_CALL(slp_fw_f64(w, buf, len[k]));
    }
    return SLP_OK;
}

static slp_err save_rank(slp_pdhg_t *s, const slp_loop_t *loop, double elapsed, int gen)
{
    int64_t len_max = s->n > s->m ? s->n : s->m;
    double *buf = NULL;
    SLP_CALL(slp_alloc(&buf, (size_t)len_max + 1, sizeof(double)));
    char *gdir = NULL, *path = NULL;
    slp_err rc = rank_paths(cfg.dir, gen, s->grid->rank, &gdir, &path);
    int64_t fp = 0;
    if (rc == SLP_OK)
        rc = fingerprint(s, buf, &fp);
    if (rc == SLP_OK)
        rc = make_dir(gdir);
    slp_fw_t w;
    if (rc == SLP_OK && (rc = slp_fw_open_atomic(&w, path)) == SLP_OK) {
        rc = write_rank_file(s, loop, elapsed, fp, buf, &w);
        if (rc == SLP_OK)
            rc = slp_fw_close(&w, NULL, NULL);
        else
            slp_fw_discard(&w);
    }
    free(buf);
    free(gdir);
    free(path);
    return rc;
}

static slp_err write_manifest(const slp_pdhg_t *s, const slp_loop_t *loop, double elapsed,
                              int gen)
{
    slp_out_file_t out;
    SLP_CALL(slp_out_open_in(&out, cfg.dir, CKPT_MANIFEST, "checkpoint manifest", 0));
    slp_json_t j;
    slp_json_begin(&j, out.f);
    slp_json_string(&j, "format", "shardlp-checkpoint");
    slp_json_int(&j, "version", CKPT_VERSION);
    int64_t grid[2] = {s->grid->R, s->grid->C};
    slp_json_int_array(&j, "grid", grid, 2);
    slp_json_int(&j, "ranks", s->grid->size);
    slp_json_int(&j, "sequence", cfg.seq);
    slp_json_int(&j, "generation", gen);
    slp_json_int(&j, "iterations", loop->total);
    slp_json_number(&j, "elapsed", elapsed);
    slp_json_end(&j);
    return slp_out_commit(&out);
}

/* The three collective steps of a save; the manifest names the new generation only
 * once every rank's file is in place. */
static slp_err save_all(slp_pdhg_t *s, const slp_loop_t *loop, double elapsed, int gen)
{
    slp_comm_t *world = s->grid->world;
    /* Rank 0 creates the directory first, so the others do not race it. */
    slp_err rc = s->grid->rank == 0 ? make_dir(cfg.dir) : SLP_OK;
    SLP_CALL(slp_comm_agree(world, rc));
    SLP_CALL(slp_comm_agree(world, save_rank(s, loop, elapsed, gen)));
    rc = s->grid->rank == 0 ? write_manifest(s, loop, elapsed, gen) : SLP_OK;
    return slp_comm_agree(world, rc);
}

slp_err slp_checkpoint_save(slp_pdhg_t *s, const slp_loop_t *loop, double elapsed)
{
    int gen = (int)(cfg.seq % 2);
    slp_err rc = save_all(s, loop, cfg.offset + elapsed, gen); /* the files: all runs' time */
    if (rc == SLP_ERR_IO) { /* a full or unwritable disk must not end the solve */
        if (cfg.failed++ == 0)
            slp_warn("checkpoint %lld not written (%s); the solve goes on, the last complete "
                     "checkpoint in %s stays valid (later failures: --verbose)\n",
                     (long long)cfg.seq, slp_error_message(), cfg.dir);
        else
            slp_log_verbose("checkpoint %lld not written either (%s)\n", (long long)cfg.seq,
                            slp_error_message());
        slp_error_clear();
        cfg.last_saved = elapsed; /* try again after the usual interval */
        return SLP_OK;
    }
    SLP_CALL(rc);
    slp_log_verbose("checkpoint %lld written to %s (iteration %lld)\n", (long long)cfg.seq,
                    cfg.dir, (long long)loop->total);
    cfg.seq++;
    cfg.last_saved = elapsed;
    return SLP_OK;
}

/* ---- resume -------------------------------------------------------------------------- */

/* The manifest's fields, checked against this run's grid. */
static slp_err check_manifest(const slp_mjson_t *man, const char *path, const slp_grid_t *g,
                              int *gen, long long *seq)
{
    const slp_mjson_t *format = slp_mjson_get(man, "format");
    if (!format || format->type != SLP_MJSON_STR || strcmp(format->str, "shardlp-checkpoint"))
        return slp_error(SLP_ERR_INPUT, "%s: not a shardlp checkpoint manifest (corrupted?)",
                         path);
    int64_t version = 0, grid[2] = {0, 0}, ranks = 0, sequence = 0, generation = 0;
    SLP_CALL(slp_mjson_int(man, "version", path, 0, INT32_MAX, &version));
    if (version != CKPT_VERSION)
        return slp_error(SLP_ERR_INPUT, "%s: checkpoint format version %lld, this build reads %u",
                         path, (long long)version, CKPT_VERSION);
    SLP_CALL(slp_mjson_int_array(man, "grid", path, 2, grid));
    SLP_CALL(slp_mjson_int(man, "ranks", path, 1, INT32_MAX, &ranks));
    SLP_CALL(slp_mjson_int(man, "sequence", path, 0, INT64_MAX, &sequence));
    SLP_CALL(slp_mjson_int(man, "generation", path, 0, 1, &generation));
    if (grid[0] != g->R || grid[1] != g->C || ranks != g->size)
        return slp_error(SLP_ERR_INPUT,
                         "%s: checkpoint was written on a %lldx%lld grid (%lld ranks), this "
                         "run has a %dx%d grid (%d ranks); resume on the same grid",
                         path, (long long)grid[0], (long long)grid[1], (long long)ranks, g->R,
                         g->C, g->size);
    *gen = (int)generation;
    *seq = (long long)sequence;
    return SLP_OK;
}

static slp_err read_manifest(const slp_grid_t *g, int *gen, long long *seq)
{
    char *path = slp_path_join(cfg.resume_dir, CKPT_MANIFEST);
    if (!path)
        return SLP_ERR_NOMEM;
    slp_mjson_t man;
    slp_err rc = slp_mjson_read_file(path, 1 << 16, &man);
    if (rc == SLP_ERR_INPUT) { /* not JSON, or too large */
        slp_error_clear();
        rc = slp_error(SLP_ERR_INPUT, "%s: not a shardlp checkpoint manifest (corrupted?)", path);
    } else if (rc == SLP_OK) {
        rc = check_manifest(&man, path, g, gen, seq);
    }
    slp_mjson_free(&man);
    free(path);
    return rc;
}

/* Magic, counts and header scalars of a rank file; the size must be this rank's. */
static slp_err read_rank_header(slp_fr_t *rd, int64_t expect_bytes, int64_t hi[HI_COUNT],
                                double hd[HD_COUNT])
{
    const char *path = rd->path;
    unsigned char head[20];
    if (rd->size < rank_file_bytes(0))
        return slp_error(SLP_ERR_INPUT, "%s: truncated checkpoint header", path);
    SLP_CALL(slp_fr_bytes(rd, head, sizeof head));
    if (memcmp(head, CKPT_MAGIC, 8) != 0)
        return slp_error(SLP_ERR_INPUT, "%s: not a shardlp checkpoint file (wrong magic)", path);
    uint32_t version = slp_le_get_u32(head + 8);
    if (version != CKPT_VERSION || slp_le_get_u32(head + 12) != HI_COUNT ||
        slp_le_get_u32(head + 16) != HD_COUNT)
        return slp_error(SLP_ERR_INPUT, "%s: checkpoint version %u is not supported by this "
                         "build (%u)", path, version, CKPT_VERSION);
    SLP_CALL(slp_fr_i64(rd, hi, HI_COUNT));
    SLP_CALL(slp_fr_f64(rd, hd, HD_COUNT));
    if (rd->size != expect_bytes)
        return slp_error(SLP_ERR_INPUT, "%s: truncated checkpoint (%lld bytes, this rank's "
                         "state takes %lld)", path, (long long)rd->size, (long long)expect_bytes);
    return SLP_OK;
}

/* The header must be this rank's, of this save, for this model and options. */
static slp_err check_rank_header(slp_pdhg_t *s, const char *path, const int64_t hi[HI_COUNT],
                                 const double hd[HD_COUNT], long long seq, int64_t fp)
{
    const slp_grid_t *g = s->grid;
    if (hi[HI_R] != g->R || hi[HI_C] != g->C || hi[HI_r] != g->r || hi[HI_c] != g->c ||
        hi[HI_rank] != g->rank || hi[HI_size] != g->size)
        return slp_error(SLP_ERR_INPUT, "%s: checkpoint is for rank %lld at (%lld, %lld) of a "
                         "%lldx%lld grid, this is rank %d at (%d, %d) of %dx%d", path,
                         (long long)hi[HI_rank], (long long)hi[HI_r], (long long)hi[HI_c],
                         (long long)hi[HI_R], (long long)hi[HI_C], g->rank, g->r, g->c, g->R,
                         g->C);
    if (hi[HI_seq] != seq)
        return slp_error(SLP_ERR_INPUT, "%s: checkpoint file is from save %lld but the manifest "
                         "names save %lld (incomplete checkpoint)", path, (long long)hi[HI_seq],
                         seq);
    if (hi[HI_n_loc] != s->n || hi[HI_m_loc] != s->m || hi[HI_fingerprint] != fp ||
        hd[HD_theta_b] != s->theta_b || hd[HD_theta_c] != s->theta_c ||
        hd[HD_obj_const] != s->obj_const)
        return slp_error(SLP_ERR_INPUT, "%s: checkpoint was written for a different model, grid "
                         "cut or scaling options", path);
    if (hi[HI_eval_freq] != s->set->eval_freq)
        return slp_error(SLP_ERR_INPUT, "%s: checkpoint was written with checks every %lld "
                         "iterations, this run checks every %d (eval_freq, whose default "
                         "follows the tolerance: resume with the same tol and eval_freq)",
                         path, (long long)hi[HI_eval_freq], s->set->eval_freq);
    return SLP_OK;
}

static void apply_header(const int64_t hi[HI_COUNT], const double hd[HD_COUNT], slp_pdhg_t *s,
                         slp_loop_t *loop, double *elapsed)
{
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
    loop->pid.fpe_best = hd[HD_pid_fpe_best];
    loop->pid.omega_fpe_best = hd[HD_pid_omega_fpe_best];
    s->eta = hd[HD_eta];
    s->omega = hd[HD_omega];
    s->omega0 = hd[HD_omega0];
    *elapsed = hd[HD_elapsed];
}

/* Read this rank's file into the state: header, checks, vectors, trailer. */
static slp_err read_rank_file(slp_pdhg_t *s, slp_fr_t *rd, long long seq, double *buf,
                              slp_loop_t *loop, double *elapsed)
{
    double **vec[CKPT_MAX_VECS];
    int64_t len[CKPT_MAX_VECS], values = 0;
    int nvec = state_vectors(s, vec, len);
    for (int k = 0; k < nvec; k++)
        values += len[k];
    int64_t hi[HI_COUNT], fp = 0;
    double hd[HD_COUNT];
    SLP_CALL(read_rank_header(rd, rank_file_bytes(values), hi, hd));
    SLP_CALL(fingerprint(s, buf, &fp));
    SLP_CALL(check_rank_header(s, rd->path, hi, hd, seq, fp));
    for (int k = 0; k < nvec; k++) {
        SLP_CALL(slp_fr_f64(rd, buf, len[k]));
        SLP_CALL(s->be->vec_upload(s->be, *vec[k], buf, len[k]));
    }
    SLP_CALL(slp_fr_trailer(rd, NULL));
    apply_header(hi, hd, s, loop, elapsed);
    return SLP_OK;
}

static slp_err load_rank(slp_pdhg_t *s, slp_loop_t *loop, int gen, long long seq, double *elapsed)
{
    int64_t len_max = s->n > s->m ? s->n : s->m;
    double *buf = NULL;
    SLP_CALL(slp_alloc(&buf, (size_t)len_max + 1, sizeof(double)));
    char *gdir = NULL, *path = NULL;
    slp_err rc = rank_paths(cfg.resume_dir, gen, s->grid->rank, &gdir, &path);
    slp_fr_t rd = {0};
    if (rc == SLP_OK)
        rc = slp_fr_open(&rd, path, "this rank's checkpoint");
    if (rc == SLP_OK)
        rc = read_rank_file(s, &rd, seq, buf, loop, elapsed);
    slp_fr_close(&rd);
    free(buf);
    free(gdir);
    free(path);
    return rc;
}

slp_err slp_checkpoint_resume(slp_pdhg_t *s, slp_loop_t *loop)
{
    if (!cfg.resume_dir)
        return SLP_OK;
    slp_comm_t *world = s->grid->world;
    /* No checkpoint yet (no directory, or one without a manifest): a cold start, so that
     * one job line serves the first run and every requeue (docs/reliability.md). Every
     * rank looks; they must see the same. */
    char *manifest = slp_path_join(cfg.resume_dir, CKPT_MANIFEST);
    SLP_CALL(slp_comm_agree(world, manifest ? SLP_OK : SLP_ERR_NOMEM));
    double seen[2] = {access(manifest, F_OK) == 0 ? 1.0 : 0.0, 0.0};
    seen[1] = 1.0 - seen[0];
    free(manifest);
    SLP_CALL(slp_comm_max(world, seen, 2));
    if (seen[0] > 0.0 && seen[1] > 0.0)
        return slp_error(SLP_ERR_IO, "%s: some ranks see a checkpoint there and others do not "
                         "(not a shared directory?)", cfg.resume_dir);
    if (seen[0] == 0.0) {
        slp_log("Resume: %s holds no checkpoint yet; starting cold\n", cfg.resume_dir);
        return SLP_OK;
    }
    int gen = 0;
    long long seq = 0;
    /* Every rank reads the same small manifest: same answer everywhere. */
    SLP_CALL(slp_comm_agree(world, read_manifest(s->grid, &gen, &seq)));
    double e[1] = {0.0}; /* the saved runs' elapsed time, the maximum over the ranks */
    SLP_CALL(slp_comm_agree(world, load_rank(s, loop, gen, seq, &e[0])));
    SLP_CALL(slp_comm_max(world, e, 1));
    /* Continue the numbering, into the other generation. */
    cfg.seq = seq + 1;
    cfg.offset = e[0];
    cfg.last_saved = 0.0;
    slp_log("Resumed from %s at iteration %lld (%.1f s into the run)\n", cfg.resume_dir,
            (long long)loop->total, e[0]);
    return SLP_OK;
}
