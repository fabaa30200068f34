/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd-poison.h - what the parts of `cxltier poison` (and list -vvv) share */
#ifndef CXLTIER_CMD_POISON_H
#define CXLTIER_CMD_POISON_H

#include <stdbool.h>
#include <json-c/json.h>
#include "cli/cli.h"
#include "events/poison.h"
#include "cxl/topology.h"

/* one poison range: memdev (when with_memdev), dpa, length, hpa, region,
 * region_offset (from t's regions when given), region_uuid, source, flags,
 * overflow_timestamp/overflow_time; trace_type unless it was a list read */
json_object *poison_record_json(const struct ct_poison_list *l, const struct ct_poison *p,
				const struct ct_topology *t, bool with_memdev);

/* the results of one run, rendered as {"poison":[...], "memdevs":[...]}
 * (JSON) or a tree of memdevs and their ranges (table) */
struct poison_out {
	json_object *records;	/* "poison" */
	json_object *memdevs;	/* "memdevs" */
	json_object *rows;	/* the table's memdev rows */
};
void poison_out_init(struct poison_out *o);
void poison_out_free(struct poison_out *o);
/* a memdev's list (keep: which of its records to show; NULL all) */
void poison_out_add(struct poison_out *o, const struct ct_memdev *m, const struct ct_poison_list *l,
		    const struct ct_topology *t, bool (*keep)(const struct ct_poison *p, void *arg), void *arg);
/* a memdev whose list could not be read, and why */
void poison_out_failed(struct poison_out *o, const struct ct_memdev *m, const char *why, bool unsupported);
/* print (JSON or table); an exit code (EXIT_USAGE for an unknown column) */
int poison_out_print(struct cmd_env *env, struct poison_out *o);
void poison_columns_help(void);

/* `poison inject|clear`: poison-change.c */
int poison_change(int argc, char **argv, struct cmd_env *env, bool inject);
void poison_change_usage(void);

#endif
