// SPDX-License-Identifier: LGPL-2.1-or-later
/* policy-region.c - a RAM region for a memdev the policy wants onlined and
 * that backs none (policy-region.h) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "change/auto-online-hold.h"
#include "core/context.h"
#include "change/dax-convert.h"
#include "core/kernel.h"
#include "mm/memblock.h"
#include "change/policy-region.h"
#include "core/poll-wait.h"
#include "cxl/topology-dax.h"
#include "change/region.h"

const char *ct_policy_region_state_name(enum ct_new_region_state s)
{
	static const char *const n[] = { "left", "planned", "created", "failed" };
	return s <= CT_NEWREG_FAILED ? n[s] : "?";
}

static bool named(const char *memdev, char *const *targets, int ntargets)
{
	if (ntargets == 0)
		return true;
	for (int i = 0; i < ntargets; i++)
		if (!strcmp(targets[i], memdev))
			return true;
	return false;
}

static bool backs_a_region(const struct ct_topology *t, const char *memdev)
{
	for (size_t i = 0; i < t->nregions; i++)
		if (ct_region_has_memdev(&t->regions[i], memdev))
			return true;
	return false;
}

/* the first region over memdev when none over it is committed (a create
 * cut short, or one another tool is making now), else NULL */
static const struct ct_region *backs_only_uncommitted(const struct ct_topology *t, const char *memdev)
{
	const struct ct_region *first = NULL;

	for (size_t i = 0; i < t->nregions; i++) {
		const struct ct_region *r = &t->regions[i];
		if (!ct_region_has_memdev(r, memdev))
			continue;
		if (r->committed)
			return NULL;
		if (!first)
			first = r;
	}
	return first;
}

/* the dax device bound to a driver: the kernel probes it after the region
 * is enabled, on 7.x asynchronously. The driver core links the driver
 * before calling its probe, so a device found bound to kmem may still be
 * adding its blocks: wait_blocks() waits for them. Bounded. */
static void wait_bound(struct ct_context *ctx, const char *dax, unsigned ms)
{
	struct ct_poll_wait w;
	char path[256];

	ct_path(path, sizeof(path), "/sys/bus/dax/devices/%s/driver", dax);
	ct_poll_wait_begin(&w, ms, 20);
	while (!ct_sysfs_exists(&ctx->sys, path) && ct_poll_wait_next(&w))
		;
}

/* kmem's probe adds the blocks and, when the kernel onlines new memory
 * itself (kernel.h), onlines them, while the driver link is already there:
 * wait (bounded) until every block of the device exists and, then, is no
 * longer offline, so that the plan sees the blocks as the kernel leaves
 * them rather than racing its onlining */
static void wait_blocks(struct ct_context *ctx, uint64_t start, uint64_t size, unsigned ms)
{
	struct ct_poll_wait w;
	struct ct_auto_online a;
	uint64_t bs = 0;
	bool settled = false;

	ct_kernel_auto_online(ctx, &a);
	if (ct_block_size_cached(ctx, &bs) || !bs || !size) {
		ct_error_clear(&ctx->err);
		return;
	}
	ct_poll_wait_begin(&w, ms, 20);
	do {
		settled = true;
		for (uint64_t id = (start + bs - 1) / bs; settled && id < (start + size) / bs; id++) {
			struct ct_block b;
			settled = !ct_block_read_state(&ctx->sys, id, &b) && (!a.onlines || b.state == CT_BLOCK_ONLINE);
		}
	} while (!settled && ct_poll_wait_next(&w));
	ct_error_clear(&ctx->err);
}

/* the new region's dax device in system-ram mode: the kernel binds it to
 * kmem itself when kmem is loaded; otherwise it is switched here. Read
 * through the rooted reader's dax view (a handful of reads a device: the
 * live libraries' walk of every port, decoder and dax attribute costs a
 * hot-add tens of milliseconds under emulation, and again for each card) */
static int to_system_ram(struct ct_context *ctx, struct ct_policy_new_region *o)
{
	struct ct_topology t = { 0 };
	const struct ct_region *r;
	struct ct_dax_convert_result res;
	char mode[16] = "";
	uint64_t start = 0, size = 0;
	int rc;

	if ((rc = ct_topology_load_dax_sysfs(ctx, &t)))
		return rc;
	r = ct_topology_region(&t, o->region);
	if (r && r->ndax) {
		ct_strlcpy(o->dax, r->dax[0].name, sizeof(o->dax));
		ct_strlcpy(mode, r->dax[0].mode, sizeof(mode));
		start = r->dax[0].resource;
		size = r->dax[0].size;
	}
	ct_topology_free(&t);
	if (!o->dax[0])
		return ct_fail(&ctx->err, ENODEV, "%s was created but has no dax device (is the dax_cxl module there? "
			       "'modprobe dax_cxl', then 'cxltier online --policy %s')", o->region, o->memdev);
	if (!ctx->live)
		return 0;
	if (!strcmp(mode, "unbound")) {
		wait_bound(ctx, o->dax, 10000);	/* then its driver read again */
		ct_dax_mode_read(&ctx->sys, o->dax, mode, sizeof(mode));
	}
	if (!strcmp(mode, "system-ram")) {
		wait_blocks(ctx, start, size, 10000);
		return 0;
	}
	/* movable wanted: the kernel must not online the blocks itself meanwhile */
	rc = ct_dax_convert_to_ram(ctx, o->dax, o->decision.movable, &res);
	if (!rc)
		o->converted = true;
	return rc;
}

/* a dry run: what would be created */
static int plan_only(struct ct_context *ctx, const struct ct_memdev *m, struct ct_policy_new_region *o)
{
	const char *names[1] = { m->name };
	struct ct_region_req req = { .memdevs = names, .nmemdevs = 1 };
	struct ct_region_plan plan;
	int rc = ct_region_plan_create(ctx, &req, &plan);

	if (rc) {
		o->state = CT_NEWREG_FAILED;
		o->err = rc;
		snprintf(o->note, sizeof(o->note), "%s", ct_context_message(ctx));
		ct_error_clear(&ctx->err);
		return rc;
	}
	ct_strlcpy(o->region, plan.next_name, sizeof(o->region));
	o->state = CT_NEWREG_PLANNED;
	snprintf(o->note, sizeof(o->note), "would create a RAM region of %llu MiB over %s under %s (through %s)",
		 (unsigned long long)(plan.size >> 20), m->name, plan.root_decoder, plan.method);
	return 0;
}

/* a memdev whose region this run makes: the plan, and what went wrong */
struct making {
	size_t out;		/* its entry in *out */
	const struct ct_memdev *m;
	struct ct_region_plan plan;
	char why[256];
};

static void failed(struct ct_context *ctx, struct ct_policy_new_region *o, struct making *k, int rc)
{
	o->err = rc;
	ct_strlcpy(k->why, ct_context_message(ctx), sizeof(k->why));
	ct_error_clear(&ctx->err);
}

/* the regions of the batch made one after the other (each planned on what
 * the one before left), then each one's dax device waited for and put in
 * system-ram mode: the kernel probes a region's dax device while the next
 * region is made, so that n cards cost less than n times one. All under one
 * hold of the kernel's own onlining when one of them is wanted movable. */
static void make(struct ct_context *ctx, struct ct_policy_new_region *out, struct making *k, size_t nk)
{
	struct ct_auto_online_hold hold = { .held = false };
	bool movable = false, held;
	int rc = 0;

	for (size_t i = 0; i < nk; i++)
		movable |= out[k[i].out].decision.movable;
	if (movable && ctx->live)
		rc = ct_auto_online_hold(ctx, &hold);
	for (size_t i = 0; i < nk; i++) {
		struct ct_policy_new_region *o = &out[k[i].out];
		const char *names[1] = { k[i].m->name };
		struct ct_region_req req = { .memdevs = names, .nmemdevs = 1 };

		if (rc) {	/* the hold was refused: nothing is made */
			o->err = rc;
			ct_strlcpy(k[i].why, ct_context_message(ctx), sizeof(k[i].why));
			continue;
		}
		int crc = ct_region_plan_create(ctx, &req, &k[i].plan);
		if (!crc)
			crc = ct_region_create(ctx, &k[i].plan);
		if (crc) {
			failed(ctx, o, &k[i], crc);
			continue;
		}
		/* created: a failure from here on leaves the region (named) */
		ct_strlcpy(o->region, k[i].plan.region, sizeof(o->region));
		o->state = CT_NEWREG_CREATED;
	}
	ct_error_clear(&ctx->err);
	for (size_t i = 0; i < nk; i++) {
		struct ct_policy_new_region *o = &out[k[i].out];
		int crc;

		if (o->state == CT_NEWREG_CREATED && (crc = to_system_ram(ctx, o)))
			failed(ctx, o, &k[i], crc);
	}
	held = hold.held;
	if (ct_auto_online_release(ctx, &hold)) {
		for (size_t i = 0; i < nk; i++) {
			size_t used = strlen(k[i].why);
			snprintf(k[i].why + used, sizeof(k[i].why) - used, "%s%s", used ? "; " : "",
				 ct_context_message(ctx));
			if (!out[k[i].out].err)
				out[k[i].out].err = -EIO;
		}
		ct_error_clear(&ctx->err);
	}
	for (size_t i = 0; i < nk; i++) {
		struct ct_policy_new_region *o = &out[k[i].out];
		size_t used;

		if (o->state != CT_NEWREG_CREATED) {
			o->state = CT_NEWREG_FAILED;
			snprintf(o->note, sizeof(o->note), "%s", k[i].why);
			continue;
		}
		snprintf(o->note, sizeof(o->note), "created %s over %s under %s (through %s)%s%s%s", k[i].plan.region,
			 k[i].m->name, k[i].plan.root_decoder, k[i].plan.method, k[i].why[0] ? "; " : "", k[i].why,
			 o->converted ? "; its dax device switched to system-ram" : "");
		used = strlen(o->note);
		if (held)	/* (cut when longer than the note: it is for people) */
			snprintf(o->note + used, sizeof(o->note) - used,
				 "; the kernel's own onlining (auto_online_blocks=%s) held off meanwhile", hold.value);
	}
}

int ct_policy_region_create(struct ct_context *ctx, const struct ct_topology *t, const struct ct_policy *pol,
			     char *const *targets, int ntargets, bool dry, struct ct_policy_new_region **out,
			     size_t *nout)
{
	struct making *k = calloc(t->nmemdevs ? t->nmemdevs : 1, sizeof(*k));
	size_t nk = 0;
	int first = 0;

	*out = NULL;
	*nout = 0;
	if (!k)
		return ct_fail(&ctx->err, ENOMEM, "out of memory");
	for (size_t i = 0; i < t->nmemdevs; i++) {
		const struct ct_memdev *m = &t->memdevs[i];
		const char *host = m->host;
		struct ct_policy_new_region *o;
		const struct ct_region *half;

		if (!named(m->name, targets, ntargets))
			continue;
		half = backs_only_uncommitted(t, m->name);
		if (!half && backs_a_region(t, m->name))
			continue;
		o = realloc(*out, (*nout + 1) * sizeof(*o));
		if (!o) {
			free(k);
			return ct_fail(&ctx->err, ENOMEM, "out of memory");
		}
		*out = o;
		o = &o[(*nout)++];
		memset(o, 0, sizeof(*o));
		ct_strlcpy(o->memdev, m->name, sizeof(o->memdev));
		if (half) {	/* never "backs a region: nothing to do" */
			o->state = CT_NEWREG_FAILED;
			o->err = -EBUSY;
			ct_strlcpy(o->region, half->name, sizeof(o->region));
			snprintf(o->note, sizeof(o->note), "%.32s backs %.32s, not committed (a create cut short, or "
				 "another tool making it now): none of it can be onlined; 'cxltier region destroy %.32s', "
				 "then run again", m->name, half->name, half->name);
			continue;
		}
		struct ct_policy_subject subj = { NULL, &m->serial, &host, 1 };
		ct_policy_decide(pol, &subj, &o->decision);
		if (!m->enabled || !m->endpoint[0] || !m->ram_size) {
			o->state = CT_NEWREG_LEFT;
			snprintf(o->note, sizeof(o->note), "%s backs no region and %s", m->name,
				 !m->ram_size ? "has no volatile capacity" : "is not enabled (no cxl_mem driver, or no endpoint)");
			continue;
		}
		if (!o->decision.online || !o->decision.create_region) {
			o->state = CT_NEWREG_LEFT;
			snprintf(o->note, sizeof(o->note), "%s backs no region; the policy%s says %s", m->name,
				 o->decision.line ? " (a [device] section)" : "",
				 !o->decision.online ? "leave it offline" : "create none (create-region = yes would)");
			continue;
		}
		if (dry)
			plan_only(ctx, m, o);
		else
			k[nk++] = (struct making){ .out = *nout - 1, .m = m };
	}
	if (nk)
		make(ctx, *out, k, nk);
	free(k);
	for (size_t i = 0; i < *nout && !first; i++)
		if ((first = (*out)[i].err))	/* the first failure's message is the context's */
			ct_fail(&ctx->err, -first, "%s", (*out)[i].note);
	return first;
}
