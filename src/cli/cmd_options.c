/* shardlp options [--markdown]: the option table of `shardlp solve`, as --help shows
 * it or as the markdown table of docs/cli.md (which a test compares with this). */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "run/option_table.h"

int slp_cmd_options(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--markdown")) {
        slp_option_print_markdown(stdout);
        return 0;
    }
    if (argc != 1) {
        slp_cli_error("usage: shardlp options [--markdown]");
        return 1;
    }
    slp_option_print_help(stdout);
    return 0;
}
