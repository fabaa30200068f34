// SPDX-License-Identifier: GPL-2.0-only
/* list-summary.c - `list --summary`: every memory block of the system by
 * node, online/offline and movable/normal, and how much is CXL memory; as
 * lsmem's summary, per node */
#include <errno.h>
#include <stdio.h>
#include "cli/json-build.h"
#include "list-summary.h"
#include "core/context.h"
#include "views/mem-summary.h"

static const char *const levels[] = { "rows", NULL };
static const struct out_column columns[] = {
	{ "NODE", "node_name", OUT_STR, 0.1, 0, "NUMA node (total: every block)", NULL },
	{ "BLOCKS", "blocks", OUT_NUM, 0.1, 0, "memory blocks", NULL },
	{ "ONLINE", "online_size", OUT_SIZE, 0.1, 0, "memory online", NULL },
	{ "OFFLINE", "offline_size", OUT_SIZE, 0.1, 0, "memory offline", NULL },
	{ "MOVABLE", "movable_size", OUT_SIZE, 0.1, 0, "online in ZONE_MOVABLE", NULL },
	{ "NORMAL", "normal_size", OUT_SIZE, 0.1, 0, "online in ZONE_NORMAL", NULL },
	{ "OTHER", "other_zone_size", OUT_SIZE, 0.1, 0, "online in another zone (DMA32...)", NULL },
	{ "CXL", "cxl_size", OUT_SIZE, 0.1, 0, "of it, CXL memory (blocks of CXL dax devices)", NULL },
	{ "CXL-ONLINE", "cxl_online_size", OUT_SIZE, 0.1, 0, "CXL memory online", NULL },
};
static const struct out_table table = {
	levels, NULL, columns, sizeof(columns) / sizeof(columns[0]),
	"NODE,BLOCKS,ONLINE,OFFLINE,MOVABLE,NORMAL,OTHER,CXL,CXL-ONLINE",
};

static json_object *counts(const struct ct_node_blocks *n, uint64_t bs, const struct topology_style *st)
{
	json_object *o = json_object_new_object();

	if (n->node >= 0)
		jb_int(o, "node", n->node);
	jb_int(o, "blocks", n->blocks);
	jb_int(o, "online_blocks", n->online);
	jb_int(o, "offline_blocks", n->offline);
	topology_add_size(o, "online_size", (uint64_t)n->online * bs, st);
	topology_add_size(o, "offline_size", (uint64_t)n->offline * bs, st);
	topology_add_size(o, "movable_size", (uint64_t)n->movable * bs, st);
	topology_add_size(o, "normal_size", (uint64_t)n->normal * bs, st);
	topology_add_size(o, "other_zone_size", (uint64_t)n->other_zone * bs, st);
	topology_add_size(o, "cxl_size", (uint64_t)n->cxl * bs, st);
	topology_add_size(o, "cxl_online_size", (uint64_t)n->cxl_online * bs, st);
	return o;
}

/* the table: one row per node, then the total (the JSON keeps them apart) */
static json_object *rows(const struct ct_mem_summary *s)
{
	struct topology_style plain = { 0, false };
	json_object *root = json_object_new_object(), *a = jb_arr(root, "rows"), *o;
	char name[16];

	for (size_t i = 0; i < s->nnodes; i++) {
		o = counts(&s->nodes[i], s->block_size, &plain);
		if (s->nodes[i].node >= 0)
			snprintf(name, sizeof(name), "node%d", s->nodes[i].node);
		else
			snprintf(name, sizeof(name), "-");
		jb_str(o, "node_name", name);
		json_object_array_add(a, o);
	}
	o = counts(&s->total, s->block_size, &plain);
	jb_str(o, "node_name", "total");
	json_object_array_add(a, o);
	return root;
}

int list_summary(struct cmd_env *env, const struct ct_topology *t, const struct topology_style *st)
{
	struct ct_mem_summary s;
	json_object *root, *o;
	char err[256], bs[32];
	int rc = EXIT_OK;

	if (ct_mem_summary_load(env->ctx, t, &s)) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		return env->ctx->err.code == EOPNOTSUPP ? EXIT_UNSUPPORTED : EXIT_FAIL;
	}
	if (env->out.json) {
		root = json_object_new_object();
		o = counts(&s.total, s.block_size, st);
		topology_add_size(o, "block_size", s.block_size, st);
		json_object_array_add(jb_arr(root, "summary"), o);
		o = jb_arr(root, "nodes");
		for (size_t i = 0; i < s.nnodes; i++)
			json_object_array_add(o, counts(&s.nodes[i], s.block_size, st));
	} else
		root = rows(&s);
	if (out_print(&env->out, &table, root, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		rc = EXIT_USAGE;
	} else if (!env->out.json && !env->out.noheadings)
		printf("\nMemory block size: %s\n", env->out.bytes ? (snprintf(bs, sizeof(bs), "%llu",
			(unsigned long long)s.block_size), bs) : out_human_size(s.block_size, bs, sizeof(bs)));
	json_object_put(root);
	ct_mem_summary_free(&s);
	return rc;
}
