/* shardlp check: placeholder until its issue lands. */
#include "cli/commands.h"

int slp_cmd_check(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    slp_cli_error("'check' is not implemented yet");
    return 2;
}
