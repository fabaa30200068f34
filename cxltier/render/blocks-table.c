// SPDX-License-Identifier: GPL-2.0-only
/* blocks-table.c - a change of memory blocks shown (blocks-table.h) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "render/blocks-table.h"
#include "cli/json-build.h"
#include "mm/memblock.h"
#include <libsmartcols.h>

static const char *const levels[] = { "blocks", NULL };
static void fmt_from(json_object *rec, char *buf, size_t len);
static void fmt_now(json_object *rec, char *buf, size_t len);
/* a row is a range of consecutive blocks that went alike (with --split, one
 * block); the JSON is one record a block, as before */
static const struct out_column columns[] = {
	{ "RANGE", "range", OUT_STR, 0.1, 0, "the physical address range, first-last byte", NULL },
	{ "BLOCK", "blocks", OUT_STR, 0.1, 0, "memory block number (memoryN), or first-last", NULL },
	{ "SIZE", "size", OUT_SIZE, 0.1, 0, "its size", NULL },
	{ "NODE", "node", OUT_NUM, 0.1, 0, "NUMA node", NULL },
	{ "DEVICE", "device", OUT_STR, 0.1, 0, "the dax device it belongs to", NULL },
	{ "STATE", "change", OUT_STR, 0.1, 0, "state before->after (would be after, in a dry run)", NULL },
	{ "ZONE", "zone", OUT_STR, 0.1, 0, "the zone it is online in after (would be, in a dry run)", NULL },
	{ "FROM", "from_state", OUT_STR, 0.1, 0, "state and zone(s) before", fmt_from },
	{ "ACTION", "action", OUT_STR, 0.1, 0, "what cxltier does (or would do)", NULL },
	{ "RESULT", "result", OUT_STR, 0.1, 0, "done, unchanged, failed, raced, refused, rolled_back, rollback_failed, half_done, interrupted, planned", NULL },
	{ "NOW", "state", OUT_STR, 0.1, 0, "state and zone after", fmt_now },
	{ "NOTE", "note", OUT_STR, 0.1, SCOLS_FL_TRUNC, "why, when it did not go as asked", NULL },
};
const struct out_table blocks_table = {
	levels, NULL, columns, sizeof(columns) / sizeof(columns[0]), "RANGE,BLOCK,SIZE,NODE,STATE,ZONE,RESULT,NOTE",
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

/* ---- the table's rows: ranges of blocks that went alike ---- */

struct ranges {
	const struct ct_blocks_change_report *r;
	size_t *first;		/* each range's first op; the next one's ends it */
	size_t n;
};

static bool same_block(const struct ct_block *a, const struct ct_block *b)
{
	return a->state == b->state && a->nzones == b->nzones &&
	       !memcmp(a->zones, b->zones, a->nzones * sizeof(a->zones[0]));
}

/* b goes on the range a is the last of: the next block, alike in all the
 * table shows */
static bool goes_on(const struct ct_block_op *a, const struct ct_block_op *b, bool dry)
{
	return b->before.id == a->before.id + 1 && a->node == b->node && a->owner == b->owner &&
	       a->action == b->action && a->result == b->result && a->err == b->err &&
	       same_block(&a->before, &b->before) && (dry || same_block(&a->after, &b->after)) &&
	       !strcmp(ct_blocks_note_of(a), ct_blocks_note_of(b));
}

/* the ranges of r's plan (split: one a block); -ENOMEM */
static int ranges_make(struct ranges *g, const struct ct_blocks_change_report *r, bool split)
{
	const struct ct_blocks_plan *p = &r->plan;

	*g = (struct ranges){ r, malloc((p->n ? p->n : 1) * sizeof(size_t)), 0 };
	if (!g->first)
		return -ENOMEM;
	for (size_t i = 0; i < p->n; i++)
		if (!i || split || !goes_on(&p->op[i - 1], &p->op[i], r->dry_run))
			g->first[g->n++] = i;
	return 0;
}

/* the state a block is in after (a dry run: would be), and its zone */
static enum ct_block_state state_after(const struct ct_block_op *op, bool dry, const char **zone)
{
	const struct ct_block *b = dry ? &op->before : &op->after;

	*zone = b->state == CT_BLOCK_ONLINE && b->nzones ? ct_zone_name(b->zones[0]) : "";
	if (!dry)
		return b->state;
	switch (op->action) {
	case CT_ACT_ONLINE_MOVABLE:
	case CT_ACT_REONLINE:
		*zone = ct_zone_name(CT_ZONE_MOVABLE);
		return CT_BLOCK_ONLINE;
	case CT_ACT_ONLINE_KERNEL:
		*zone = ct_zone_name(CT_ZONE_NORMAL);
		return CT_BLOCK_ONLINE;
	case CT_ACT_OFFLINE:
		*zone = "";
		return CT_BLOCK_OFFLINE;
	default:
		return b->state;
	}
}

/* one range as a record of the table: the keys of its first block's
 * (op_json), and what the range adds */
static json_object *range_row(void *ctx, size_t i)
{
	const struct ranges *g = ctx;
	const struct ct_blocks_change_report *r = g->r;
	size_t first = g->first[i], end = i + 1 < g->n ? g->first[i + 1] : r->plan.n;
	const struct ct_block_op *op = &r->plan.op[first];
	uint64_t a = op->before.id, z = r->plan.op[end - 1].before.id, bs = r->block_size;
	json_object *o = op_json(op, r->dry_run);
	const char *zone, *from = ct_block_state_name(op->before.state);
	const char *to = ct_block_state_name(state_after(op, r->dry_run, &zone));
	char text[64];

	if (a == z)
		snprintf(text, sizeof(text), "%llu", (unsigned long long)a);
	else
		snprintf(text, sizeof(text), "%llu-%llu", (unsigned long long)a, (unsigned long long)z);
	jb_str(o, "blocks", text);
	if (bs) {
		snprintf(text, sizeof(text), "0x%llx-0x%llx", (unsigned long long)(a * bs),
			 (unsigned long long)((z + 1) * bs - 1));
		jb_str(o, "range", text);
		jb_u64(o, "size", (z - a + 1) * bs);
	}
	snprintf(text, sizeof(text), "%s%s%s", from, strcmp(from, to) ? "->" : "", strcmp(from, to) ? to : "");
	jb_str(o, "change", text);
	jb_str(o, "zone", zone);
	return o;
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

int blocks_table_print(const struct out_opts *out, const struct ct_blocks_change_report *r, bool split,
		       json_object *recovered, char *err, size_t errlen)
{
	json_object *root = json_object_new_object();
	struct ranges g;
	int rc;

	jb_arr(root, "blocks");	/* its records are made as they are printed */
	memdevs_json(root, &r->memdevs);
	if (recovered)
		json_object_object_add(root, "recovered", recovered);
	new_regions_json(root, r);
	if (out->json) {
		rc = out_print_rows(out, &blocks_table, root, "blocks", r->plan.n, op_row, (void *)r, err, errlen);
	} else if (!(rc = ranges_make(&g, r, split))) {
		rc = out_print_rows(out, &blocks_table, root, "blocks", g.n, range_row, &g, err, errlen);
		free(g.first);
	} else {
		snprintf(err, errlen, "out of memory");
	}
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
