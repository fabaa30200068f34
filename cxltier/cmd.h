/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd.h - what every command shares: the run's environment, the common
 * options, messages and exit codes */
#ifndef CXLTIER_CMD_H
#define CXLTIER_CMD_H

#include <getopt.h>
#include <stdbool.h>
#include "output.h"

struct ct_context;

enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,
	EXIT_USAGE = 2,
	EXIT_PARTIAL = 64,	/* some objects done, some not: each named on stderr */
	EXIT_UNSUPPORTED = 77,	/* this kernel or device cannot do it */
};

struct cmd_env {
	const char *cmd;		/* the command's name, for messages */
	const char *sysroot;		/* NULL: the live system */
	int verbose;
	struct out_opts out;
	struct ct_context *ctx;		/* opened by cmd_context() */
	const struct option *opts;	/* the running command's options */
};

struct cmd {
	const char *name;
	int (*run)(int argc, char **argv, struct cmd_env *env);
	const char *summary;
};

extern const struct cmd commands[];
extern const size_t ncommands;

int cmd_list(int argc, char **argv, struct cmd_env *env);
int cmd_cdat(int argc, char **argv, struct cmd_env *env);
int cmd_tiers(int argc, char **argv, struct cmd_env *env);
int cmd_online(int argc, char **argv, struct cmd_env *env);
int cmd_offline(int argc, char **argv, struct cmd_env *env);
int cmd_hotplug(int argc, char **argv, struct cmd_env *env);
int cmd_doctor(int argc, char **argv, struct cmd_env *env);
int cmd_health(int argc, char **argv, struct cmd_env *env);
int cmd_events(int argc, char **argv, struct cmd_env *env);
int cmd_migrate(int argc, char **argv, struct cmd_env *env);
int cmd_region(int argc, char **argv, struct cmd_env *env);
int cmd_poison(int argc, char **argv, struct cmd_env *env);
int cmd_usage(int argc, char **argv, struct cmd_env *env);
int cmd_metrics(int argc, char **argv, struct cmd_env *env);

/* options every command takes (see COMMON_LONG_OPTS): 0 when c was one of
 * them, 1 when not, or an exit code (>= 0x100 | code) when the run ends here */
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

#define CMD_DONE(code) (0x100 | (code))
int cmd_common_opt(struct cmd_env *env, int c, const char *arg, int argc, char **argv,
		   void (*usage)(void));
int cmd_exit_code(int r);	/* CMD_DONE(x) -> x */

/* open the lib context on env->sysroot; prints the error itself */
int cmd_context(struct cmd_env *env);

void cmd_err(const struct cmd_env *env, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cmd_warn(const struct cmd_env *env, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cmd_info(const struct cmd_env *env, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* the closest candidate to word, or NULL when nothing is close */
const char *cmd_suggest(const char *word, const char *const *cands, size_t n);

#endif
