/* shardlp: entry point and subcommand dispatch. */
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "grid/comm.h"

static void print_help(void)
{
    printf("shardlp %s: distributed first-order LP solver (restarted reflected-Halpern PDHG)\n"
           "\n"
           "usage: shardlp COMMAND [options]\n"
           "\n"
           "commands:\n"
           "  solve MODEL [options]   solve an LP (MODEL: MPS or LP file, any compression, or shards)\n"
           "  check MODEL SOLUTION    check a solution against the nine optimality criteria\n"
           "  shard MODEL --grid RxC --out DIR   convert an MPS or LP model into shards\n"
           "  convert IN OUT          MPS, LP and shard directories into one another\n"
           "  info SHARDS             describe a shard directory\n"
           "  gen KIND [params]       generate an LP family directly as shards\n"
           "  options [--markdown]    every option of solve, with defaults and HiGHS names\n"
           "  help                    this text\n"
           "\n"
           "`shardlp MODEL.mps [options]` is the same as `shardlp solve MODEL.mps [options]`.\n"
           "`shardlp COMMAND --help` describes a command's options.\n"
           "Run under MPI with e.g. `mpirun -np 4 shardlp solve model.mps --grid 2x2`.\n",
           SLP_VERSION);
}

typedef int (*command_fn)(int, char **);

static command_fn find_command(const char *name)
{
    if (!strcmp(name, "solve")) return slp_cmd_solve;
    if (!strcmp(name, "check")) return slp_cmd_check;
    if (!strcmp(name, "shard")) return slp_cmd_shard;
    if (!strcmp(name, "convert")) return slp_cmd_convert;
    if (!strcmp(name, "info")) return slp_cmd_info;
    if (!strcmp(name, "gen")) return slp_cmd_gen;
    if (!strcmp(name, "options")) return slp_cmd_options;
    return NULL;
}

int main(int argc, char **argv)
{
    /* Arrays of 128 KiB and more always mapped and unmapped: glibc's default raises the
     * threshold after freeing a large array, and the phases' freed arrays then stay in
     * the heap (the 4-rank mcf peaked 10% higher, docs/memory.md "The process"). */
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    if (argc < 2 || !strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        print_help();
        return argc < 2 ? 1 : 0;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
        printf("shardlp %s\n", SLP_VERSION);
        return 0;
    }
    if (slp_comm_init(&argc, &argv, 0) != 0) {
        fprintf(stderr, "shardlp: error: cannot start MPI\n");
        return 2;
    }
    /* With other ranks, a write to the socket of a lost peer must come back to Open MPI
     * as an error, which it reports naming that peer, not kill this rank with SIGPIPE,
     * which hides the lost node behind a local death (docs/cluster.md "A lost node"). */
    if (slp_comm_size(slp_comm_world()) > 1)
        signal(SIGPIPE, SIG_IGN);
    command_fn command = find_command(argv[1]);
    int status;
    if (command)
        status = command(argc - 1, argv + 1);
    else /* `shardlp MODEL [options]` and HiGHS-style `shardlp --model_file F` */
        status = slp_cmd_solve_highs_style(argc, argv);
    slp_comm_finalize();
    return status;
}
