/* SPDX-License-Identifier: GPL-2.0-only */
/* migrate-args.h - `cxltier migrate`'s options: which processes, which
 * target, which pages, how many jobs */
#ifndef CXLTIER_MIGRATE_ARGS_H
#define CXLTIER_MIGRATE_ARGS_H

#include <stddef.h>
#include "cli/cli.h"
#include "mm/migrate.h"

#define MIGRATE_CONFIG "/etc/cxltier.conf"

struct migrate_args {
	struct ct_migrate_opts mo;
	int select;			/* 1 hot pages, -1 cold pages, 0 all */
	unsigned interval_ms;
	const char *to_tier, *from, *config;
	int *pids;
	char **comms, **cgroups;
	size_t npid, ncomm, ncg;
};

/* the options into a; 0, or an exit code (plain or CMD_DONE: cmd_exit_code) */
int migrate_parse(int argc, char **argv, struct cmd_env *env, struct migrate_args *a, void (*usage)(void));
/* with the context open: --to-tier, --from, the node, the default jobs; 0 or an exit code */
int migrate_resolve(struct cmd_env *env, struct migrate_args *a);
void migrate_args_free(struct migrate_args *a);

#endif
