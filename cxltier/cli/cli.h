/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli.h - what every command shares: the run's environment, the command
 * and option tables (the one declarative description of the command line:
 * --help, --list-opts, the completion's feed and the man pages' OPTIONS
 * are made from it or checked against it), messages and exit codes.
 *
 * A command is a struct cli_command: its options (struct cli_opt, each
 * saying where its value goes in the command's own arguments struct), its
 * operands, its help texts, and run(). The harness (cli-run.c) parses the
 * command line from the table, checks what the table says (conflicts,
 * operands, the live system, -o against the command's table), opens the
 * library's context and calls run(); help and completion feeds come from
 * cli-help.c.
 */
#ifndef CXLTIER_CLI_H
#define CXLTIER_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include "cli/output.h"

struct ct_context;

enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,
	EXIT_USAGE = 2,
	EXIT_PARTIAL = 64,	/* some objects done, some not: each named on stderr */
	EXIT_SOFTWARE = 70,	/* a command's table is inconsistent (sysexits' EX_SOFTWARE) */
	EXIT_UNSUPPORTED = 77,	/* this kernel or device cannot do it */
	EXIT_NO_LIBRARY = 127,	/* a library loaded on first use is not there */
};
/* (the table of docs/cxltier.txt, EXIT STATUS, names exactly these) */

struct cli_command;

struct cmd_env {
	const char *cmd;		/* the command's name, for messages */
	const char *sysroot;		/* NULL: the live system */
	int verbose;
	struct out_opts out;
	struct ct_context *ctx;		/* opened by cmd_context() (or the harness) */
	const struct option *opts;	/* the running command's options (getopt's) */
	const struct cli_command *command;	/* the running command's table */
	unsigned given;			/* the common options given (CLI_GIVEN_*) */
	/* every command, in the order `cxltier --help` lists them (main.c's
	 * table, for `help`) */
	const struct cli_command *const *commands;
	size_t ncommands;
};

/* ---- the tables ---- */

/* where an option's value goes (at offset in the command's arguments) */
enum cli_store {
	CLI_FLAG,	/* bool: true */
	CLI_COUNT,	/* int: one more each time */
	CLI_STRING,	/* const char *: the argument */
	CLI_LIST,	/* struct name_filter: comma-separated, repeatable (cli/filter.h) */
	CLI_APPEND,	/* struct name_filter: each argument whole, repeatable (files, paths) */
	CLI_UINT,	/* unsigned: a number from 0 to max (0x... too) */
	CLI_SECONDS,	/* unsigned: whole seconds from 0 to max, a span as systemd.time
			 * writes it ("30s", "5min"; a bare number: seconds) */
	CLI_SIZE,	/* uint64_t: a size as util-linux's strtosize reads it ("1.5G",
			 * "1GiB", "1GB" = 10^9), not 0 */
	CLI_CHOICE,	/* int: the index of the argument in words */
	CLI_SET,	/* int: value (no argument; e.g. --movable for --zone movable) */
	CLI_PARSE,	/* the command's own parse() */
};

/* what the completion offers for an option's argument or an operand */
enum cli_complete {
	CLI_C_NONE,	/* nothing (a number, free text) */
	CLI_C_MEMDEV, CLI_C_REGION, CLI_C_DAX, CLI_C_NODE, CLI_C_DECODER,
	CLI_C_PORT, CLI_C_ENDPOINT, CLI_C_BUS,
	CLI_C_TARGET,	/* what online and offline take */
	CLI_C_FILE, CLI_C_DIR,
	CLI_C_COLUMNS,	/* the command's columns */
	CLI_C_WORDS,	/* the option's words */
	CLI_C_PID, CLI_C_COMM, CLI_C_CGROUP,
	CLI_C_TIER,	/* a memory tier: fastest, slowest, or its number */
	CLI_C_COMMAND,	/* a command of cxltier */
};

/* cli_opt.flags */
#define CLI_LIVE	0x1	/* the running system only: refused with --sysroot */
#define CLI_HIDDEN	0x2	/* not in --help nor the man page (test tools, old spellings) */

struct cmd_env;
struct cli_opt {
	const char *name;	/* the long name; NULL ends a table */
	int key;		/* the short letter, 0 for none */
	const char *arg;	/* the argument's name in the help, NULL: no argument */
	const char *help;	/* its help; "\n" goes on below */
	enum cli_store store;
	size_t offset;		/* offsetof(the command's arguments, the field) */
	long max;		/* CLI_UINT, CLI_SECONDS: the largest value; CLI_SET: the value */
	const char *words;	/* CLI_CHOICE and CLI_C_WORDS: "movable normal" */
	enum cli_complete complete;
	unsigned flags;
	const char *conflicts;	/* "policy,convert": long names it does not go with
				 * (its command's, or the common json, output,
				 * noheadings, bytes, sysroot) */
	const char *conflict_msg;	/* said when one of them is given too
					 * (NULL: "--NAME: not with --OTHER") */
	/* CLI_PARSE: stores the value; with another store, checks the
	 * argument before it is stored. 0, or an exit code with the message said */
	int (*parse)(struct cmd_env *env, void *args, const char *arg);
	const char *bad;	/* the refusal's hint for a value that does not parse
				 * ("give a node number"); NULL: made from the store */
};

/* cli_command.flags */
#define CLI_NO_CONTEXT	0x1	/* run() opens the context itself, or needs none */
#define CLI_LIVE_ONLY	0x2	/* the running system only: refused with --sysroot */
#define CLI_CHECK_COLUMNS 0x4	/* -o checked against tables[0] before run() (it acts before it prints) */
#define CLI_NO_OUTPUT	0x8	/* prints no table or JSON: -j, -o, -n, -r, -P, -l, -b refused */
#define CLI_OPERANDS_END 0x10	/* options end at the first operand (a command line to run, as env(1)) */
#define CLI_NO_LOCALE	0x20	/* the locale not loaded: no table to draw (run: its start-up is its command's) */

struct cli_command {
	const char *name;
	const char *summary;		/* one line, in `cxltier --help` */
	const char *synopsis;		/* the usage lines after "cxltier NAME ", "\n" between */
	const char *about;		/* what it does, for --help */
	const struct cli_opt *opts;	/* its own options, ended by { NULL } */
	const char *notes;		/* after the options in --help (NULL: none) */
	const char *exit_help;		/* "Exit: 0 ..." (NULL: the common codes) */
	const struct out_table *const *tables;	/* its columns, NULL-ended; the first is -o's */
	size_t args_size;		/* its arguments' struct, zeroed, then */
	const void *args_init;		/* ... copied from this when given */
	const char *operands;		/* what the operands are called in messages: "TARGET" */
	enum cli_complete operand_kind;
	int min_operands, max_operands;	/* max < 0: no limit */
	const char *missing;		/* said when fewer than min_operands */
	const char *surplus;		/* said of the first operand past max_operands (a
					 * format with one %s); NULL: "unexpected argument '%s'" */
	unsigned flags;
	/* nonzero: the exit code of every failure before run() (a command that
	 * passes on another's status: `run`'s 125, as env(1)) */
	int failure;
	/* the command itself: args filled, operands after the options; an exit code */
	int (*run)(struct cmd_env *env, void *args, int argc, char **argv);
	/* region create|destroy; NULL-ended. With run too, the command runs
	 * itself when its first word names none of them (poison [MEMDEV...]
	 * beside poison inject|clear) */
	const struct cli_command *const *subcommands;
	/* during the move to the tables: a command that parses its own options */
	int (*legacy)(int argc, char **argv, struct cmd_env *env);
};

/* the common options every command takes (cli-run.c adds them) */
#define CLI_GIVEN_JSON		0x1
#define CLI_GIVEN_COLUMNS	0x2
#define CLI_GIVEN_NOHEADINGS	0x4
#define CLI_GIVEN_BYTES		0x8
#define CLI_GIVEN_SYSROOT	0x10
#define CLI_GIVEN_RAW		0x20
#define CLI_GIVEN_PAIRS		0x40
#define CLI_GIVEN_LIST		0x80
#define CLI_GIVEN_OUTPUT_ALL	0x100
/* the options that say how the result is shown */
#define CLI_GIVEN_SHOWN (CLI_GIVEN_JSON | CLI_GIVEN_COLUMNS | CLI_GIVEN_NOHEADINGS | CLI_GIVEN_BYTES | \
			 CLI_GIVEN_RAW | CLI_GIVEN_PAIRS | CLI_GIVEN_LIST | CLI_GIVEN_OUTPUT_ALL)

/* ---- messages ---- */

/* "cxltier CMD: error: ...", "cxltier CMD: warning: ...", and (when the
 * verbosity is at least level) "cxltier CMD: ...": one line each, written
 * at once (a run of `cxltier hotplug` shares its stderr) */
void cmd_err(const struct cmd_env *env, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cmd_warn(const struct cmd_env *env, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cmd_info(const struct cmd_env *env, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* the library's last error said, and code returned */
int cmd_fail(const struct cmd_env *env, int code);
/* the closest candidate to word, or NULL when nothing is close */
const char *cmd_suggest(const char *word, const char *const *cands, size_t n);
/* open the lib context on env->sysroot (with its messages to stderr);
 * prints the error itself */
int cmd_context(struct cmd_env *env);

/* ---- during the move to the tables: commands that parse their own options ---- */

#define COMMON_SHORT_OPTS "hvjo:nb"
#define OPT_SYSROOT 0x1001
#define OPT_LIST_OPTS 0x1002
#define COMMON_LONG_OPTS \
	{ "help", no_argument, NULL, 'h' }, \
	{ "verbose", no_argument, NULL, 'v' }, \
	{ "json", no_argument, NULL, 'j' }, \
	{ "output", required_argument, NULL, 'o' }, \
	{ "noheadings", no_argument, NULL, 'n' }, \
	{ "bytes", no_argument, NULL, 'b' }, \
	{ "sysroot", required_argument, NULL, OPT_SYSROOT }, \
	{ "list-opts", no_argument, NULL, OPT_LIST_OPTS }

/* 0 when c was one of the common options, 1 when not, or an exit code
 * (>= 0x100 | code) when the run ends here */
#define CMD_DONE(code) (0x100 | (code))
int cmd_common_opt(struct cmd_env *env, int c, const char *arg, int argc, char **argv,
		   void (*usage)(void));
int cmd_exit_code(int r);	/* CMD_DONE(x) -> x */

#endif
