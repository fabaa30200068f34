// SPDX-License-Identifier: GPL-2.0-only
/* usage-table.c - the columns of `cxltier usage`, and the cells made of
 * several JSON keys (usage-table.h) */
#include <stdio.h>
#include "usage-table.h"

static void fmt_name(json_object *rec, char *buf, size_t len);
static void fmt_tiers(json_object *rec, char *buf, size_t len);
static const struct out_column columns[] = {
	{ "NAME", "pid", OUT_STR, 0.2, 0, "the process (PID and name), cgroup or node", fmt_name },
	{ "TIER", "tier", OUT_NUM, 0.1, 0, "the node's memory tier", NULL },
	{ "SIZE", "bytes", OUT_SIZE, 0.1, 0, "memory on the node (all of it on the process's line)", NULL },
	{ "ANON", "anon", OUT_SIZE, 0.1, 0, "anonymous memory (heap, stack, private)", NULL },
	{ "FILE", "file", OUT_SIZE, 0.1, 0, "file-backed and shared memory", NULL },
	{ "HUGE", "huge", OUT_SIZE, 0.1, 0, "hugetlb pages (processes)", NULL },
	{ "KERNEL", "kernel", OUT_SIZE, 0.1, 0, "kernel stacks, page tables, slab (cgroups)", NULL },
	{ "TIERS", "tiers", OUT_STR, 0.2, OUT_TRUNC, "memory per tier", fmt_tiers },
	{ "ERROR", "error", OUT_STR, 0.2, OUT_TRUNC, "why it could not be read", NULL },
};
static const char *const plevels[] = { "processes", "nodes", NULL };
static const char *const clevels[] = { "cgroups", "nodes", NULL };
const struct out_table usage_process_table = { plevels, NULL, columns, sizeof(columns) / sizeof(columns[0]),
					 "NAME,TIER,SIZE,ANON,FILE,HUGE,TIERS" };
const struct out_table usage_cgroup_table = { clevels, NULL, columns, sizeof(columns) / sizeof(columns[0]),
					 "NAME,TIER,SIZE,ANON,FILE,KERNEL,TIERS" };

static void fmt_name(json_object *rec, char *buf, size_t len)
{
	json_object *v;

	if ((v = out_lookup(rec, "pid")))
		snprintf(buf, len, "%d %s", json_object_get_int(v), json_object_get_string(out_lookup(rec, "comm")));
	else if ((v = out_lookup(rec, "cgroup")))
		snprintf(buf, len, "%s", json_object_get_string(v));
	else
		snprintf(buf, len, "node%d", json_object_get_int(out_lookup(rec, "node")));
}

static void fmt_tiers(json_object *rec, char *buf, size_t len)
{
	json_object *t = out_lookup(rec, "tiers");
	size_t off = 0;
	char hs[32];

	buf[0] = '\0';
	for (size_t i = 0; t && i < json_object_array_length(t) && off < len; i++) {
		json_object *x = json_object_array_get_idx(t, i);
		off += snprintf(buf + off, len - off, "%s%d:%s", i ? "," : "", json_object_get_int(out_lookup(x, "tier")),
				out_human_size(json_object_get_uint64(out_lookup(x, "bytes")), hs, sizeof(hs)));
	}
}
