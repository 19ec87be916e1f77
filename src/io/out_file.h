/* One way to write an output file (solutions, summaries, manifests, checkpoints):
 * a regular file is written as PATH.tmp.XXXXXX next to it and renamed over it on commit,
 * so a reader sees the old file or the whole new one and a failed run leaves no partial
 * file; a symlink is followed (the target is replaced, the link stays); an existing
 * non-regular file (a device such as /dev/null or /dev/stdout, a FIFO) is written
 * through in place, never replaced. docs/reliability.md. */
#ifndef SLP_OUT_FILE_H
#define SLP_OUT_FILE_H

#include <stdio.h>

#include "core/error.h"

typedef struct slp_out_file {
    FILE *f;
    char *path;   /* the name as given, for messages (owned) */
    char *target; /* what the rename replaces (the symlink's target), NULL when written through */
    char *tmp;    /* the temporary name, NULL when written through (owned) */
} slp_out_file_t;

/* `what` names the file in messages ("solution", "JSON summary"); binary: "wb". */
slp_err slp_out_open(slp_out_file_t *o, const char *path, const char *what, int binary);
/* The same for DIR/NAME. */
slp_err slp_out_open_in(slp_out_file_t *o, const char *dir, const char *name, const char *what,
                        int binary);
/* "dir/name" (malloc'd) or NULL on out-of-memory (message recorded). */
char *slp_path_join(const char *dir, const char *name);
/* Flush, fsync and rename into place (or just close a written-through file). On a
 * failure the temporary file is removed. */
slp_err slp_out_commit(slp_out_file_t *o);
/* Close and remove the temporary file (safe on an unopened or committed one). */
void slp_out_abort(slp_out_file_t *o);
/* Whether `path` could be written now (its directory exists and is writable, or it is
 * an existing writable non-regular file); the message names `what`. With may_exist, an
 * existing directory at `path` is fine (it is to be replaced by a sibling's rename). */
slp_err slp_out_check(const char *path, const char *what, int may_exist);

/* A file a run reads or writes, for slp_out_distinct. */
typedef struct slp_run_path {
    const char *path; /* NULL: not given */
    const char *what; /* "model", "solution", ... */
    int output;       /* written by the run */
    int group;        /* paths of one nonzero group may coincide (--checkpoint D --resume D) */
} slp_run_path_t;

/* Refuses (SLP_ERR_INPUT, one line naming both) any output that is the same file as an
 * input or another output: the same inode where the path exists (through links), the
 * same resolved directory and name where it does not yet; devices and FIFOs, written
 * through, may be shared (/dev/null). Checked before anything is opened, so that no
 * output truncates the model or another output. */
slp_err slp_out_distinct(const slp_run_path_t *paths, int count);

/* Create `dir` if needed, check that it is a writable directory, and take an exclusive
 * lock on DIR/lock for this process (flock, released by slp_dir_unlock or at exit), so
 * that a second run cannot write the same directory; *fd receives the lock. */
slp_err slp_dir_lock(const char *dir, const char *what, int *fd);
void slp_dir_unlock(int *fd);

#endif
