/* shardlp info: placeholder until its issue lands. */
#include "cli/commands.h"

int slp_cmd_info(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    slp_cli_error("'info' is not implemented yet");
    return 2;
}
