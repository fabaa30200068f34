// SPDX-License-Identifier: LGPL-2.1-or-later
/* region-destroy.c - take a region apart: its memory offline (when asked),
 * unbind, decoders reset, targets cleared, endpoint capacity freed, delete
 * (see region.h) */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "core/context.h"
#include "change/change-record.h"
#include "change/dax-users.h"
#include "change/region.h"
#include "change/region-ops.h"

int ct_region_plan_destroy(struct ct_context *ctx, const struct ct_topology *t, const char *name,
			   struct ct_region_teardown *td)
{
	const struct ct_region *r = ct_topology_region(t, name);
	struct ct_fabric f;
	int rc;

	memset(td, 0, sizeof(*td));
	if (!r)
		return ct_fail(&ctx->err, ENOENT, "no region '%s' on this system (see 'cxltier list')", name);
	ct_strlcpy(td->region, r->name, sizeof(td->region));
	ct_strlcpy(td->root_decoder, r->root_decoder, sizeof(td->root_decoder));
	td->enabled = r->enabled;
	td->committed = r->committed;
	td->ntargets = r->ntargets;
	for (unsigned i = 0; i < r->ntargets; i++) {
		ct_strlcpy(td->targets[i], r->targets[i], CT_NAME);
		ct_strlcpy(td->memdevs[i], r->memdevs[i], CT_NAME);
	}
	for (size_t i = 0; i < r->ndax; i++)
		td->online_blocks += r->dax[i].blocks.online;
	td->method = ct_region_ops_for(ctx, false)->name;
	/* the kernel frees an endpoint's DPA last-allocated first */
	if ((rc = ct_fabric_load(ctx, &f)))
		return rc;
	for (unsigned i = 0; i < r->ntargets && !rc; i++) {
		const struct ct_endpoint_info *e = ct_fabric_endpoint(&f, r->memdevs[i]);
		if (e && e->last_decoder[0] && strcmp(e->last_decoder, r->targets[i]))
			rc = ct_fail(&ctx->err, EBUSY, "%s: %s (%s) cannot give its capacity back before %s, which was "
				     "allocated after it: destroy the region on %s first", name, r->targets[i], r->memdevs[i],
				     e->last_decoder, e->last_decoder);
	}
	ct_fabric_free(&f);
	/* a dax device in devdax mode goes with the region: whoever maps it
	 * would be killed by SIGBUS */
	if (!rc)
		rc = ct_region_check_dax_owned(ctx, r);
	for (size_t i = 0; i < r->ndax && !rc; i++)
		if (!strcmp(r->dax[i].mode, "devdax")) {
			char doing[64];
			snprintf(doing, sizeof(doing), "destroying %s", name);
			rc = ct_dax_users_check_unused(ctx, r->dax[i].name, doing);
		}
	return rc;
}

int ct_region_check_dax_owned(struct ct_context *ctx, const struct ct_region *r)
{
	for (size_t i = 0; i < r->ndax; i++) {
		const char *mode = r->dax[i].mode;
		bool famfs = !strcmp(mode, "famfs");
		if (!strcmp(mode, "devdax") || !strcmp(mode, "system-ram") || !strcmp(mode, "unbound"))
			continue;
		return ct_fail(&ctx->err, EBUSY, "%s: its dax device %s is %s%s: cxltier does not take it away "
			       "(unmount what uses it, then 'daxctl reconfigure-device --mode=devdax %s')", r->name,
			       r->dax[i].name, famfs ? "" : "bound to ",
			       famfs ? "a famfs device (bound to fsdev_dax)" : mode, r->dax[i].name);
	}
	return 0;
}

/* offline every block of the region's dax devices; on failure they are put back */
static int offline_memory(struct ct_context *ctx, const struct ct_topology *t, const struct ct_region_teardown *td,
			  const struct ct_blocks_opts *opts)
{
	struct ct_blocks_opts o = *opts;
	struct ct_blocks_plan p = { 0 };
	const struct ct_dax *devdax = NULL;
	int rc = ct_blocks_plan_add_target(&ctx->sys, t, &p, td->region, &devdax), bad;

	if (rc == -EMEDIUMTYPE)
		rc = 0;	/* a devdax device has no blocks to offline */
	if (rc) {
		ct_blocks_plan_free(&p);
		return rc;
	}
	o.rollback = true;
	ct_blocks_plan_decide(&p, CT_WANT_OFFLINE, false);
	bad = ct_blocks_execute(&ctx->sys, &p, &o);
	if (bad) {
		const struct ct_block_op *first = NULL;
		for (size_t i = 0; i < p.n && !first; i++)
			if (p.op[i].result != CT_RES_DONE && p.op[i].result != CT_RES_UNCHANGED &&
			    p.op[i].result != CT_RES_ROLLED_BACK)
				first = &p.op[i];
		rc = ct_fail(&ctx->err, first && first->err ? first->err : EBUSY,
			     "%s: offlining its memory failed at memory%llu: %s%s%s; the blocks that went offline were "
			     "put back online and the region is left as it was", td->region,
			     first ? (unsigned long long)first->before.id : 0ULL,
			     first ? ct_blocks_result_name(first->result) : "?", first && ct_blocks_note_of(first)[0] ? ": " : "",
			     first ? ct_blocks_note_of(first) : "");
	}
	ct_blocks_plan_free(&p);
	return rc;
}

/* a step done, told */
static void told(const struct ct_region_teardown *td, const char *what, size_t done, size_t total)
{
	if (td->tell.step)
		td->tell.step(td->tell.arg, what, done, total);
}

int ct_region_destroy(struct ct_context *ctx, const struct ct_topology *t, struct ct_region_teardown *td,
		      const struct ct_blocks_opts *offline)
{
	struct ct_region_io io = { ctx, ct_region_ops_for(ctx, false), NULL, "" };
	struct ct_change_record rec;
	char what[160], done[160] = "";
	bool changed = false;	/* a kernel write went through */
	size_t steps = 0, total;
	int rc = 0;

	if (td->online_blocks && !offline)
		return ct_fail(&ctx->err, EBUSY, "%s has %u memory block%s online: offline %s first ('cxltier offline %s') "
			       "or let destroy do it (--offline)", td->region, td->online_blocks,
			       td->online_blocks == 1 ? "" : "s", td->online_blocks == 1 ? "it" : "them", td->region);
	if (td->online_blocks && (rc = offline_memory(ctx, t, td, offline)))
		return rc;
	td->method = io.ops->name;
	/* recorded before the first write, for the next run to finish if this one is killed */
	ct_change_record_init(&rec, CT_CHANGE_DESTROY, td->root_decoder);
	ct_strlcpy(rec.region, td->region, sizeof(rec.region));
	for (unsigned i = 0; i < td->ntargets; i++)
		ct_change_record_add(&rec, td->targets[i], td->memdevs[i]);
	if ((rc = ct_change_record_begin(ctx, &rec)))
		return rc;
	if ((rc = io.ops->begin(&io))) {
		ct_change_record_end(&rec, false);
		return ct_fail(&ctx->err, -rc, "cannot destroy %s through %s: %s", td->region, io.ops->name, io.detail);
	}
	total = td->enabled + td->committed + 1;
	for (unsigned i = 0; i < td->ntargets; i++)
		total += td->targets[i][0] ? 2 : 0;
	if (td->enabled) {
		snprintf(what, sizeof(what), "unbind %s from the cxl_region driver", td->region);
		if ((rc = io.ops->enable(&io, td->region, false)))
			goto fail;
		told(td, what, ++steps, total);
		td->enabled = false;
		changed = true;
		snprintf(done, sizeof(done), " (done before it: unbound)");
	}
	if (td->committed) {
		snprintf(what, sizeof(what), "%s commit = 0 (reset the decoders)", td->region);
		if ((rc = io.ops->commit(&io, td->region, false)))
			goto fail;
		told(td, what, ++steps, total);
		td->committed = false;
		changed = true;
		snprintf(done, sizeof(done), " (done before it: disabled, decoders reset)");
	}
	for (unsigned i = 0; i < td->ntargets; i++) {
		if (!td->targets[i][0])
			continue;
		snprintf(what, sizeof(what), "%s target%u = none (was %s)", td->region, i, td->targets[i]);
		if ((rc = io.ops->set_target(&io, td->region, i, NULL)))
			goto fail;
		told(td, what, ++steps, total);
		changed = true;
		snprintf(what, sizeof(what), "%s dpa_size = 0", td->targets[i]);
		if ((rc = io.ops->set_dpa_size(&io, td->targets[i], 0)))
			goto fail;
		told(td, what, ++steps, total);
		td->targets[i][0] = '\0';
		snprintf(done, sizeof(done), " (done before it: disabled, decoders reset, targets up to target%u freed)", i);
	}
	snprintf(what, sizeof(what), "%s delete_region = %s", td->root_decoder, td->region);
	if ((rc = io.ops->remove(&io, td->root_decoder, td->region)))
		goto fail;
	told(td, what, ++steps, total);
	io.ops->end(&io);
	ct_change_record_end(&rec, false);
	ct_context_refresh(ctx);
	return 0;
fail:
	io.ops->end(&io);
	ct_change_record_end(&rec, changed);	/* half taken apart: the next run finishes it */
	ct_context_refresh(ctx);
	return ct_fail(&ctx->err, -rc, "destroying %s: step '%s' failed: %s%s%s%s%s; run the destroy again once the "
		       "cause is gone", td->region, what, strerror(-rc), io.detail[0] ? " [" : "", io.detail,
		       io.detail[0] ? "]" : "", done);
}
