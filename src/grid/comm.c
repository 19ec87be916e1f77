#include "comm.h"
#include "comm_mpi.h"

#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

struct slp_comm {
    MPI_Comm mpi; /* MPI_COMM_NULL in the trivial single-rank layer */
    int rank, size;
    int owned;    /* 1 if we must MPI_Comm_free it */
};

static int using_mpi = 0;
static int owns_mpi = 0; /* 1 if we called MPI_Init (and so call MPI_Finalize) */
static struct slp_comm world_comm = {MPI_COMM_NULL, 0, 1, 0};

/* Environment variables set by common launchers (OpenMPI, MPICH/Hydra, PMIx, Slurm). */
static int started_by_launcher(void)
{
    static const char *vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK",
                                 "MPI_LOCALNRANKS", "SLURM_STEP_NUM_TASKS", NULL};
    for (int k = 0; vars[k]; k++)
        if (getenv(vars[k]))
            return 1;
    return 0;
}

slp_err slp_comm_init(int *argc, char ***argv, int force_mpi)
{
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized && !force_mpi && !started_by_launcher())
        return SLP_OK;
    if (!initialized) { /* else the program started MPI itself: adopt it */
        if (MPI_Init(argc, argv) != MPI_SUCCESS)
            return slp_error(SLP_ERR_MPI, "MPI_Init failed");
        owns_mpi = 1;
    }
    using_mpi = 1;
    /* Errors come back as codes so that we can report them with context. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    world_comm.mpi = MPI_COMM_WORLD;
    MPI_Comm_rank(MPI_COMM_WORLD, &world_comm.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_comm.size);
    return SLP_OK;
}

slp_err slp_comm_init_with(MPI_Comm comm)
{
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized)
        return slp_error(SLP_ERR_MPI, "a user communicator needs MPI_Init to have been called");
    MPI_Comm dup;
    if (MPI_Comm_dup(comm, &dup) != MPI_SUCCESS)
        return slp_error(SLP_ERR_MPI, "MPI_Comm_dup of the user communicator failed");
    if (world_comm.owned)
        MPI_Comm_free(&world_comm.mpi);
    using_mpi = 1;
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    world_comm.mpi = dup;
    world_comm.owned = 1;
    MPI_Comm_rank(dup, &world_comm.rank);
    MPI_Comm_size(dup, &world_comm.size);
    return SLP_OK;
}

void slp_comm_finalize(void)
{
    if (using_mpi && world_comm.owned)
        MPI_Comm_free(&world_comm.mpi);
    if (using_mpi && owns_mpi)
        MPI_Finalize();
    world_comm.mpi = MPI_COMM_NULL;
    world_comm.rank = 0;
    world_comm.size = 1;
    world_comm.owned = 0;
    using_mpi = 0;
    owns_mpi = 0;
}

void slp_comm_abort(int code)
{
    if (using_mpi)
        MPI_Abort(world_comm.mpi, code);
    exit(code);
}

int slp_comm_uses_mpi(void) { return using_mpi; }

slp_comm_t *slp_comm_world(void) { return &world_comm; }

int slp_comm_rank(const slp_comm_t *comm) { return comm->rank; }
int slp_comm_size(const slp_comm_t *comm) { return comm->size; }
MPI_Comm slp_comm_mpi(const slp_comm_t *comm) { return comm->mpi; }

static int trivial(const slp_comm_t *comm) { return comm->mpi == MPI_COMM_NULL; }

static slp_err check_mpi(int rc, const char *what)
{
    if (rc == MPI_SUCCESS)
        return SLP_OK;
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, text, &len);
    return slp_error(SLP_ERR_MPI, "%s failed: %s", what, text);
}

slp_err slp_comm_split(slp_comm_t *parent, int color, int key, slp_comm_t **out)
{
    slp_comm_t *comm = slp_calloc(1, sizeof *comm);
    if (!comm)
        return SLP_ERR_NOMEM;
    comm->mpi = MPI_COMM_NULL;
    comm->size = 1;
    if (!trivial(parent)) {
        slp_err rc = check_mpi(MPI_Comm_split(parent->mpi, color, key, &comm->mpi), "MPI_Comm_split");
        if (rc != SLP_OK) {
            free(comm);
            return rc;
        }
        comm->owned = 1;
        MPI_Comm_rank(comm->mpi, &comm->rank);
        MPI_Comm_size(comm->mpi, &comm->size);
    }
    *out = comm;
    return SLP_OK;
}

void slp_comm_free(slp_comm_t **comm)
{
    if (!comm || !*comm)
        return;
    if ((*comm)->owned && using_mpi)
        MPI_Comm_free(&(*comm)->mpi);
    free(*comm);
    *comm = NULL;
}

/* MPI counts are int: large buffers go in chunks. */
#define SLP_CHUNK (1 << 28)

static slp_err allreduce(slp_comm_t *comm, void *buf, int64_t count, MPI_Datatype type,
                         size_t elem, MPI_Op op, const char *what)
{
    if (trivial(comm) || comm->size == 1)
        return SLP_OK;
    char *p = buf;
    for (int64_t done = 0; done < count;) {
        int chunk = (int)(count - done < SLP_CHUNK ? count - done : SLP_CHUNK);
        SLP_CALL(check_mpi(MPI_Allreduce(MPI_IN_PLACE, p + done * (int64_t)elem, chunk, type, op,
                                         comm->mpi),
                           what));
        done += chunk;
    }
    return SLP_OK;
}

slp_err slp_comm_sum(slp_comm_t *comm, double *buf, int64_t count)
{
    return allreduce(comm, buf, count, MPI_DOUBLE, sizeof(double), MPI_SUM, "MPI_Allreduce(sum)");
}

slp_err slp_comm_max(slp_comm_t *comm, double *buf, int64_t count)
{
    return allreduce(comm, buf, count, MPI_DOUBLE, sizeof(double), MPI_MAX, "MPI_Allreduce(max)");
}

slp_err slp_comm_min(slp_comm_t *comm, double *buf, int64_t count)
{
    return allreduce(comm, buf, count, MPI_DOUBLE, sizeof(double), MPI_MIN, "MPI_Allreduce(min)");
}

slp_err slp_comm_sum_i64(slp_comm_t *comm, int64_t *buf, int64_t count)
{
    return allreduce(comm, buf, count, MPI_INT64_T, sizeof(int64_t), MPI_SUM, "MPI_Allreduce(sum)");
}

slp_err slp_comm_max_i64(slp_comm_t *comm, int64_t *buf, int64_t count)
{
    return allreduce(comm, buf, count, MPI_INT64_T, sizeof(int64_t), MPI_MAX, "MPI_Allreduce(max)");
}

slp_err slp_comm_bcast(slp_comm_t *comm, void *buf, int64_t bytes, int root)
{
    if (trivial(comm) || comm->size == 1)
        return SLP_OK;
    char *p = buf;
    for (int64_t done = 0; done < bytes;) {
        int chunk = (int)(bytes - done < SLP_CHUNK ? bytes - done : SLP_CHUNK);
        SLP_CALL(check_mpi(MPI_Bcast(p + done, chunk, MPI_BYTE, root, comm->mpi), "MPI_Bcast"));
        done += chunk;
    }
    return SLP_OK;
}

slp_err slp_comm_send(slp_comm_t *comm, const void *buf, int64_t bytes, int dest, int tag)
{
    if (trivial(comm))
        return slp_error(SLP_ERR_INTERNAL, "send on a single-rank communicator");
    const char *p = buf;
    for (int64_t done = 0; done < bytes;) {
        int chunk = (int)(bytes - done < SLP_CHUNK ? bytes - done : SLP_CHUNK);
        SLP_CALL(check_mpi(MPI_Send(p + done, chunk, MPI_BYTE, dest, tag, comm->mpi), "MPI_Send"));
        done += chunk;
    }
    return SLP_OK;
}

/* Byte counts and displacements of one side of an exchange, checked to fit an int. */
static slp_err exchange_layout(const int64_t *count, int size, size_t record, int *bytes,
                               int *displ, int64_t *total)
{
    int64_t sum = 0;
    for (int d = 0; d < size; d++) {
        int64_t b = count[d] * (int64_t)record;
        if (b < 0 || sum + b > INT_MAX)
            return slp_error(SLP_ERR_INTERNAL, "exchange of %lld records is too large",
                             (long long)count[d]);
        bytes[d] = (int)b;
        displ[d] = (int)sum;
        sum += b;
    }
    *total = sum;
    return SLP_OK;
}

slp_err slp_comm_exchange(slp_comm_t *comm, const void *send, const int64_t *send_count,
                          size_t record, void **recv, int64_t *recv_count)
{
    return slp_comm_exchange_from(comm, send, send_count, record, recv, recv_count, NULL);
}

slp_err slp_comm_exchange_from(slp_comm_t *comm, const void *send, const int64_t *send_count,
                               size_t record, void **recv, int64_t *recv_count,
                               int64_t *recv_from)
{
    void *out = NULL;
    int64_t cap = 0;
    slp_err rc = slp_comm_exchange_into(comm, send, send_count, record, &out, &cap, recv_count,
                                        recv_from);
    if (rc != SLP_OK) {
        free(out);
        out = NULL;
    }
    *recv = out;
    return rc;
}

slp_err slp_comm_exchange_into(slp_comm_t *comm, const void *send, const int64_t *send_count,
                               size_t record, void **buf, int64_t *cap, int64_t *recv_count,
                               int64_t *recv_from)
{
    *recv_count = 0;
    int size = trivial(comm) ? 1 : comm->size;
    int64_t *rcount = malloc((size_t)size * sizeof *rcount);
    int *ints = malloc(4 * (size_t)size * sizeof *ints);
    slp_err rc = rcount && ints ? SLP_OK : slp_error(SLP_ERR_NOMEM, "exchange: out of memory");
    if (size > 1)
        rc = slp_comm_agree(comm, rc);
    if (rc == SLP_OK && size == 1)
        rcount[0] = send_count[0];
    else if (rc == SLP_OK)
        rc = check_mpi(MPI_Alltoall(send_count, 1, MPI_INT64_T, rcount, 1, MPI_INT64_T,
                                    comm->mpi), "MPI_Alltoall");
    int64_t sbytes = 0, rbytes = 0;
    if (rc == SLP_OK)
        rc = exchange_layout(send_count, size, record, ints, ints + size, &sbytes);
    if (rc == SLP_OK)
        rc = exchange_layout(rcount, size, record, ints + 2 * size, ints + 3 * size, &rbytes);
    if (rc == SLP_OK && *cap < rbytes + 1) { /* a new buffer: the old contents are not kept */
        void *bigger = malloc((size_t)rbytes + 1);
        if (bigger) {
            free(*buf);
            *buf = bigger;
            *cap = rbytes + 1;
        } else {
            rc = slp_error(SLP_ERR_NOMEM, "exchange: out of memory");
        }
    }
    if (size > 1) /* no rank enters the exchange unless all can */
        rc = slp_comm_agree(comm, rc);
    if (rc == SLP_OK && size == 1) {
        if (sbytes > 0) /* send may be NULL when there is nothing to send */
            memcpy(*buf, send, (size_t)sbytes);
    } else if (rc == SLP_OK) {
        rc = check_mpi(MPI_Alltoallv(send, ints, ints + size, MPI_BYTE, *buf, ints + 2 * size,
                                     ints + 3 * size, MPI_BYTE, comm->mpi), "MPI_Alltoallv");
    }
    if (rc == SLP_OK) {
        *recv_count = rbytes / (int64_t)record;
        if (recv_from)
            memcpy(recv_from, rcount, (size_t)size * sizeof *rcount);
    }
    free(rcount);
    free(ints);
    return rc;
}

slp_err slp_comm_recv(slp_comm_t *comm, void *buf, int64_t bytes, int src, int tag)
{
    if (trivial(comm))
        return slp_error(SLP_ERR_INTERNAL, "receive on a single-rank communicator");
    char *p = buf;
    for (int64_t done = 0; done < bytes;) {
        int chunk = (int)(bytes - done < SLP_CHUNK ? bytes - done : SLP_CHUNK);
        SLP_CALL(check_mpi(MPI_Recv(p + done, chunk, MPI_BYTE, src, tag, comm->mpi,
                                    MPI_STATUS_IGNORE),
                           "MPI_Recv"));
        done += chunk;
    }
    return SLP_OK;
}

slp_err slp_comm_barrier(slp_comm_t *comm)
{
    if (trivial(comm) || comm->size == 1)
        return SLP_OK;
    return check_mpi(MPI_Barrier(comm->mpi), "MPI_Barrier");
}

slp_err slp_comm_agree_named(slp_comm_t *comm, slp_err local, const char *what)
{
    int size = slp_comm_size(comm), rank = slp_comm_rank(comm);
    int64_t v[2] = {(int64_t)local, local != SLP_OK ? (int64_t)(size - rank) : 0};
    slp_err rc = slp_comm_max_i64(comm, v, 2);
    if (rc != SLP_OK)
        return rc;
    if (local != SLP_OK)
        return local;
    if (v[0] != SLP_OK)
        return slp_error_on_rank((slp_err)v[0], (int)(size - v[1]),
                                 "%s failed on rank %lld (see its message)", what,
                                 (long long)(size - v[1]));
    return SLP_OK;
}

slp_err slp_comm_agree(slp_comm_t *comm, slp_err local)
{
    int64_t worst = (int64_t)local;
    slp_err rc = slp_comm_max_i64(comm, &worst, 1);
    if (rc != SLP_OK)
        return rc;
    if (local != SLP_OK)
        return local;
    if (worst != SLP_OK)
        return (slp_err)worst; /* another rank failed and reports it; our message stays empty */
    return SLP_OK;
}

slp_err slp_comm_allgather(slp_comm_t *comm, slp_err local, const void *mine, size_t bytes,
                           void *all)
{
    int P = slp_comm_size(comm);
    char *send = local == SLP_OK ? malloc(bytes * (size_t)P + 1) : NULL;
    int64_t *counts = local == SLP_OK ? malloc(sizeof(int64_t) * (size_t)P) : NULL;
    slp_err rc = local != SLP_OK ? local
                 : send && counts ? SLP_OK : slp_error(SLP_ERR_NOMEM, "out of memory");
    rc = slp_comm_agree(comm, rc);
    void *recv = NULL;
    int64_t got = 0;
    if (rc == SLP_OK) {
        for (int k = 0; k < P; k++) {
            memcpy(send + (size_t)k * bytes, mine, bytes);
            counts[k] = 1;
        }
        rc = slp_comm_exchange(comm, send, counts, bytes, &recv, &got);
    }
    if (rc == SLP_OK)
        memcpy(all, recv, bytes * (size_t)P);
    free(recv);
    free(send);
    free(counts);
    return rc;
}
