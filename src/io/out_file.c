/* Output files (io/out_file.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "io/out_file.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The directory part of `path` ("." when none), in buf. */
static void directory_of(const char *path, char *buf, size_t size)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(buf, size, ".");
    else if (slash == path)
        snprintf(buf, size, "/");
    else
        snprintf(buf, size, "%.*s", (int)(slash - path), path);
}

/* What a rename must replace: `path`, or the file a symlink points to. */
static char *rename_target(const char *path)
{
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
        char *real = realpath(path, NULL);
        if (real)
            return real;
        /* a dangling link: write where it points */
        char link[PATH_MAX];
        ssize_t n = readlink(path, link, sizeof link - 1);
        if (n > 0) {
            link[n] = '\0';
            if (link[0] == '/')
                return slp_strdup(link);
            char dir[PATH_MAX], joined[2 * PATH_MAX + 2];
            directory_of(path, dir, sizeof dir);
            snprintf(joined, sizeof joined, "%s/%s", dir, link);
            return slp_strdup(joined);
        }
    }
    return slp_strdup(path);
}

/* A new file at the mkstemp template `tmp` (its name written back): created with
 * O_CREAT | O_EXCL, so no existing file or planted link is followed, then given the
 * permissions a plain create would have (0666 less the umask). NULL on failure (errno
 * set; the template then names nothing of ours). */
static FILE *create_temporary(char *tmp, int binary)
{
    int fd = mkstemp(tmp);
    if (fd < 0) {
        tmp[0] = '\0';
        return NULL;
    }
    mode_t mask = umask(0);
    umask(mask);
    (void)fchmod(fd, 0666 & ~mask); /* on a failure the file stays private (0600) */
    FILE *f = fdopen(fd, binary ? "wb" : "w");
    if (!f) {
        int saved = errno;
        close(fd);
        unlink(tmp);
        tmp[0] = '\0';
        errno = saved;
    }
    return f;
}

static int is_special(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

slp_err slp_out_open(slp_out_file_t *o, const char *path, const char *what, int binary)
{
    memset(o, 0, sizeof *o);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return slp_error(SLP_ERR_IO, "%s: is a directory, cannot write the %s there", path, what);
    if (!(o->path = slp_strdup(path)))
        return SLP_ERR_NOMEM;
    if (!is_special(path)) { /* a device or FIFO is written through, never replaced */
        o->target = rename_target(path);
        size_t len = o->target ? strlen(o->target) + 32 : 0;
        o->tmp = len ? slp_malloc(len) : NULL;
        if (!o->tmp) {
            slp_out_abort(o);
            return SLP_ERR_NOMEM;
        }
        snprintf(o->tmp, len, "%s.tmp.XXXXXX", o->target);
    }
    o->f = o->tmp ? create_temporary(o->tmp, binary) : fopen(path, binary ? "wb" : "w");
    if (!o->f) {
        slp_err rc = slp_error(SLP_ERR_IO, "%s: cannot write the %s: %s", path, what,
                               strerror(errno));
        slp_out_abort(o);
        return rc;
    }
    return SLP_OK;
}

char *slp_path_join(const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    char *p = slp_malloc(a + b + 2);
    if (!p)
        return NULL;
    memcpy(p, dir, a);
    size_t k = a;
    if (a > 0 && dir[a - 1] != '/')
        p[k++] = '/';
    memcpy(p + k, name, b + 1);
    return p;
}

slp_err slp_out_open_in(slp_out_file_t *o, const char *dir, const char *name, const char *what,
                        int binary)
{
    char *path = slp_path_join(dir, name);
    if (!path)
        return SLP_ERR_NOMEM;
    slp_err rc = slp_out_open(o, path, what, binary);
    free(path);
    return rc;
}

slp_err slp_out_commit(slp_out_file_t *o)
{
    slp_err rc = SLP_OK;
    int bad = ferror(o->f) || fflush(o->f) != 0;
    /* fsync: file systems (and devices) that cannot sync are not an error */
    if (!bad && o->tmp && fsync(fileno(o->f)) != 0 && errno != EINVAL && errno != EROFS)
        bad = 1;
    int saved = errno;
    bad |= fclose(o->f) != 0;
    o->f = NULL;
    if (bad)
        rc = slp_error(SLP_ERR_IO, "%s: write failed: %s", o->path, strerror(saved ? saved : EIO));
    if (rc == SLP_OK && o->tmp && rename(o->tmp, o->target) != 0)
        rc = slp_error(SLP_ERR_IO, "%s: cannot rename into place: %s", o->path, strerror(errno));
    if (rc == SLP_OK) {
        free(o->tmp); /* committed: nothing to remove */
        o->tmp = NULL;
    }
    slp_out_abort(o);
    return rc;
}

void slp_out_abort(slp_out_file_t *o)
{
    if (o->f)
        fclose(o->f);
    if (o->tmp && o->tmp[0])
        unlink(o->tmp); /* ours (created exclusively): never a directory or a link's target */
    free(o->tmp);
    free(o->target);
    free(o->path);
    memset(o, 0, sizeof *o);
}

slp_err slp_out_check(const char *path, const char *what, int may_exist)
{
    struct stat st;
    if (!may_exist && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return slp_error(SLP_ERR_IO, "%s: is a directory, cannot write the %s there", path, what);
    if (is_special(path))
        return access(path, W_OK) == 0
                   ? SLP_OK
                   : slp_error(SLP_ERR_IO, "%s: cannot write the %s: %s", path, what,
                               strerror(errno));
    char *target = rename_target(path);
    if (!target)
        return SLP_ERR_NOMEM;
    char dir[PATH_MAX];
    directory_of(target, dir, sizeof dir);
    free(target);
    if (access(dir, W_OK | X_OK) != 0)
        return slp_error(SLP_ERR_IO, "%s: cannot write the %s: directory %s: %s", path, what, dir,
                         strerror(errno));
    return SLP_OK;
}

slp_err slp_dir_lock(const char *dir, const char *what, int *fd)
{
    *fd = -1;
    struct stat st;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return slp_error(SLP_ERR_IO, "%s: cannot create the %s: %s", dir, what, strerror(errno));
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return slp_error(SLP_ERR_IO, "%s: the %s is not a directory", dir, what);
    if (access(dir, W_OK | X_OK) != 0)
        return slp_error(SLP_ERR_IO, "%s: cannot write the %s: %s", dir, what, strerror(errno));
    char *path = slp_path_join(dir, "lock");
    if (!path)
        return SLP_ERR_NOMEM;
    int f = open(path, O_RDWR | O_CREAT, 0666);
    free(path);
    if (f < 0)
        return slp_error(SLP_ERR_IO, "%s: cannot write the %s: %s", dir, what, strerror(errno));
    if (flock(f, LOCK_EX | LOCK_NB) != 0) {
        close(f);
        return slp_error(SLP_ERR_IO, "%s: the %s is in use by another running solve", dir, what);
    }
    *fd = f;
    return SLP_OK;
}

void slp_dir_unlock(int *fd)
{
    if (*fd >= 0) {
        flock(*fd, LOCK_UN);
        close(*fd);
    }
    *fd = -1;
}

/* What identifies a file for slp_out_distinct: its inode where it exists, else the
 * resolved directory and the name. */
typedef struct file_key {
    int exists;
    dev_t dev;
    ino_t ino;
    char *resolved;
} file_key_t;

static void key_of(const char *path, file_key_t *k)
{
    struct stat st;
    memset(k, 0, sizeof *k);
    if (stat(path, &st) == 0) {
        if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
            return; /* a device or FIFO (/dev/null for two outputs) is written through: no key */
        k->exists = 1;
        k->dev = st.st_dev;
        k->ino = st.st_ino;
        return;
    }
    char dir[PATH_MAX];
    directory_of(path, dir, sizeof dir);
    char *real = realpath(dir, NULL);
    const char *slash = strrchr(path, '/');
    k->resolved = slp_path_join(real ? real : dir, slash ? slash + 1 : path);
    free(real);
}

static int same_file(const file_key_t *a, const file_key_t *b)
{
    if (a->exists || b->exists)
        return a->exists && b->exists && a->dev == b->dev && a->ino == b->ino;
    /* neither exists: the same resolved name; a device has neither */
    return a->resolved && b->resolved && !strcmp(a->resolved, b->resolved);
}

slp_err slp_out_distinct(const slp_run_path_t *paths, int count)
{
    file_key_t *keys = slp_calloc((size_t)count + 1, sizeof *keys);
    if (!keys)
        return SLP_ERR_NOMEM;
    for (int k = 0; k < count; k++)
        if (paths[k].path)
            key_of(paths[k].path, &keys[k]);
    slp_err rc = SLP_OK;
    for (int a = 0; a < count && rc == SLP_OK; a++)
        for (int b = a + 1; b < count && rc == SLP_OK; b++) {
            const slp_run_path_t *p = &paths[a], *q = &paths[b];
            if (!p->path || !q->path || !(p->output || q->output) ||
                (p->group && p->group == q->group))
                continue;
            if (same_file(&keys[a], &keys[b]))
                rc = slp_error(SLP_ERR_INPUT, "%s: the %s and the %s are the same file; "
                               "refusing to write over the %s", q->path, p->what, q->what,
                               p->output ? p->what : q->what);
        }
    for (int k = 0; k < count; k++)
        free(keys[k].resolved);
    free(keys);
    return rc;
}
