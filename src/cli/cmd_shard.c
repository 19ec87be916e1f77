/* shardlp shard: placeholder until its issue lands. */
#include "cli/commands.h"

int slp_cmd_shard(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    slp_cli_error("'shard' is not implemented yet");
    return 2;
}
