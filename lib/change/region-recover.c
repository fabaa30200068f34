// SPDX-License-Identifier: LGPL-2.1-or-later
/* region-recover.c - a region create or destroy (or a --reonline) that a
 * killed run left half done, found by its record (change-record.h) and
 * finished or undone by the next run (region.h: ct_region_recover) */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/context.h"
#include "core/rundir.h"
#include "change/change-record.h"
#include "change/region.h"
#include "change/region-ops.h"
#include "mm/memblock.h"
#include "mm/numa.h"

static void add(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(char *buf, size_t len, const char *fmt, ...)
{
	size_t off = strlen(buf);
	va_list ap;

	if (off >= len - 1)
		return;
	if (off)
		off += (size_t)snprintf(buf + off, len - off, ", ");
	va_start(ap, fmt);
	if (off < len)
		vsnprintf(buf + off, len - off, fmt, ap);
	va_end(ap);
}

/* the recorded region, when it is still there and still the one recorded:
 * under the recorded root decoder, its targets all among the recorded
 * decoders (the kernel reuses a deleted region's name) */
static const struct ct_region *recorded_region(const struct ct_topology *t, const struct ct_change_record *rec)
{
	const struct ct_region *r = rec->region[0] ? ct_topology_region(t, rec->region) : NULL;

	if (!r || strcmp(r->root_decoder, rec->root))
		return NULL;
	for (unsigned i = 0; i < r->ntargets; i++) {
		bool ours = !r->targets[i][0];
		for (unsigned k = 0; k < rec->ndecoders && !ours; k++)
			ours = !strcmp(r->targets[i], rec->decoders[k]);
		if (!ours)
			return NULL;
	}
	return r;
}

struct to_free {
	const char *name, *memdev;
	uint64_t resource;
};

static int by_resource_desc(const void *a, const void *b)
{
	const struct to_free *x = a, *y = b;

	return x->resource < y->resource ? 1 : x->resource > y->resource ? -1 : 0;
}

/* the recorded endpoint decoders that hold DPA for no region, freed last
 * allocated first; each named in done. 0 or -errno with a message. */
static int free_decoders(struct ct_context *ctx, const struct ct_change_record *rec, const char *cmd, int pid,
			 char *done, size_t len)
{
	struct ct_region_io io = { ctx, ct_region_ops_for(ctx, false), NULL, "" };
	struct to_free v[CT_MAX_TARGETS];
	struct ct_fabric f;
	size_t n = 0;
	int rc;

	if ((rc = ct_fabric_load(ctx, &f)))
		return rc;
	for (unsigned k = 0; k < rec->ndecoders; k++) {
		for (size_t e = 0; e < f.neps; e++) {
			const struct ct_endpoint_info *ep = &f.eps[e];
			unsigned nd = ep->ndecoders < CT_MAX_EP_DECODERS ? ep->ndecoders : CT_MAX_EP_DECODERS;
			for (unsigned i = 0; i < nd; i++) {
				const struct ct_ep_decoder *d = &ep->decoders[i];
				if (strcmp(d->name, rec->decoders[k]) || !d->dpa_size || d->region[0])
					continue;
				v[n++] = (struct to_free){ rec->decoders[k], rec->memdevs[k][0] ? rec->memdevs[k] : "",
							   d->dpa_resource };
				/* one allocated after it that is not ours would have to go first */
				for (unsigned j = 0; j < nd && !rc; j++) {
					const struct ct_ep_decoder *o = &ep->decoders[j];
					bool ours = false;
					for (unsigned q = 0; q < rec->ndecoders; q++)
						ours |= !strcmp(o->name, rec->decoders[q]);
					if (!ours && o->dpa_size && o->dpa_resource > d->dpa_resource)
						rc = ct_fail(&ctx->err, EBUSY, "a region %s (pid %d) was killed midway; %s (%s) "
							     "holds DPA for no region, but %s was allocated after it and must be "
							     "freed first: free %s, then %s (cxl free-dpa %s -d NAME)", cmd, pid,
							     d->name, ep->memdev, o->name, o->name, d->name, ep->memdev);
				}
			}
		}
	}
	ct_fabric_free(&f);
	if (rc || !n)
		return rc;
	qsort(v, n, sizeof(v[0]), by_resource_desc);
	if ((rc = io.ops->begin(&io)))
		return ct_fail(&ctx->err, -rc, "a region %s (pid %d) was killed midway; cannot free its decoders' DPA "
			       "through %s: %s", cmd, pid, io.ops->name, io.detail);
	for (size_t i = 0; i < n && !rc; i++) {
		io.detail[0] = '\0';
		if ((rc = io.ops->set_dpa_size(&io, v[i].name, 0)))
			rc = ct_fail(&ctx->err, -rc, "a region %s (pid %d) was killed midway; freeing the DPA of %s%s%s%s "
				     "failed: %s%s%s%s; free it by hand (cxl free-dpa %s -d %s)", cmd, pid, v[i].name,
				     v[i].memdev[0] ? " (" : "", v[i].memdev, v[i].memdev[0] ? ")" : "", strerror(-rc),
				     io.detail[0] ? " [" : "", io.detail, io.detail[0] ? "]" : "",
				     v[i].memdev[0] ? v[i].memdev : "MEMDEV", v[i].name);
		else
			add(done, len, "%s freed", v[i].name);
	}
	io.ops->end(&io);
	ct_context_refresh(ctx);
	return rc;
}

/* the recorded region taken apart; 1 when it was not destroyed because
 * memory is online on it, else 0 or -errno with a message */
static int destroy_region(struct ct_context *ctx, const struct ct_topology *t, const struct ct_region *r,
			  const char *cmd, int pid, char *done, size_t len)
{
	struct ct_region_teardown td;
	int rc = ct_region_plan_destroy(ctx, t, r->name, &td);

	if (!rc && td.online_blocks) {
		add(done, len, "%s has %u memory block%s online again: left as it is (destroy it with 'cxltier region "
		    "destroy %s --offline')", r->name, td.online_blocks, td.online_blocks == 1 ? "" : "s", r->name);
		return 1;
	}
	if (!rc)
		rc = ct_region_destroy(ctx, t, &td, NULL);
	if (rc) {
		char why[512];
		ct_strlcpy(why, ct_context_message(ctx), sizeof(why));
		return ct_fail(&ctx->err, -rc, "a region %s (pid %d) was killed midway; taking %s apart failed: %s",
			       cmd, pid, r->name, why);
	}
	{
		char freed[200] = "";
		for (unsigned i = 0; i < r->ntargets; i++)
			if (r->targets[i][0])
				add(freed, sizeof(freed), "%s", r->targets[i]);
		add(done, len, "%s removed%s%s%s", r->name, freed[0] ? " (" : "", freed, freed[0] ? " freed)" : "");
	}
	return 0;
}

static bool complete(const struct ct_region *r)
{
	unsigned set = 0;

	for (unsigned i = 0; i < r->ntargets; i++)
		set += r->targets[i][0] != '\0';
	return r->committed && r->enabled && r->ways && set == r->ways;
}

/* a --reonline killed between its offline and online writes: the block
 * onlined movable, as that run was doing, when it is still offline */
static int recover_reonline(struct ct_context *ctx, const struct ct_change_record *rec, struct ct_region_recovery *res)
{
	unsigned long long id = strtoull(rec->block + strlen("memory"), NULL, 10);
	struct ct_block b;
	int rc;

	res->outcome = "finished";
	if (!ct_block_exists(&ctx->sys, id)) {
		add(res->done, sizeof(res->done), "%s is gone (its memory was removed)", rec->block);
		return 0;
	}
	if ((rc = ct_block_read_state(&ctx->sys, id, &b)))
		return rc;
	if (b.state != CT_BLOCK_OFFLINE) {
		res->outcome = "left";
		add(res->done, sizeof(res->done), "%s is %s already: left as it is", rec->block, ct_block_state_name(b.state));
		return 0;
	}
	if (!(rc = ct_block_write_state(&ctx->sys, id, "online_movable"))) {
		add(res->done, sizeof(res->done), "%s onlined movable", rec->block);
		return 0;
	}
	ct_error_clear(&ctx->err);
	/* as the run itself does when its online half fails: back online
	 * where it was (ZONE_NORMAL), its memory not lost to the system */
	if (!ct_block_write_state(&ctx->sys, id, "online_kernel")) {
		add(res->done, sizeof(res->done), "%s onlined in ZONE_NORMAL, where it was (movable refused: %s)", rec->block,
		    strerror(-rc));
		return 0;
	}
	ct_error_clear(&ctx->err);
	return ct_fail(&ctx->err, -rc, "%s, offlined by a killed --reonline (pid %d), cannot be onlined (movable: %s): "
		       "online it by hand (echo online > " CT_MEMORY_DIR "/%s/state)", rec->block, rec->owner.pid,
		       strerror(-rc), rec->block);
}

/* a tiering change killed between its writes: each recorded switch set
 * back to its old value, the last written first, so that the kernel ends
 * with the settings it had before that run (one set since to neither the
 * old nor the new value is the administrator's: left as it is) */
static int recover_tiering(struct ct_context *ctx, const struct ct_change_record *rec, struct ct_region_recovery *res)
{
	struct ct_tiering_settings now;
	int rc;

	res->outcome = "undone";
	ct_tiering_settings_read(&ctx->sys, &now);
	for (unsigned i = rec->nswitches; i-- > 0;) {
		const struct ct_change_switch *w = &rec->switches[i];
		int64_t v = ct_tiering_value(&now, w->sw);

		if (v == w->from) {
			add(res->done, sizeof(res->done), "%s was still %lld", ct_tiering_name(w->sw), (long long)v);
			continue;
		}
		if (v != w->to) {
			add(res->done, sizeof(res->done), "%s is %lld, set since: left as it is", ct_tiering_name(w->sw),
			    (long long)v);
			continue;
		}
		if ((rc = ct_tiering_write(&ctx->sys, w->sw, w->from)))
			return rc;
		add(res->done, sizeof(res->done), "%s set back to %lld", ct_tiering_name(w->sw), (long long)w->from);
	}
	return 0;
}

static int recover_one(struct ct_context *ctx, const struct ct_change_record *rec, struct ct_region_recovery *res)
{
	const char *cmd = ct_change_record_command(rec->kind);
	const struct ct_region *r;
	struct ct_topology t;
	int rc;

	if (rec->kind == CT_CHANGE_REONLINE)
		return recover_reonline(ctx, rec, res);
	if (rec->kind == CT_CHANGE_TIERING)
		return recover_tiering(ctx, rec, res);
	if ((rc = ct_topology_load(ctx, &t)))
		return rc;
	r = recorded_region(&t, rec);
	res->outcome = rec->kind == CT_CHANGE_CREATE ? "undone" : "finished";
	if (r && rec->kind == CT_CHANGE_CREATE && complete(r)) {
		res->outcome = "kept";	/* killed after its last step: the region is whole */
		add(res->done, sizeof(res->done), "%s had every step done and is kept", r->name);
	} else if (r) {
		rc = destroy_region(ctx, &t, r, cmd, rec->owner.pid, res->done, sizeof(res->done));
		if (rc == 1) {
			res->outcome = "left";
			rc = 0;
		}
	} else if (rec->region[0]) {
		add(res->done, sizeof(res->done), "%s was already gone", rec->region);
	}
	ct_topology_free(&t);
	if (!rc && strcmp(res->outcome, "kept"))
		rc = free_decoders(ctx, rec, cmd, rec->owner.pid, res->done, sizeof(res->done));
	if (!rc && !res->done[0])
		ct_strlcpy(res->done, "nothing was left to do", sizeof(res->done));
	return rc;
}

static void describe_record(const struct ct_change_record *rec, struct ct_region_recovery *res)
{
	memset(res, 0, sizeof(*res));
	res->pid = rec->owner.pid;
	res->command = ct_change_record_command(rec->kind);
	ct_strlcpy(res->region, rec->region, sizeof(res->region));
	ct_strlcpy(res->block, rec->block, sizeof(res->block));
	for (unsigned k = 0; k < rec->ndecoders; k++)
		add(res->decoders, sizeof(res->decoders), "%s", rec->decoders[k]);
}

int ct_region_recover_pending(struct ct_context *ctx, struct ct_region_recovery *out, size_t max, size_t *n)
{
	struct ct_change_found *v;
	size_t nv;
	int rc;

	*n = 0;
	if (!ct_sysfs_exists(&ctx->sys, CT_RUNDIR))
		return 0;	/* never made here: nothing recorded (and a reader makes nothing) */
	if ((rc = ct_change_record_list(ctx, &v, &nv)))
		return rc;
	for (size_t i = 0; i < nv && *n < max; i++)
		if (v[i].state == CT_OWNER_GONE || v[i].state == CT_OWNER_EXITED) {
			describe_record(&v[i].rec, &out[*n]);
			out[(*n)++].outcome = "pending";
		}
	free(v);
	return 0;
}

int ct_region_recover(struct ct_context *ctx, struct ct_region_recovery *out, size_t max, size_t *n)
{
	struct ct_change_found *v;
	size_t nv;
	int rc;

	*n = 0;
	if ((rc = ct_change_record_list(ctx, &v, &nv)))
		return rc;
	for (size_t i = 0; i < nv && *n < max && !rc; i++) {
		const struct ct_change_record *rec = &v[i].rec;
		struct ct_region_recovery *res = &out[*n];

		if (v[i].state != CT_OWNER_GONE && v[i].state != CT_OWNER_EXITED)
			continue;	/* its run goes on (or cannot be told): not ours to touch */
		describe_record(rec, res);
		(*n)++;
		if ((rc = recover_one(ctx, rec, res)) == 0)
			rc = ct_change_record_remove(ctx, rec->file);
		if (rc) {
			char why[768];
			res->failed = true;
			res->outcome = "failed";
			ct_strlcpy(why, ct_context_message(ctx), sizeof(why));
			ct_fail(&ctx->err, -rc, "%s; the record stays (" CT_RUNDIR "/%s): every change waits for it, "
				"remove it once that is done", why, rec->file);
		}
	}
	free(v);
	return rc;
}
