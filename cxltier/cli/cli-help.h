/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli-help.h - what the command table says to people and to the
 * completion: a command's --help (usage lines, what it does, each option
 * with its help, the common options, the exit codes, the columns), its
 * --list-opts, and --list-completion, the completion's feed: a line an
 * option ("--NAME[=]\tKIND\tWORDS", its short form as "-X[=]" the same way;
 * "=" when it takes an argument), and one for the operands
 * ("@operands\tKIND"), or for a command with subcommands one line
 * ("@subcommands\twords\tNAME..."); a command that also runs itself
 * (poison) has its options and operands, then that line. KIND is what to
 * offer after the option
 * (none, memdev, region, dax, node, decoder, port, endpoint, bus, target,
 * file, dir, columns, words, pid, comm, cgroup, tier, command); WORDS, for
 * words and columns, the choices separated by spaces.
 */
#ifndef CXLTIER_CLI_HELP_H
#define CXLTIER_CLI_HELP_H

#include <stdio.h>
#include "cli/cli.h"

/* the options every command takes (the harness parses them), in the order
 * --list-opts names them; ended by { NULL } */
struct cli_common_opt {
	const char *name;
	int key;
	const char *arg;
	enum cli_complete complete;
	unsigned given;		/* CLI_GIVEN_*: what giving it says */
	bool yields;		/* a table's form (-r, -P, -l, --output-all): a command's
				 * own option of its name or letter comes first */
};
extern const struct cli_common_opt cli_common_opts[];

/* the letter the common option k has in command c: its own, 0 when it has
 * none or c's own option takes it, -1 when c's own option takes its name
 * (then c has not k: `list -r` is --region, there --raw has no letter;
 * cdat's --raw is its hex dump) */
int cli_common_letter(const struct cli_command *c, const struct cli_common_opt *k);

void cli_help(FILE *f, const struct cli_command *c, const char *parent);
void cli_list_opts(FILE *f, const struct cli_command *c);
void cli_list_completion(FILE *f, const struct cli_command *c);
/* `cxltier --help`: the global options and every command with its summary */
void cli_usage(FILE *f, const struct cli_command *const *cmds, size_t n);
/* the command of that name, or NULL */
const struct cli_command *cli_find(const struct cli_command *const *cmds, size_t n, const char *name);
/* "'NAME' is not a cxltier command", the close one suggested; EXIT_USAGE */
int cli_unknown_command(const struct cli_command *const *cmds, size_t n, const char *name);
/* the name of a completion kind */
const char *cli_complete_name(enum cli_complete k);

#endif
