// SPDX-License-Identifier: LGPL-2.1-or-later
/* blocks-plan.c - the plan of a change of memory blocks (blocks.h): the
 * blocks a target names, each read as it is, and the action that takes it
 * where it is wanted; blocks-execute.c carries the plan out */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "change/blocks.h"
#include "change/blocks-zone.h"


const char *ct_blocks_action_name(enum ct_blocks_action a)
{
	static const char *const n[] = { "none", "online_movable", "online_kernel", "offline", "reonline_movable", "refuse" };
	return a <= CT_ACT_REFUSE ? n[a] : "?";
}

const char *ct_blocks_result_name(enum ct_blocks_result r)
{
	static const char *const n[] = { "planned", "done", "unchanged", "failed", "raced", "refused", "rolled_back",
					 "interrupted", "rollback_failed", "half_done" };
	return r <= CT_RES_HALF_DONE ? n[r] : "?";
}

static int block_node(struct ct_sysfs *s, uint64_t id)
{
	char path[128], **names;
	size_t n;
	int node = -1;

	if (ct_sysfs_list(s, ct_path(path, sizeof(path), CT_MEMORY_DIR "/memory%llu", (unsigned long long)id), "node",
			  &names, &n))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (names[i][4] >= '0' && names[i][4] <= '9')
			node = atoi(names[i] + 4);
	ct_strv_free(names, n);
	return node;
}

/* the open-addressed set of planned ids: slot of id, or its empty slot */
static size_t id_slot(const uint64_t *ids, size_t cap, uint64_t id)
{
	size_t i = (size_t)((id * 0x9e3779b97f4a7c15ULL) >> 32) & (cap - 1);

	while (ids[i] && ids[i] != id + 1)
		i = (i + 1) & (cap - 1);
	return i;
}

static bool id_planned(const struct ct_blocks_plan *p, uint64_t id)
{
	return p->ids_cap && p->ids[id_slot(p->ids, p->ids_cap, id)];
}

/* the plan's copy of an owner's name (the blocks of one device come one
 * after another: the last is looked at first), or NULL without memory */
static const char *owner_kept(struct ct_blocks_plan *p, const char *owner)
{
	char **v;

	for (size_t i = p->nowners; i-- > 0;)
		if (!strcmp(p->owners[i], owner))
			return p->owners[i];
	if (!(v = realloc(p->owners, (p->nowners + 1) * sizeof(*v))))
		return NULL;
	p->owners = v;
	if (!(v[p->nowners] = strdup(owner)))
		return NULL;
	return v[p->nowners++];
}

/* room for one more op and its id (the set at most half full) */
static int plan_grow(struct ct_sysfs *s, struct ct_blocks_plan *p)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 64;
		struct ct_block_op *op = realloc(p->op, cap * sizeof(*op));

		if (!op)
			return ct_fail(s->err, ENOMEM, "out of memory");
		p->op = op;
		p->cap = cap;
	}
	if (2 * (p->n + 1) > p->ids_cap) {
		size_t cap = p->ids_cap ? 2 * p->ids_cap : 128;
		uint64_t *ids = calloc(cap, sizeof(*ids));

		if (!ids)
			return ct_fail(s->err, ENOMEM, "out of memory");
		for (size_t i = 0; i < p->n; i++)
			ids[id_slot(ids, cap, p->op[i].before.id)] = p->op[i].before.id + 1;
		free(p->ids);
		p->ids = ids;
		p->ids_cap = cap;
	}
	return 0;
}

int ct_blocks_plan_add(struct ct_sysfs *s, struct ct_blocks_plan *p, uint64_t id, const char *owner, int node)
{
	struct ct_block_op *op;
	int rc;

	if (id_planned(p, id))
		return 0;
	if ((rc = plan_grow(s, p)))
		return rc;
	op = &p->op[p->n];
	memset(op, 0, sizeof(*op));
	rc = ct_block_read_state(s, id, &op->before);
	if (!rc && (op->before.state != CT_BLOCK_OFFLINE || p->all_zones))
		ct_block_read_zones(s, &op->before);
	if (rc == -ENOENT)
		return ct_fail(s->err, ENOENT, "memory block memory%llu does not exist (not hot-added, or not memory)",
			       (unsigned long long)id);
	if (rc)
		return rc;
	op->node = node >= 0 ? node : block_node(s, id);
	ct_error_clear(s->err);
	op->owner = "";
	if (owner && owner[0] && !(op->owner = owner_kept(p, owner)))
		return ct_fail(s->err, ENOMEM, "out of memory");
	op->after = op->before;
	p->ids[id_slot(p->ids, p->ids_cap, id)] = id + 1;
	p->n++;
	return 0;
}

void ct_blocks_plan_decide(struct ct_blocks_plan *p, enum ct_blocks_want want, bool reonline)
{
	for (size_t i = 0; i < p->n; i++) {
		struct ct_block_op *op = &p->op[i];
		const struct ct_block *b = &op->before;
		enum ct_zone z = blocks_zone_online(b);

		ct_blocks_note(op, NULL);
		op->result = CT_RES_PLANNED;
		if (b->state == CT_BLOCK_GOING_OFFLINE || b->state == CT_BLOCK_UNKNOWN) {
			op->action = CT_ACT_REFUSE;
			ct_blocks_note(op, "in state %s: try again later", ct_block_state_name(b->state));
			continue;
		}
		switch (want) {
		case CT_WANT_OFFLINE:
			op->action = b->state == CT_BLOCK_OFFLINE ? CT_ACT_NONE : CT_ACT_OFFLINE;
			if (op->action == CT_ACT_OFFLINE && b->nzones == 1 && b->zones[0] == CT_ZONE_NONE) {
				op->action = CT_ACT_REFUSE;
				ct_blocks_note(op, "spans several zones (valid_zones: none): the kernel cannot offline it");
			}
			break;
		case CT_WANT_KERNEL:
			if (b->state == CT_BLOCK_ONLINE && z == CT_ZONE_MOVABLE) {
				/* not as asked: refused, as a Normal block is for movable */
				op->action = CT_ACT_REFUSE;
				ct_blocks_note(op,
					 "online in ZONE_MOVABLE, not normal: offline it first to change the zone");
			} else if (b->state == CT_BLOCK_ONLINE) {
				op->action = CT_ACT_NONE;
			} else {
				op->action = CT_ACT_ONLINE_KERNEL;
			}
			break;
		case CT_WANT_MOVABLE:
			if (b->state == CT_BLOCK_OFFLINE) {
				if (b->nzones && !blocks_zone_offered(b, CT_ZONE_MOVABLE)) {
					op->action = CT_ACT_REFUSE;
					ct_blocks_note(op, "the kernel does not offer ZONE_MOVABLE for it (valid_zones: %s)",
						 ct_zone_name(b->zones[0]));
				} else {
					op->action = CT_ACT_ONLINE_MOVABLE;
				}
			} else if (z == CT_ZONE_MOVABLE) {
				op->action = CT_ACT_NONE;
			} else if (reonline || op->reonline) {
				op->action = CT_ACT_REONLINE;
			} else {
				op->action = CT_ACT_REFUSE;
				ct_blocks_note(op,
					 "online in ZONE_%s, not movable: it cannot be moved without offlining (--reonline does that)",
					 z == CT_ZONE_NONE ? "NONE" : z == CT_ZONE_NORMAL ? "NORMAL" : ct_zone_name(z));
			}
			break;
		}
	}
}

void ct_blocks_plan_free(struct ct_blocks_plan *p)
{
	for (size_t i = 0; i < p->n; i++)
		ct_blocks_note(&p->op[i], NULL);
	free(p->op);
	free(p->ids);
	ct_strv_free(p->owners, p->nowners);
	p->op = NULL;
	p->ids = NULL;
	p->owners = NULL;
	p->n = p->cap = p->ids_cap = p->nowners = 0;
}

void ct_blocks_note(struct ct_block_op *op, const char *fmt, ...)
{
	static char no_room[] = "(out of memory for the note)";
	char *note = NULL;
	va_list ap;

	if (op->heap_note != no_room)
		free(op->heap_note);
	op->heap_note = NULL;
	if (!fmt)
		return;
	va_start(ap, fmt);
	if (vasprintf(&note, fmt, ap) < 0)
		note = no_room;
	va_end(ap);
	op->heap_note = note;
}

/* ---- targets ---- */

static int add_dax(struct ct_sysfs *s, uint64_t bs, struct ct_blocks_plan *p, const struct ct_dax *d,
		   const struct ct_dax **devdax)
{
	struct ct_block_walk w;
	uint64_t first, id;
	unsigned count;
	int rc;

	if (!strcmp(d->mode, "famfs"))	/* (no *devdax: --convert must not take it) */
		return ct_fail(s->err, EMEDIUMTYPE, "%s holds a famfs file system (bound to fsdev_dax): its memory is "
			       "never onlined or converted by cxltier", d->name);
	if (strcmp(d->mode, "system-ram")) {
		if (devdax)
			*devdax = d;
		return ct_fail(s->err, EMEDIUMTYPE, "%s is in %s mode, not system-ram: its memory is not hot-plugged "
			       "(--convert switches it to system-ram)", d->name, d->mode);
	}
	if ((rc = ct_block_range_checked(s, d->name, d->resource, d->size, bs, &first, &count)) ||
	    (rc = ct_block_walk_begin(s, first, count, &w)))
		return rc;
	while (ct_block_walk_next(&w, &id)) {
		rc = ct_blocks_plan_add(s, p, id, d->name, d->target_node);
		if (rc == -ENOENT) {	/* kmem skips what it could not add */
			ct_error_clear(s->err);
			rc = 0;
		}
		if (rc)
			break;
	}
	ct_block_walk_end(&w);
	return rc;
}

/* every dax device of a region: the blocks of each system-ram one are
 * planned, whatever comes before it; a device in another mode stops none
 * of them (one of each mode can share a region: daxctl create-device) and
 * is reported at the end (-EMEDIUMTYPE, the first one in *devdax) */
static int add_region(struct ct_sysfs *s, uint64_t bs, struct ct_blocks_plan *p, const struct ct_region *r,
		      const struct ct_dax **devdax)
{
	const struct ct_dax *first = NULL;
	int rc = 0;

	for (size_t j = 0; j < r->ndax && !rc; j++) {
		if (strcmp(r->dax[j].mode, "system-ram")) {
			if (!first)
				first = &r->dax[j];
			continue;
		}
		rc = add_dax(s, bs, p, &r->dax[j], NULL);
	}
	if (rc || !first)
		return rc;
	return add_dax(s, bs, p, first, devdax && !*devdax ? devdax : NULL);	/* its message, *devdax */
}

static const struct ct_dax *find_dax_of_block(const struct ct_topology *t, uint64_t id, uint64_t bs)
{
	for (size_t i = 0; i < t->nregions; i++)
		for (size_t j = 0; j < t->regions[i].ndax; j++) {
			const struct ct_dax *d = &t->regions[i].dax[j];
			uint64_t first;
			unsigned count;
			ct_block_range(d->resource, d->size, bs, &first, &count);
			if (id >= first && id < first + count)
				return d;
		}
	return NULL;
}

int ct_blocks_plan_add_target(struct ct_sysfs *s, const struct ct_topology *t, struct ct_blocks_plan *p,
		       const char *target, const struct ct_dax **devdax)
{
	uint64_t bs = t->block_size;
	bool found = false;
	char *end, first_msg[256];
	unsigned medium = 0;
	int rc = 0;

	if (!bs && (rc = ct_block_size(s, &bs)))
		return rc;
	if (!strcmp(target, "all")) {
		for (size_t i = 0; i < t->nregions && !rc; i++)
			for (size_t j = 0; j < t->regions[i].ndax && !rc; j++)
				if (!strcmp(t->regions[i].dax[j].mode, "system-ram"))
					rc = add_dax(s, bs, p, &t->regions[i].dax[j], devdax);
		return rc;
	}
	if (!strncmp(target, "dax", 3)) {
		for (size_t i = 0; i < t->nregions; i++)
			for (size_t j = 0; j < t->regions[i].ndax; j++)
				if (!strcmp(t->regions[i].dax[j].name, target))
					return add_dax(s, bs, p, &t->regions[i].dax[j], devdax);
		return ct_fail(s->err, ENOENT, "no CXL dax device '%s' (see 'cxltier list')", target);
	}
	if (!strncmp(target, "region", 6)) {
		for (size_t i = 0; i < t->nregions && !rc; i++) {
			if (strcmp(t->regions[i].name, target))
				continue;
			found = true;
			if (!t->regions[i].ndax)
				return ct_fail(s->err, ENOENT, "%s has no dax device: is dax_cxl loaded and the region a RAM region?",
					       target);
			rc = add_region(s, bs, p, &t->regions[i], devdax);
		}
		return found ? rc : ct_fail(s->err, ENOENT, "no region '%s' (see 'cxltier list')", target);
	}
	if (!strncmp(target, "mem", 3) && strncmp(target, "memory", 6)) {
		if (!ct_topology_memdev(t, target))
			return ct_fail(s->err, ENOENT, "no memdev '%s' (see 'cxltier list')", target);
		for (size_t i = 0; i < t->nregions && !rc; i++) {
			if (!ct_region_has_memdev(&t->regions[i], target))
				continue;
			found = true;
			if (!t->regions[i].ndax)	/* as for the region itself */
				return ct_fail(s->err, ENOENT, "%s: %s has no dax device: is dax_cxl loaded and the region a RAM "
					       "region?", target, t->regions[i].name);
			if ((rc = add_region(s, bs, p, &t->regions[i], devdax)) == -EMEDIUMTYPE) {
				if (!medium)
					ct_strlcpy(first_msg, s->err->msg, sizeof(first_msg));
				medium++;
				rc = 0;
			}
		}
		if (!rc && medium)
			rc = ct_fail(s->err, EMEDIUMTYPE, "%s", first_msg);
		return found ? rc : ct_fail(s->err, ENOENT, "%s is in no region: create one first (cxl create-region)", target);
	}
	if (!strncmp(target, "node", 4)) {
		char path[64], **names;
		size_t n;
		long node = strtol(target + 4, &end, 10);
		if (end == target + 4 || *end)
			return ct_fail(s->err, EINVAL, "'%s' is not a node name (node1)", target);
		rc = ct_sysfs_list(s, ct_path(path, sizeof(path), "/sys/devices/system/node/node%ld", node), "memory",
				   &names, &n);
		if (rc)
			return ct_fail(s->err, ENOENT, "no NUMA node %ld", node);
		for (size_t i = 0; i < n && !rc; i++) {
			const struct ct_dax *d;
			uint64_t id;
			if (names[i][6] < '0' || names[i][6] > '9')
				continue;
			id = strtoull(names[i] + 6, NULL, 10);
			d = find_dax_of_block(t, id, bs);
			rc = ct_blocks_plan_add(s, p, id, d ? d->name : NULL, (int)node);
		}
		ct_strv_free(names, n);
		return rc;
	}
	if (!strncmp(target, "memory", 6)) {
		unsigned long long a = strtoull(target + 6, &end, 10), b = a;
		if (end == target + 6)
			return ct_fail(s->err, EINVAL, "'%s' is not a block name (memory34, memory34-41)", target);
		if (*end == '-')
			b = strtoull(end + 1, &end, 10);
		if (*end || b < a || b - a > 1u << 20)
			return ct_fail(s->err, EINVAL, "'%s' is not a block name or range (memory34, memory34-41)", target);
		for (unsigned long long id = a; id <= b && !rc; id++) {
			const struct ct_dax *d = find_dax_of_block(t, id, bs);
			rc = ct_blocks_plan_add(s, p, id, d ? d->name : NULL, d ? d->target_node : -1);
		}
		return rc;
	}
	return ct_fail(s->err, EINVAL, "'%s' is not a target: give daxX.Y, regionN, memN, nodeN, memoryN[-M] or all", target);
}
