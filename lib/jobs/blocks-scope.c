// SPDX-License-Identifier: LGPL-2.1-or-later
/* blocks-scope.c - what a change of memory blocks touches beyond its
 * targets: the memdevs of interleaved regions, refused or named
 * (blocks-scope.h) */
#include <stdio.h>
#include <string.h>
#include "jobs/blocks-scope.h"
#include "core/context.h"
#include "core/say.h"
#include "core/units.h"

static const char *verb(enum ct_blocks_want want)
{
	return want == CT_WANT_OFFLINE ? "offlining" : "onlining";
}

/* "mem0, mem1" */
static void memdev_list(const struct ct_region *r, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < r->ntargets && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? ", " : "", r->memdevs[i][0] ? r->memdevs[i] : "?");
}

enum ct_job_end blocks_scope_refuse(struct ct_context *ctx, const struct ct_topology *t, char *const *targets,
				       int n, bool whole, enum ct_blocks_want want)
{
	for (int i = 0; i < n && !whole; i++) {
		const struct ct_region *r;
		char list[CT_MAX_TARGETS * (CT_NAME + 2)], all[32], each[32];

		if (strncmp(targets[i], "mem", 3) || !strncmp(targets[i], "memory", 6))
			continue;
		if (!(r = ct_interleave_region_of(t, targets[i])))
			continue;
		memdev_list(r, list, sizeof(list));
		ct_say(&ctx->say, CT_SAY_ERROR, "%s is one of the %u memdevs interleaved in %s (%s): %s %s takes the "
		       "whole region, %s (%s of each device); give --whole-region to do that, or name %s", targets[i],
		       r->ntargets, r->name, list, verb(want), targets[i],
		       ct_size_text(r->size - r->cache_size, all, sizeof(all)),
		       ct_size_text((r->size - r->cache_size) / r->ntargets, each, sizeof(each)), r->name);
		return CT_JOB_BAD_INPUT;
	}
	return CT_JOB_DONE;
}

/* each region whose blocks span several memdevs, with each share */
static void say(struct ct_context *ctx, const struct ct_interleave_set *set, enum ct_blocks_want want)
{
	for (size_t i = 0; i < set->n; i += set->m[i].ways ? set->m[i].ways : 1) {
		const struct ct_interleave_touched *m = &set->m[i];
		char line[1024], hs[32];
		size_t off = 0;

		if (m->ways < 2)
			continue;
		off += snprintf(line, sizeof(line), "%s is interleaved over %u memdevs: its %u blocks here (%s) are",
				m->region, m->ways, m->blocks, ct_size_text(m->size * m->ways, hs, sizeof(hs)));
		for (unsigned k = 0; k < m->ways && i + k < set->n && off < sizeof(line); k++)
			off += snprintf(line + off, sizeof(line) - off, "%s%s on %s", k ? (k + 1 == m->ways ? " and " : ", ") : " ",
					ct_size_text(set->m[i + k].size, hs, sizeof(hs)),
					set->m[i + k].memdev[0] ? set->m[i + k].memdev : "?");
		ct_say(&ctx->say, 0, "%s: %s them changes every one of these devices", line, verb(want));
	}
}

void blocks_scope_touched(struct ct_context *ctx, struct ct_topology *t, char *const *targets, int n,
			  const struct ct_blocks_plan *plan, enum ct_blocks_want want, struct ct_interleave_set *set)
{
	if (ct_interleave_touched(&ctx->sys, t, plan, targets, n, set)) {
		ct_error_clear(&ctx->err);
		*set = (struct ct_interleave_set){ NULL, 0 };
		return;
	}
	say(ctx, set, want);
}
