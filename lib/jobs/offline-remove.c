// SPDX-License-Identifier: LGPL-2.1-or-later
/* offline-remove.c - every block of the regions a memdev backs offline, the
 * regions destroyed, the memdev disabled; whether the card may now be
 * pulled; who pins what stays (offline-remove.h) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jobs/offline-remove.h"
#include "jobs/blocks-scope.h"
#include "jobs/job-session.h"
#include "core/context.h"
#include "core/say.h"
#include "core/units.h"
#include "change/region.h"

#define MAX_PINNERS 8

/* the processes with pages on one node */
struct ct_remove_pinners {
	int node;
	struct ct_pinner *p;
	size_t n, total;
};

/* one run */
struct removal {
	struct ct_context *ctx;
	const struct ct_offline_remove_opts *o;
	struct ct_blocks_opts eo;
	struct ct_offline_remove_report *r;
	unsigned progress, failed;	/* steps done, objects left undone */
};

static bool stopped(const struct removal *rm)
{
	return rm->eo.stop && *rm->eo.stop;
}

/* each node's pinners, looked for once in the run: the same answer for
 * every block of the node, and a walk of every process's numa_maps each
 * time cost minutes on a large device */
static const struct ct_remove_pinners *pinners_of(struct removal *rm, int node)
{
	struct ct_offline_remove_report *r = rm->r;
	struct ct_remove_pinners *np, *pc;

	for (size_t i = 0; i < r->npinners; i++)
		if (r->pinners[i].node == node)
			return &r->pinners[i];
	if (!(np = realloc(r->pinners, (r->npinners + 1) * sizeof(*np))))
		return NULL;
	r->pinners = np;
	pc = &np[r->npinners++];
	*pc = (struct ct_remove_pinners){ node, NULL, 0, 0 };
	if (ct_memdev_remove_pinners(rm->ctx, node, MAX_PINNERS, &pc->p, &pc->n, &pc->total))
		ct_error_clear(&rm->ctx->err);
	return pc;
}

/* "123 (comm, 12M), 456 (comm, 1G) and 3 more" */
static void pinners_text(const struct ct_busy_block *b, char *line, size_t len)
{
	size_t off = 0;
	char hs[32];

	line[0] = '\0';
	for (size_t i = 0; i < b->npinners && off < len; i++)
		off += snprintf(line + off, len - off, "%s%d (%s, %s)", i ? ", " : "", b->pinners[i].pid,
				b->pinners[i].comm, ct_size_text(b->pinners[i].bytes, hs, sizeof(hs)));
	if (b->total > b->npinners && off < len)
		snprintf(line + off, len - off, " and %zu more", b->total - b->npinners);
}

/* one block that stays online: said, and kept with the processes that
 * have pages on its node */
static void busy_block(struct removal *rm, const struct ct_region *reg, const struct ct_block_op *op)
{
	struct ct_offline_remove_report *r = rm->r;
	struct ct_busy_block *v = realloc(r->busy, (r->nbusy + 1) * sizeof(*v)), *b;
	const struct ct_remove_pinners *pc;
	char line[768];

	if (!v)
		return;
	r->busy = v;
	b = &v[r->nbusy++];
	*b = (struct ct_busy_block){ .id = op->before.id, .node = op->node, .result = op->result, .err = op->err };
	ct_strlcpy(b->region, reg->name, sizeof(b->region));
	b->note = strdup(ct_blocks_note_of(op));
	if ((pc = pinners_of(rm, op->node))) {
		b->pinners = pc->p;
		b->npinners = pc->n;
		b->total = pc->total;
	}
	pinners_text(b, line, sizeof(line));
	ct_say(&rm->ctx->say, CT_SAY_ERROR, "memory%llu (%s, node %d) stays online: %s%s%s; %s%s",
	       (unsigned long long)op->before.id, reg->name, op->node, ct_blocks_result_name(op->result),
	       ct_blocks_note_of(op)[0] ? ": " : "", ct_blocks_note_of(op),
	       b->npinners ? "processes with pages on that node: " : "no process has pages on that node (kernel "
	       "allocations pin it)", line);
}

/* every block of reg offline (no rollback: each busy block is named, the
 * others stay offline and a second run goes on from there); 0 when all
 * are, -EINTR when a signal stopped it (the blocks not tried are not
 * named), -EBUSY when some stay online */
static int offline_region(struct removal *rm, struct ct_topology *t, const struct ct_region *reg)
{
	struct ct_context *ctx = rm->ctx;
	struct ct_blocks_opts eo = rm->eo;
	struct ct_blocks_plan p = { 0 };
	const struct ct_dax *devdax = NULL;
	int rc = ct_blocks_plan_add_target(&ctx->sys, t, &p, reg->name, &devdax), bad = 0, stop = 0;

	if (rc == -EMEDIUMTYPE || rc == -ENOENT) {	/* devdax, or no dax device: no blocks */
		ct_error_clear(&ctx->err);
		rc = 0;
	}
	if (rc) {
		ct_say(&ctx->say, CT_SAY_ERROR, "%s", ct_context_message(ctx));
		ct_blocks_plan_free(&p);
		return rc;
	}
	eo.rollback = false;
	ct_blocks_plan_decide(&p, CT_WANT_OFFLINE, false);
	ct_blocks_execute(&ctx->sys, &p, &eo);
	for (size_t i = 0; i < p.n; i++) {
		const struct ct_block_op *op = &p.op[i];
		if (op->result == CT_RES_DONE)
			rm->progress++;
		else if (op->result == CT_RES_INTERRUPTED)
			stop++;
		else if (op->result != CT_RES_UNCHANGED) {
			busy_block(rm, reg, op);
			bad++;
		}
	}
	if (stop)
		ct_say(&ctx->say, CT_SAY_ERROR, "%s: stopped by a signal: %d block%s not offlined; the region is left in "
		       "place", reg->name, stop, stop == 1 ? "" : "s");
	if (bad)
		ct_say(&ctx->say, CT_SAY_ERROR, "%s: %d block%s stay%s online: the region is left in place; the blocks "
		       "that went offline stay offline ('cxltier online %s' puts them back)", reg->name, bad,
		       bad == 1 ? "" : "s", bad == 1 ? "s" : "", reg->name);
	ct_blocks_plan_free(&p);
	return stop ? -EINTR : bad ? -EBUSY : 0;
}

/* the number of memdev's endpoint decoder in r (decoderP.N: N), -1 none:
 * the kernel hands out an endpoint's capacity in decoder order and takes
 * it back only from the last one */
static long decoder_of(const struct ct_region *r, const char *memdev)
{
	for (unsigned k = 0; k < r->ntargets; k++) {
		const char *dot = strrchr(r->targets[k], '.');
		if (!strcmp(r->memdevs[k], memdev) && dot)
			return strtol(dot + 1, NULL, 10);
	}
	return -1;
}

/* the regions of memdev, last allocated first (the order in which they can
 * be destroyed); *n of them, in a malloc'd array (NULL when none) */
static const struct ct_region **regions_of(const struct ct_topology *t, const char *memdev, size_t *n)
{
	const struct ct_region **v = calloc(t->nregions ? t->nregions : 1, sizeof(*v));

	*n = 0;
	for (size_t i = 0; v && i < t->nregions; i++) {
		const struct ct_region *r = &t->regions[i];
		size_t k;
		if (!ct_region_has_memdev(r, memdev))
			continue;
		for (k = (*n)++; k > 0 && decoder_of(v[k - 1], memdev) < decoder_of(r, memdev); k--)
			v[k] = v[k - 1];
		v[k] = r;
	}
	return v;
}

/* the first region whose dax device is another driver's (famfs), said, into
 * foreign; "" none. Such a region is never taken away: then none of the
 * card's regions is, dry run or not (the card could not be removed anyway,
 * and the others' memory would be gone) */
static void find_foreign(struct removal *rm, const struct ct_region **order, size_t nr, char *foreign, size_t len)
{
	foreign[0] = '\0';
	for (size_t i = 0; i < nr && !foreign[0]; i++)
		if (ct_region_check_dax_owned(rm->ctx, order[i])) {
			ct_strlcpy(foreign, order[i]->name, len);
			ct_say(&rm->ctx->say, CT_SAY_ERROR, "%s", ct_context_message(rm->ctx));
			ct_error_clear(&rm->ctx->err);
		}
}

/* a region entry of m: its name and the other memdevs of its set (each said) */
static struct ct_remove_region *add_region(struct removal *rm, struct ct_remove_memdev *m, const struct ct_region *reg)
{
	struct ct_remove_region *v = realloc(m->regions, (m->nregions + 1) * sizeof(*v)), *e;

	if (!v)
		return NULL;
	m->regions = v;
	e = &v[m->nregions++];
	memset(e, 0, sizeof(*e));
	ct_strlcpy(e->name, reg->name, sizeof(e->name));
	for (unsigned k = 0; k < reg->ntargets; k++)
		if (strcmp(reg->memdevs[k], m->name)) {
			ct_strlcpy(e->with[e->nwith++], reg->memdevs[k], CT_NAME);
			ct_say(&rm->ctx->say, 0, "%s also spans %s: its memory on %s goes too (%s stays enabled)",
			       reg->name, reg->memdevs[k], reg->memdevs[k], reg->memdevs[k]);
		}
	return e;
}

/* the context's message said (with suffix) and kept as e's error */
static const char *region_failed(struct removal *rm, struct ct_remove_region *e, const char *suffix)
{
	ct_say(&rm->ctx->say, CT_SAY_ERROR, "%s%s", ct_context_message(rm->ctx), suffix);
	ct_strlcpy(e->error, ct_context_message(rm->ctx), sizeof(e->error));
	ct_error_clear(&rm->ctx->err);
	return "failed";
}

/* one region taken apart: checked before its memory goes offline, its
 * memory offlined, destroyed; its state */
static const char *take_apart(struct removal *rm, struct ct_topology *t, const struct ct_region *reg,
			      struct ct_remove_region *e)
{
	struct ct_region_teardown td;
	int rc;

	if (stopped(rm)) {
		ct_say(&rm->ctx->say, CT_SAY_ERROR, "%s: not taken apart: stopped by a signal", reg->name);
		return "interrupted";
	}
	if (ct_region_plan_destroy(rm->ctx, t, reg->name, &td))
		return region_failed(rm, e, "; none of its memory was offlined");	/* refused before any went offline */
	if ((rc = offline_region(rm, t, reg)))
		return rc == -EINTR ? "interrupted" : "busy";
	if (stopped(rm)) {
		ct_say(&rm->ctx->say, CT_SAY_ERROR, "%s: its memory is offline, the region left in place: stopped by a "
		       "signal", reg->name);
		return "interrupted";
	}
	td.tell = (struct ct_region_tell){ rm->o->progress.step, rm->o->progress.arg };
	if (ct_region_destroy(rm->ctx, t, &td, &rm->eo))
		return region_failed(rm, e, "");
	rm->progress++;
	return "destroyed";
}

/* a region of m not taken apart, because another (foreign) is not cxltier's */
static void left_for_foreign(struct removal *rm, const struct ct_region *reg, const char *foreign, const char *memdev,
			     struct ct_remove_region *e)
{
	if (ct_region_check_dax_owned(rm->ctx, reg))
		ct_strlcpy(e->error, ct_context_message(rm->ctx), sizeof(e->error));
	else
		snprintf(e->error, sizeof(e->error), "not taken apart: %s of %s is not cxltier's to take away", foreign,
			 memdev);
	ct_error_clear(&rm->ctx->err);
	e->state = "failed";
}

/* m disabled once every region is gone: true when the card may be removed */
static bool disable(struct removal *rm, const struct ct_memdev *m, struct ct_remove_memdev *e, bool all,
		    size_t busy_before)
{
	bool was = false;

	if (all && ct_memdev_remove_disable(rm->ctx, m->name, &was)) {
		ct_say(&rm->ctx->say, CT_SAY_ERROR, "%s", ct_context_message(rm->ctx));
		all = false;
	} else if (all && !was)
		rm->progress++;
	e->judged = true;
	e->disabled = e->safe_to_remove = all;
	if (all)
		ct_say(&rm->ctx->say, 0, "%s: no region left, %s: safe to remove the card (%s)", m->name,
		       was ? "was disabled already" : "disabled", m->host[0] ? m->host : "its PCI device");
	else {
		ct_say(&rm->ctx->say, CT_SAY_ERROR, "%s: NOT safe to remove: %s", m->name,
		       busy_before == rm->r->nbusy ? "a region or the memdev is left (see above)"
		       : "its memory is still in use (see above)");
		rm->failed++;
	}
	return all;
}

static struct ct_remove_memdev *add_memdev(struct removal *rm, const char *name)
{
	struct ct_offline_remove_report *r = rm->r;
	struct ct_remove_memdev *v = realloc(r->memdevs, (r->nmemdevs + 1) * sizeof(*v)), *e;

	if (!v)
		return NULL;
	r->memdevs = v;
	e = &v[r->nmemdevs++];
	memset(e, 0, sizeof(*e));
	ct_strlcpy(e->name, name, sizeof(e->name));
	return e;
}

/* the regions of one memdev destroyed (each checked before its memory goes
 * offline), the memdev disabled: true when the card may be removed */
static bool remove_one(struct removal *rm, struct ct_topology *t, const struct ct_memdev *m)
{
	struct ct_remove_memdev *e = add_memdev(rm, m->name);
	size_t busy_before = rm->r->nbusy, nr;
	const struct ct_region **order = regions_of(t, m->name, &nr);
	char foreign[CT_NAME] = "";	/* a region that is not cxltier's to take away */
	bool all = true;

	if (!order || !e) {
		ct_say(&rm->ctx->say, CT_SAY_ERROR, "out of memory");
		free(order);
		rm->failed++;
		return false;
	}
	find_foreign(rm, order, nr, foreign, sizeof(foreign));
	for (size_t i = 0; i < nr; i++) {
		struct ct_remove_region *reg = add_region(rm, e, order[i]);
		if (!reg)
			break;
		if (foreign[0])
			left_for_foreign(rm, order[i], foreign, m->name, reg);
		else
			reg->state = rm->o->dry_run ? "planned" : take_apart(rm, t, order[i], reg);
		all &= !strcmp(reg->state, "destroyed");
	}
	free(order);
	if (foreign[0]) {
		ct_say(&rm->ctx->say, CT_SAY_ERROR, "%s%s: %s is not cxltier's to take away (see above): NOT safe to "
		       "remove; nothing was changed", rm->o->dry_run ? "dry run: " : "", m->name, foreign);
		rm->failed++;
		return false;
	}
	if (rm->o->dry_run) {
		ct_say(&rm->ctx->say, 0, "dry run: %s: would offline and destroy %zu region%s, then disable it; nothing "
		       "was changed", m->name, e->nregions, e->nregions == 1 ? "" : "s");
		return false;
	}
	return disable(rm, m, e, all, busy_before);
}

/* each memdev in turn; CT_JOB_DONE, or the status of a run cut short */
static enum ct_job_end remove_each(struct removal *rm, struct job_session *js, struct ct_topology *t)
{
	const struct ct_offline_remove_opts *o = rm->o;

	for (int i = 0; i < o->n; i++) {
		const struct ct_memdev *m;
		if (!o->dry_run && stopped(rm)) {
			ct_say(&rm->ctx->say, CT_SAY_ERROR, "%s: not tried: stopped by a signal", o->memdevs[i]);
			rm->failed++;
			continue;
		}
		/* what an earlier memdev took away (a region of the same
		 * interleave set) is gone: read the topology again */
		if (i && !o->dry_run) {
			ct_topology_free(t);
			if (job_session_load(js, o->memdevs, o->n, true, t))
				return rm->progress ? CT_JOB_PARTIAL : CT_JOB_FAILED;
		}
		if (!(m = ct_topology_memdev(t, o->memdevs[i]))) {
			ct_say(&rm->ctx->say, CT_SAY_ERROR, "no memdev '%s' on this system (see 'cxltier list')",
			       o->memdevs[i]);
			rm->failed++;
			continue;
		}
		remove_one(rm, t, m);
	}
	return CT_JOB_DONE;
}

enum ct_job_end ct_offline_remove(struct ct_context *ctx, const struct ct_offline_remove_opts *o,
				     struct ct_offline_remove_report *r)
{
	struct removal rm = { ctx, o, job_exec_opts(&o->signals, &o->progress, false, o->timeout_s), r, 0, 0 };
	struct job_session js = JOB_SESSION_INIT;
	struct ct_topology t = { 0 };
	enum ct_job_end st;

	*r = (struct ct_offline_remove_report){ 0 };
	st = job_session_begin_load(&js, ctx, &rm.eo, o->timeout_s, o->dry_run, &r->recovered, o->memdevs, o->n, true,
				    &t);
	if (!st)
		st = blocks_scope_refuse(ctx, &t, o->memdevs, o->n, o->whole_region, CT_WANT_OFFLINE);
	if (!st && !(st = remove_each(&rm, &js, &t))) {
		r->shown = true;
		if (o->dry_run || !rm.failed)
			st = rm.failed ? CT_JOB_FAILED : CT_JOB_DONE;
		else
			st = rm.progress ? CT_JOB_PARTIAL : CT_JOB_FAILED;
	}
	job_session_end(&js);
	ct_topology_free(&t);
	return r->end = st;
}

void ct_offline_remove_report_free(struct ct_offline_remove_report *r)
{
	for (size_t i = 0; i < r->nmemdevs; i++)
		free(r->memdevs[i].regions);
	free(r->memdevs);
	for (size_t i = 0; i < r->nbusy; i++)
		free(r->busy[i].note);
	free(r->busy);
	for (size_t i = 0; i < r->npinners; i++)
		free(r->pinners[i].p);
	free(r->pinners);
	*r = (struct ct_offline_remove_report){ 0 };
}
