// SPDX-License-Identifier: GPL-2.0-only
/* offline-remove-table.c - `offline --remove`'s report shown (offline-remove-table.h) */
#include <stdio.h>
#include <string.h>
#include "offline-remove-table.h"
#include "cli/json-build.h"
#include "render/recovered-json.h"

static const char *const levels[] = { "memdevs", "regions", NULL };
static const struct out_column columns[] = {
	{ "NAME", "name", OUT_STR, 0.1, 0, "memdev, or its region", NULL },
	{ "STATE", "state", OUT_STR, 0.1, 0, "region: destroyed, busy, failed, interrupted, planned", NULL },
	{ "WITH", "interleaved_with", OUT_STR, 0.2, 0, "other memdevs of the region's interleave set", NULL },
	{ "DISABLED", "disabled", OUT_BOOL, 0.1, 0, "memdev unbound from cxl_mem", NULL },
	{ "SAFE", "safe_to_remove", OUT_BOOL, 0.1, 0, "the card can be removed now", NULL },
};
const struct out_table remove_table = { levels, NULL, columns, sizeof(columns) / sizeof(columns[0]),
					"NAME,STATE,WITH,DISABLED,SAFE" };

static json_object *region_json(const struct ct_remove_region *g)
{
	json_object *o = json_object_new_object(), *with;

	jb_str(o, "name", g->name);
	with = jb_arr(o, "interleaved_with");
	for (unsigned k = 0; k < g->nwith; k++)
		json_object_array_add(with, json_object_new_string(g->with[k]));
	jb_str(o, "error", g->error);
	jb_str(o, "state", g->state);
	return o;
}

static json_object *memdev_json(const struct ct_remove_memdev *m)
{
	json_object *o = json_object_new_object(), *regs;

	jb_str(o, "name", m->name);
	regs = jb_arr(o, "regions");
	for (size_t i = 0; i < m->nregions; i++)
		json_object_array_add(regs, region_json(&m->regions[i]));
	if (m->judged) {
		jb_bool(o, "disabled", m->disabled);
		jb_bool(o, "safe_to_remove", m->safe_to_remove);
	}
	return o;
}

static json_object *busy_json(const struct ct_busy_block *b)
{
	json_object *o = json_object_new_object(), *who;
	char name[32];

	snprintf(name, sizeof(name), "memory%llu", (unsigned long long)b->id);
	jb_str(o, "block", name);
	jb_str(o, "region", b->region);
	jb_int_known(o, "node", b->node);
	jb_str(o, "result", ct_blocks_result_name(b->result));
	if (b->err)
		jb_str(o, "error", strerror(b->err));
	jb_str(o, "note", b->note);
	who = jb_arr(o, "pinned_by");
	for (size_t i = 0; i < b->npinners; i++) {
		json_object *w = json_object_new_object();
		jb_int(w, "pid", b->pinners[i].pid);
		jb_str(w, "comm", b->pinners[i].comm);
		jb_u64(w, "bytes", b->pinners[i].bytes);
		json_object_array_add(who, w);
	}
	return o;
}

int remove_table_print(const struct out_opts *out, const struct ct_offline_remove_report *r, char *err,
		       size_t errlen)
{
	json_object *root = json_object_new_object(), *arr = jb_arr(root, "memdevs"), *busy = jb_arr(root, "busy_blocks");
	json_object *rec = out->json ? recovered_json(&r->recovered) : NULL;
	int rc;

	for (size_t i = 0; i < r->nmemdevs; i++)
		json_object_array_add(arr, memdev_json(&r->memdevs[i]));
	for (size_t i = 0; i < r->nbusy; i++)
		json_object_array_add(busy, busy_json(&r->busy[i]));
	if (rec)
		json_object_object_add(root, "recovered", rec);
	rc = out_print(out, &remove_table, root, err, errlen);
	json_object_put(root);
	return rc;
}
