/* Subcommands of the shardlp binary. Each returns the process exit status and
 * prints its own errors (one line on stderr, "shardlp: error: ..."). The
 * communication layer is already initialised when they run. */
#ifndef SLP_COMMANDS_H
#define SLP_COMMANDS_H

int slp_cmd_solve(int argc, char **argv);
/* `shardlp MODEL [options]`: solve, as a HiGHS-style run (run/run_options.h). */
int slp_cmd_solve_highs_style(int argc, char **argv);
int slp_cmd_check(int argc, char **argv);
int slp_cmd_shard(int argc, char **argv);
int slp_cmd_convert(int argc, char **argv);
int slp_cmd_info(int argc, char **argv);
int slp_cmd_gen(int argc, char **argv);
int slp_cmd_options(int argc, char **argv);

/* Print "shardlp: error: <message>" on stderr. */
void slp_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
