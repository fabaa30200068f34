/* SPDX-License-Identifier: GPL-2.0-only */
/* blocks-change.h - what `online` and `offline` share: the signals and the
 * timer of a run, its session (change/blocks-session.h: the lock, a killed
 * run's auto-online hold undone, the topology, the execution), the report */
#ifndef CXLTIER_BLOCKS_CHANGE_H
#define CXLTIER_BLOCKS_CHANGE_H

#include <stdbool.h>
#include "cli/cli.h"
#include "change/blocks.h"
#include "change/region.h"

struct change_opts {
	enum ct_blocks_want want;
	bool reonline, dry_run, rollback;
	unsigned timeout_s;
	bool whole_region;	/* a memdev target may take its whole interleaved region */
	json_object *regions;	/* online --policy: the regions it created ("new_regions"), or NULL */
	bool regions_failed;	/* ... and a region it should have created is not there */
	bool regions_made;	/* ... it created one: a run whose blocks all fail did something */
	bool targets_failed;	/* a target's dax device could not be handled (named before the run) */
};

/* before reading any block: signal handlers and the session's lock (not
 * for a dry run), so that the plan is made on states no other cxltier is
 * changing; what it undid of a killed run is said */
int change_begin(struct cmd_env *env, const struct change_opts *o);
/* decide, execute (or only show, with dry_run), report (with the memdevs
 * the blocks are on: blocks-scope.c), unlock; an exit code */
int change_run(struct cmd_env *env, struct ct_topology *t, char **targets, int n, struct ct_blocks_plan *plan,
	       const struct change_opts *o);
/* -o checked against the blocks table, before anything changes; an exit
 * code (EXIT_USAGE with a message) */
int change_check_columns(struct cmd_env *env);
/* --timeout SEC into o; an exit code (EXIT_USAGE with a message) */
int change_parse_timeout(struct cmd_env *env, const char *arg, struct change_opts *o);
/* begin (lock), then the topology the targets need: memdevs (or full) need
 * libcxl, the rest only dax devices; an exit code */
int change_begin_load(struct cmd_env *env, const struct change_opts *o, char **targets, int n, bool full,
		      struct ct_topology *t);
/* the execution options of a run begun with change_begin (its signal and
 * timer flags), for commands that change blocks through another lib call */
void change_exec_opts(const struct change_opts *o, struct ct_blocks_opts *eo);
/* the topology the targets need (as change_begin_load, without the lock:
 * again after a change, e.g. --convert); an exit code */
int change_load(struct cmd_env *env, char **targets, int n, bool full, struct ct_topology *t);
/* the region changes of killed runs that change_begin finished or undone
 * (change/region.h), *n of them */
const struct ct_region_recovery *change_recovered(size_t *n);
/* root["recovered"]: those, when there were any (-j of region, online, offline) */
void change_recovered_json(struct json_object *root);
/* unlock when the run ends before change_run */
void change_end(void);
/* before onlining: say so when the kernel onlines new memory by itself */
void change_warn_auto_online(struct cmd_env *env);
/* -vv: "WHAT: N ms", the time since the last phase (the first, "start", prints nothing) */
void change_phase(const struct cmd_env *env, const char *what);

/* offline-remove.c: `offline memN --remove`; an exit code */
int offline_remove(struct cmd_env *env, char **targets, int n, struct change_opts *o);

/* blocks-scope.c: a memdev target whose region interleaves other memdevs
 * is refused (EXIT_USAGE, naming them and the capacity) unless whole */
int scope_refuse_interleaved(struct cmd_env *env, const struct ct_topology *t, char **targets, int n, bool whole);
/* root["memdevs"]: the memdevs behind the plan's blocks, each with its
 * share; on stderr each region that spans several */
void scope_report(struct cmd_env *env, struct ct_topology *t, char **targets, int n, const struct ct_blocks_plan *plan,
		  json_object *root);

#endif
