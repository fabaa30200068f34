/* SPDX-License-Identifier: GPL-2.0-only */
/* migrate-json.h - `cxltier migrate`'s report: one record per process
 * (JSON and the table's columns) */
#ifndef CXLTIER_MIGRATE_JSON_H
#define CXLTIER_MIGRATE_JSON_H

#include <stdbool.h>
#include <json-c/json.h>
#include "cli/cli.h"
#include "cli/output.h"
#include "mm/migrate.h"
#include "mm/tiers.h"

extern const struct out_table migrate_table;
extern const struct out_table migrate_spread_table;	/* the same columns, a spread's by default */

/* what moved: the result's fields into the process's record o (with t:
 * the bytes per tier before and after too) */
void migrate_record_result(json_object *o, const struct ct_migrate_result *r, bool dry_run, const struct ct_tiers *t);
/* a process that could not be handled: its error into o */
void migrate_record_error(json_object *o, int pid, const char *comm, const char *msg);

/* --hot/--cold: the regions DAMON saw, those chosen, into o's "selection" */
void migrate_record_selection(json_object *o, int select, unsigned interval_ms, const struct ct_access_region *reg,
			      size_t n);
/* the run as a whole ("run": jobs, time, scan and move time per GiB); -v says it too */
void migrate_record_run(json_object *root, const struct ct_migrate_totals *t, const struct cmd_env *env);

/* --spread: the weights (by node), where they came from (the kernel's or
 * --weights) and the tolerance, into root's "spread" */
void migrate_record_spread(json_object *root, const unsigned *weight, bool kernel, double tolerance_pct);

#endif
