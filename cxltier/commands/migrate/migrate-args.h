/* SPDX-License-Identifier: GPL-2.0-only */
/* migrate-args.h - `cxltier migrate`'s options: which processes, which
 * target, which pages, how many jobs; each value checked as it is given
 * (the parse functions of its table), then as a whole */
#ifndef CXLTIER_MIGRATE_ARGS_H
#define CXLTIER_MIGRATE_ARGS_H

#include <stddef.h>
#include "cli/cli.h"
#include "cli/filter.h"
#include "mm/migrate.h"

#define MIGRATE_CONFIG "/etc/cxltier.conf"

struct migrate_args {
	struct ct_migrate_opts mo;
	int select;			/* 1 hot pages, -1 cold pages, 0 all */
	unsigned interval_ms;
	const char *to_tier, *from, *config;
	struct name_filter pids, comms, cgroups;	/* each argument whole */
	/* --spread weighted: over --nodes (or the kernel's weighted nodes) with
	 * the kernel's weights, or with --weights; --tolerance */
	bool spread;
	const char *nodes, *weights;
	bool tolerance_given;
	unsigned weight[CT_MIG_MAX_NODES];
	bool weights_from_kernel;
};

/* the options' parse() (and --pid's check): 0, or EXIT_USAGE with the
 * value's fault said */
int migrate_check_pids(struct cmd_env *env, void *args, const char *list);
int migrate_parse_to(struct cmd_env *env, void *args, const char *arg);
int migrate_parse_max_bytes(struct cmd_env *env, void *args, const char *arg);
int migrate_parse_rate(struct cmd_env *env, void *args, const char *arg);
int migrate_parse_interval(struct cmd_env *env, void *args, const char *arg);
int migrate_parse_jobs(struct cmd_env *env, void *args, const char *arg);
int migrate_parse_spread(struct cmd_env *env, void *args, const char *arg);
int migrate_parse_tolerance(struct cmd_env *env, void *args, const char *arg);
int migrate_parse_weights(struct cmd_env *env, void *args, const char *arg);

/* the options as a whole, before anything is read: the live system, some
 * processes, a target; 0 or EXIT_USAGE with the fault said */
int migrate_check(struct cmd_env *env, const struct migrate_args *a);
/* with the context open: --to-tier, --from, the node, the default jobs; 0 or an exit code */
int migrate_resolve(struct cmd_env *env, struct migrate_args *a);

#endif
