/* Solving on a user communicator: the program starts MPI itself, splits the world
 * into two halves and solves one LP in each half independently (MPS file given on the
 * command line; run with an even number of ranks, e.g. mpirun -np 4). Exit status 0
 * when both halves report an optimal solution with the same objective. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>

#include "shardlp.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank < size / 2, rank, &half);

    int failed = argc < 2 || shardlp_init_comm(&half) != SHARDLP_OK;
    shardlp_problem *lp = NULL;
    shardlp_info info = {0};
    if (!failed && shardlp_rank() == 0) /* the problem is read on the group's rank 0 */
        failed = shardlp_problem_read(argv[1], &lp) != SHARDLP_OK;
    if (failed && argc >= 2 && shardlp_rank() == 0)
        fprintf(stderr, "rank %d: %s\n", rank, shardlp_last_error());
    /* The solve is collective over the group: every rank of it calls shardlp_solve or
     * none does, so a failure before it (a missing file on rank 0) is agreed first. */
    int any_failed = failed;
    MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, half);
    int read_failed = any_failed;
    failed = any_failed;
    shardlp_settings *set = NULL;
    if (!failed)
        failed = shardlp_settings_create(&set) != SHARDLP_OK ||
                 shardlp_set_option(set, "tol", "1e-8") != SHARDLP_OK ||
                 shardlp_solve(lp, set, &info, NULL, NULL, NULL, NULL) != SHARDLP_OK;
    shardlp_settings_destroy(&set);
    if (failed && !read_failed)
        fprintf(stderr, "rank %d: %s\n", rank, shardlp_last_error());
    shardlp_problem_destroy(&lp);
    int group_ranks = shardlp_ranks();
    shardlp_finalize();

    /* Both halves must agree: compare the objectives over the world. */
    double obj[2] = {info.objective, -info.objective}, ext[2];
    MPI_Allreduce(obj, ext, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    int bad = failed || info.status != SHARDLP_OPTIMAL || group_ranks != size / 2 ||
              fabs(ext[0] + ext[1]) > 1e-9 * fmax(1.0, fabs(ext[0]));
    int any_bad = 0;
    MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
        printf("two groups of %d ranks: objective %.10g, %s\n", group_ranks, info.objective,
               any_bad ? "FAILED" : "ok");
    MPI_Comm_free(&half);
    MPI_Finalize();
    return any_bad;
}
