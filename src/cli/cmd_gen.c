/* shardlp gen: placeholder until its issue lands. */
#include "cli/commands.h"

int slp_cmd_gen(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    slp_cli_error("'gen' is not implemented yet");
    return 2;
}
