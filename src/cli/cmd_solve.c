#include "cli/commands.h"

int slp_cmd_solve(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    slp_cli_error("'solve' is not implemented yet");
    return 2;
}
