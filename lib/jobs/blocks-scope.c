// SPDX-License-Identifier: GPL-2.0-only
/* blocks-scope.c - what an `online` / `offline` run touches beyond its
 * targets: the memdevs of interleaved regions, refused or reported */
#include <stdio.h>
#include <string.h>
#include "blocks-change.h"
#include "cli/json-build.h"
#include "core/context.h"
#include "change/interleave.h"

static const char *verb(const struct cmd_env *env)
{
	return !strcmp(env->cmd, "offline") ? "offlining" : "onlining";
}

/* "mem0, mem1" */
static void memdev_list(const struct ct_region *r, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < r->ntargets && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? ", " : "", r->memdevs[i][0] ? r->memdevs[i] : "?");
}

int scope_refuse_interleaved(struct cmd_env *env, const struct ct_topology *t, char **targets, int n, bool whole)
{
	for (int i = 0; i < n && !whole; i++) {
		const struct ct_region *r;
		char list[CT_MAX_TARGETS * (CT_NAME + 2)], all[32], each[32];

		if (strncmp(targets[i], "mem", 3) || !strncmp(targets[i], "memory", 6))
			continue;
		if (!(r = ct_interleave_region_of(t, targets[i])))
			continue;
		memdev_list(r, list, sizeof(list));
		cmd_err(env, "%s is one of the %u memdevs interleaved in %s (%s): %s %s takes the whole region, %s "
			"(%s of each device); give --whole-region to do that, or name %s", targets[i], r->ntargets,
			r->name, list, verb(env), targets[i], out_human_size(r->size - r->cache_size, all, sizeof(all)),
			out_human_size((r->size - r->cache_size) / r->ntargets, each, sizeof(each)), r->name);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* stderr: each region whose blocks span several memdevs, with each share */
static void say(const struct cmd_env *env, const struct ct_interleave_set *set)
{
	for (size_t i = 0; i < set->n; i += set->m[i].ways ? set->m[i].ways : 1) {
		const struct ct_interleave_touched *m = &set->m[i];
		char line[1024], hs[32];
		size_t off = 0;

		if (m->ways < 2)
			continue;
		off += snprintf(line, sizeof(line), "%s is interleaved over %u memdevs: its %u blocks here (%s) are",
				m->region, m->ways, m->blocks, out_human_size(m->size * m->ways, hs, sizeof(hs)));
		for (unsigned k = 0; k < m->ways && i + k < set->n && off < sizeof(line); k++)
			off += snprintf(line + off, sizeof(line) - off, "%s%s on %s", k ? (k + 1 == m->ways ? " and " : ", ") : " ",
					out_human_size(set->m[i + k].size, hs, sizeof(hs)),
					set->m[i + k].memdev[0] ? set->m[i + k].memdev : "?");
		fprintf(stderr, "cxltier %s: %s: %s them changes every one of these devices\n", env->cmd, line, verb(env));
	}
}

void scope_report(struct cmd_env *env, struct ct_topology *t, char **targets, int n, const struct ct_blocks_plan *plan,
		  json_object *root)
{
	struct ct_interleave_set set;
	json_object *arr = jb_arr(root, "memdevs");

	if (ct_interleave_touched(&env->ctx->sys, t, plan, targets, n, &set)) {
		ct_error_clear(&env->ctx->err);
		return;
	}
	for (size_t i = 0; i < set.n; i++) {
		const struct ct_interleave_touched *m = &set.m[i];
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
	say(env, &set);
	ct_interleave_touched_free(&set);
}
