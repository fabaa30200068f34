// SPDX-License-Identifier: GPL-2.0-only
/* blocks-table.c - a change of memory blocks shown (blocks-table.h) */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "render/blocks-table.h"
#include "cli/json-build.h"
#include "mm/memblock.h"

static const char *const levels[] = { "blocks", NULL };
static void fmt_from(json_object *rec, char *buf, size_t len);
static void fmt_now(json_object *rec, char *buf, size_t len);
static const struct out_column columns[] = {
	{ "BLOCK", "block", OUT_STR, 0.1, 0, "memory block", NULL },
	{ "NODE", "node", OUT_NUM, 0.1, 0, "NUMA node", NULL },
	{ "DEVICE", "device", OUT_STR, 0.1, 0, "the dax device it belongs to", NULL },
	{ "FROM", "from_state", OUT_STR, 0.1, 0, "state and zone(s) before", fmt_from },
	{ "ACTION", "action", OUT_STR, 0.1, 0, "what cxltier does (or would do)", NULL },
	{ "RESULT", "result", OUT_STR, 0.1, 0, "done, unchanged, failed, raced, refused, rolled_back, rollback_failed, half_done, interrupted, planned", NULL },
	{ "NOW", "state", OUT_STR, 0.1, 0, "state and zone after", fmt_now },
	{ "NOTE", "note", OUT_STR, 0.1, 0, "why, when it did not go as asked", NULL },
};
const struct out_table blocks_table = {
	levels, NULL, columns, sizeof(columns) / sizeof(columns[0]), "BLOCK,NODE,DEVICE,FROM,ACTION,RESULT,NOW,NOTE",
};

static void zones_str(json_object *z, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; z && i < json_object_array_length(z) && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? "," : "", json_object_get_string(json_object_array_get_idx(z, i)));
}

static void fmt_state(json_object *rec, const char *skey, const char *zkey, char *buf, size_t len)
{
	json_object *st = out_lookup(rec, skey);
	char z[64];

	zones_str(out_lookup(rec, zkey), z, sizeof(z));
	snprintf(buf, len, "%s%s%s%s", st ? json_object_get_string(st) : "", z[0] ? " (" : "", z, z[0] ? ")" : "");
}

static void fmt_from(json_object *rec, char *buf, size_t len)
{
	fmt_state(rec, "from_state", "from_zones", buf, len);
}

static void fmt_now(json_object *rec, char *buf, size_t len)
{
	fmt_state(rec, "state", "zones", buf, len);
}

static json_object *zones_json(const struct ct_block *b)
{
	json_object *a = json_object_new_array();

	for (unsigned i = 0; i < b->nzones; i++)
		json_object_array_add(a, json_object_new_string(ct_zone_name(b->zones[i])));
	return a;
}

static json_object *op_json(const struct ct_block_op *op, bool dry)
{
	json_object *o = json_object_new_object();
	char name[32];

	snprintf(name, sizeof(name), "memory%llu", (unsigned long long)op->before.id);
	jb_str(o, "block", name);
	jb_u64(o, "id", op->before.id);
	jb_int_known(o, "node", op->node);
	jb_str(o, "device", op->owner);
	jb_str(o, "from_state", ct_block_state_name(op->before.state));
	if (op->before.nzones)	/* absent when not read (an offline block in a real run) */
		json_object_object_add(o, "from_zones", zones_json(&op->before));
	jb_str(o, "action", ct_blocks_action_name(op->action));
	jb_str(o, "result", ct_blocks_result_name(op->result));
	if (!dry) {
		jb_str(o, "state", ct_block_state_name(op->after.state));
		if (op->after.nzones)
			json_object_object_add(o, "zones", zones_json(&op->after));
	}
	if (op->err) {
		jb_int(o, "errno", op->err);
		jb_str(o, "error", strerror(op->err));
	}
	jb_str(o, "note", ct_blocks_note_of(op));
	return o;
}

/* the plan's ops as records, made one at a time while they are printed */
static json_object *op_row(void *ctx, size_t i)
{
	const struct ct_blocks_change_report *r = ctx;

	return op_json(&r->plan.op[i], r->dry_run);
}

/* root["memdevs"]: the memdevs behind the blocks, each with its share */
static void memdevs_json(json_object *root, const struct ct_interleave_set *set)
{
	json_object *arr = jb_arr(root, "memdevs");

	for (size_t i = 0; i < set->n; i++) {
		const struct ct_interleave_touched *m = &set->m[i];
		json_object *o = json_object_new_object();
		jb_str(o, "memdev", m->memdev);
		jb_str(o, "region", m->region);
		if (m->ways) {
			jb_int(o, "interleave_ways", m->ways);
			jb_int(o, "position", m->position);
		}
		jb_int(o, "blocks", m->blocks);
		jb_u64(o, "size", m->size);
		jb_bool(o, "named", m->named);
		json_object_array_add(arr, o);
	}
}

/* root["new_regions"]: online --policy's memdevs without a region */
static void new_regions_json(json_object *root, const struct ct_blocks_change_report *r)
{
	json_object *arr;

	if (!r->nnew_regions)
		return;
	arr = jb_arr(root, "new_regions");
	for (size_t i = 0; i < r->nnew_regions; i++) {
		const struct ct_policy_new_region *n = &r->new_regions[i];
		json_object *o = json_object_new_object();
		jb_str(o, "memdev", n->memdev);
		if (n->region[0])
			jb_str(o, "region", n->region);
		if (n->dax[0])
			jb_str(o, "dax_device", n->dax);
		jb_str(o, "state", ct_policy_region_state_name(n->state));
		if (n->converted)
			jb_bool(o, "converted_to_system_ram", true);
		jb_str(o, "note", n->note);
		json_object_array_add(arr, o);
	}
}

int blocks_table_print(const struct out_opts *out, const struct ct_blocks_change_report *r, json_object *recovered,
		       char *err, size_t errlen)
{
	json_object *root = json_object_new_object();
	int rc;

	jb_arr(root, "blocks");	/* its records are made as they are printed */
	memdevs_json(root, &r->memdevs);
	if (recovered)
		json_object_object_add(root, "recovered", recovered);
	new_regions_json(root, r);
	rc = out_print_rows(out, &blocks_table, root, "blocks", r->plan.n, op_row, (void *)r, err, errlen);
	json_object_put(root);
	return rc;
}

static struct blocks_line *line(struct blocks_line *l, size_t *n, int kind)
{
	l[*n] = (struct blocks_line){ kind, "" };
	return &l[(*n)++];
}

size_t blocks_closing(const struct ct_blocks_change_report *r, struct blocks_line l[BLOCKS_LINES])
{
	struct timespec now;
	size_t n = 0;
	char hs[32], rb[96] = "";

	clock_gettime(CLOCK_MONOTONIC, &now);	/* -vv: the time the report took */
	snprintf(line(l, &n, 2)->text, sizeof(l->text), "report: %.2f ms",
		 (now.tv_sec - r->phase.tv_sec) * 1e3 + (now.tv_nsec - r->phase.tv_nsec) / 1e6);
	if (r->dry_run) {
		snprintf(line(l, &n, 0)->text, sizeof(l->text), "dry run: %zu of %zu blocks would change; "
			 "nothing was changed", r->would_change, r->plan.n);
	} else {
		if (r->rolled_back || r->rollback_failed)
			snprintf(rb, sizeof(rb), "; rolled back %zu of the %zu that had changed", r->rolled_back,
				 r->rolled_back + r->rollback_failed);
		snprintf(line(l, &n, 0)->text, sizeof(l->text), "%zu blocks changed (%s), %zu already as asked, "
			 "%zu not%s", r->done + r->rollback_failed, out_human_size(r->changed_bytes, hs, sizeof(hs)),
			 r->unchanged, r->failed + r->rolled_back, rb);
		if (r->stopped)
			snprintf(line(l, &n, CT_SAY_ERROR)->text, sizeof(l->text), "stopped by a signal before every block "
				 "was handled");
		if (r->half_done)
			snprintf(line(l, &n, CT_SAY_ERROR)->text, sizeof(l->text), "%zu block%s left OFFLINE by --reonline "
				 "(named above): 'cxltier online' them again once the cause is gone", r->half_done,
				 r->half_done == 1 ? "" : "s");
		if ((r->done || r->rollback_failed) && r->failed)
			snprintf(line(l, &n, CT_SAY_ERROR)->text, sizeof(l->text), "memory left partly %s: see the blocks "
				 "named above", r->want == CT_WANT_OFFLINE ? "offlined" : "onlined");
	}
	return n;
}
