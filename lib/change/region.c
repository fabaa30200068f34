// SPDX-License-Identifier: LGPL-2.1-or-later
/* region.c - create a planned RAM region step by step, undoing what was done
 * when a step is refused (see region.h) */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/context.h"
#include "core/rundir.h"
#include "change/change-record.h"
#include "change/region.h"
#include "cxl/region-dax.h"
#include "change/region-ops.h"

#define CXLDEV "/sys/bus/cxl/devices"

/* a part of a message, into buf */
static void compose(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void compose(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

/* libcxl where it can create RAM regions (77+) on a live system; the sysfs
 * region ABI otherwise (and on a captured tree, which libcxl cannot read) */
const struct ct_region_ops *ct_region_ops_for(struct ct_context *ctx, bool create)
{
	if (ctx->live && (!create || ct_region_libcxl_ops.create_ram))
		return &ct_region_libcxl_ops;
	return &ct_region_sysfs_ops;
}

int ct_region_plan_create(struct ct_context *ctx, const struct ct_region_req *req, struct ct_region_plan *plan)
{
	struct ct_fabric f;
	char path[256];
	int rc = ct_fabric_load_memdevs(ctx, &f, req->memdevs, req->nmemdevs);

	if (rc)
		return rc;
	rc = ct_region_plan_make(&f, req, plan, &ctx->err);
	ct_fabric_free(&f);
	if (rc)
		return rc;
	plan->method = ct_region_ops_for(ctx, true)->name;
	if (ct_sysfs_read_str(&ctx->sys, ct_path(path, sizeof(path), CXLDEV "/%s/create_ram_region", plan->root_decoder),
			      plan->next_name, sizeof(plan->next_name)))
		plan->next_name[0] = '\0';
	ct_error_clear(&ctx->err);
	return 0;
}

enum kind { K_CREATE, K_RECORD, K_GRAN, K_WAYS, K_SIZE, K_MODE, K_DPA, K_TARGET, K_COMMIT, K_ENABLE };
struct step {
	enum kind k;
	unsigned i;	/* member */
};

static const char *describe(const struct ct_region_plan *p, const struct step *s, char *buf, size_t len)
{
	const struct ct_region_member *m = &p->members[s->i];
	const char *r = p->region[0] ? p->region : "the region";

	switch (s->k) {
	case K_CREATE: snprintf(buf, len, "create a RAM region under %s", p->root_decoder); break;
	case K_RECORD: snprintf(buf, len, "record %s in " CT_RUNDIR, r); break;
	case K_GRAN: snprintf(buf, len, "%s interleave_granularity = %u", r, p->granularity); break;
	case K_WAYS: snprintf(buf, len, "%s interleave_ways = %u", r, p->ways); break;
	case K_SIZE: snprintf(buf, len, "%s size = %llu", r, (unsigned long long)p->size); break;
	case K_MODE: snprintf(buf, len, "%s (%s) mode = ram", m->decoder, m->memdev); break;
	case K_DPA: snprintf(buf, len, "%s (%s) dpa_size = %llu", m->decoder, m->memdev, (unsigned long long)m->dpa_size); break;
	case K_TARGET: snprintf(buf, len, "%s target%u = %s (%s)", r, m->position, m->decoder, m->memdev); break;
	case K_COMMIT: snprintf(buf, len, "%s commit", r); break;
	case K_ENABLE: snprintf(buf, len, "bind %s to the cxl_region driver", r); break;
	}
	return buf;
}

static const char *hint(enum kind k, int err)
{
	if (k == K_TARGET && err == ENXIO)
		return " (the kernel cannot decode that endpoint at that position: dmesg says why with "
		       "dyndbg='file drivers/cxl/core/region.c +p')";
	if (k == K_COMMIT && err == ENXIO)
		return " (the decoders could not be committed; in a VM the CPU must not report a hypervisor, see "
		       "'Failed to synchronize CPU cache state' in dmesg)";
	if (k == K_SIZE && (err == ENOSPC || err == ENOMEM))
		return " (no free address space left in the root decoder)";
	if ((k == K_DPA || k == K_MODE) && err == EBUSY)
		return " (the decoder is in use, or not the next one in order on its endpoint)";
	return "";
}

static int run(struct ct_region_io *io, struct ct_region_plan *p, const struct step *s, struct ct_change_record *rec)
{
	const struct ct_region_ops *o = io->ops;
	const struct ct_region_member *m = &p->members[s->i];
	int rc;

	switch (s->k) {
	case K_CREATE: return o->create_ram(io, p->root_decoder, p->region, sizeof(p->region));
	case K_RECORD:	/* the name the kernel gave, for the next run to undo it if this one is killed */
		ct_strlcpy(rec->region, p->region, sizeof(rec->region));
		if ((rc = ct_change_record_update(io->ctx, rec)))
			ct_region_io_say(io, "%s", ct_context_message(io->ctx));
		ct_error_clear(&io->ctx->err);
		return rc;
	case K_GRAN: return o->set_granularity(io, p->region, p->granularity);
	case K_WAYS: return o->set_ways(io, p->region, p->ways);
	case K_SIZE: return o->set_size(io, p->region, p->size);
	case K_MODE: return o->set_mode(io, m->decoder, "ram");
	case K_DPA: return o->set_dpa_size(io, m->decoder, m->dpa_size);
	case K_TARGET: return o->set_target(io, p->region, m->position, m->decoder);
	case K_COMMIT: return o->commit(io, p->region, true);
	case K_ENABLE: return o->enable(io, p->region, true);
	}
	return -EINVAL;
}

/* the inverse of a step (0 when there is nothing to undo) */
static int undo(struct ct_region_io *io, struct ct_region_plan *p, const struct step *s)
{
	const struct ct_region_ops *o = io->ops;
	const struct ct_region_member *m = &p->members[s->i];

	switch (s->k) {
	case K_CREATE: return o->remove(io, p->root_decoder, p->region);
	case K_SIZE: return o->set_size(io, p->region, 0);
	case K_MODE:	/* "none" cannot be written back; a free decoder in ram mode is harmless */
		return strcmp(m->decoder_mode, "pmem") ? 0 : o->set_mode(io, m->decoder, "pmem");
	case K_DPA: return o->set_dpa_size(io, m->decoder, 0);
	case K_TARGET: return o->set_target(io, p->region, m->position, NULL);
	case K_COMMIT: return o->commit(io, p->region, false);
	case K_ENABLE: return o->enable(io, p->region, false);
	default: return 0;
	}
}

static size_t build_steps(const struct ct_region_plan *p, struct step *s)
{
	size_t n = 0;

	s[n++] = (struct step){ K_CREATE, 0 };
	s[n++] = (struct step){ K_RECORD, 0 };
	s[n++] = (struct step){ K_GRAN, 0 };
	s[n++] = (struct step){ K_WAYS, 0 };
	s[n++] = (struct step){ K_SIZE, 0 };
	for (unsigned i = 0; i < p->ways; i++) {
		if (strcmp(p->members[i].decoder_mode, "ram"))
			s[n++] = (struct step){ K_MODE, i };
		s[n++] = (struct step){ K_DPA, i };
		s[n++] = (struct step){ K_TARGET, i };
	}
	s[n++] = (struct step){ K_COMMIT, 0 };
	s[n++] = (struct step){ K_ENABLE, 0 };
	return n;
}

int ct_region_create(struct ct_context *ctx, struct ct_region_plan *plan)
{
	struct ct_region_io io = { ctx, ct_region_ops_for(ctx, true), NULL, "" };
	struct ct_change_record rec;
	struct step steps[9 + 3 * CT_MAX_TARGETS];
	size_t n = build_steps(plan, steps), done;
	char what[160], undone[200] = "", left[160] = "", dax[CT_NAME];
	int rc = io.ops->begin(&io), urc = 0, e;
	enum kind fail;

	plan->method = io.ops->name;
	plan->region[0] = '\0';
	if (rc)
		return ct_fail(&ctx->err, -rc, "cannot create a region through %s: %s", io.ops->name, io.detail);
	/* recorded before the first write, for the next run to undo if this one is killed */
	ct_change_record_init(&rec, CT_CHANGE_CREATE, plan->root_decoder);
	for (unsigned i = 0; i < plan->ways; i++)
		ct_change_record_add(&rec, plan->members[i].decoder, plan->members[i].memdev);
	if ((rc = ct_change_record_begin(ctx, &rec))) {
		io.ops->end(&io);
		return rc;
	}
	for (done = 0; done < n; done++) {
		io.detail[0] = '\0';
		rc = run(&io, plan, &steps[done], &rec);
		if (rc)
			break;
		if (plan->tell.step)
			plan->tell.step(plan->tell.arg, describe(plan, &steps[done], what, sizeof(what)), done + 1, n);
	}
	if (!rc) {
		io.ops->end(&io);
		ct_change_record_end(&rec, false);
		ct_context_refresh(ctx);	/* libcxl and libdaxctl have not seen the region */
		/* the dax device comes when the region driver has probed (a
		 * module may still load): given a moment, without failing
		 * the creation (the caller says what is missing) */
		if (ctx->live)
			ct_region_dax_wait(&ctx->sys, plan->region, 5000, dax, sizeof(dax));
		return 0;
	}
	e = -rc;
	fail = steps[done].k;
	describe(plan, &steps[done], what, sizeof(what));
	compose(left, sizeof(left), "%s%s%s", io.detail[0] ? " [" : "", io.detail, io.detail[0] ? "]" : "");
	if (!done)
		snprintf(undone, sizeof(undone), "; nothing was changed");
	/* undo in reverse; a failing undo stops there: what is left is named */
	for (size_t i = done; i-- > 0;) {
		io.detail[0] = '\0';
		urc = undo(&io, plan, &steps[i]);
		if (urc) {
			char u[160];
			compose(undone, sizeof(undone), "; undoing failed at '%s': %s; left behind: %s (remove it with "
			    "'cxltier region destroy %s')", describe(plan, &steps[i], u, sizeof(u)), strerror(-urc),
			    plan->region, plan->region);
			break;
		}
	}
	if (done && !urc)
		compose(undone, sizeof(undone), "; the %zu step%s before it %s undone (%s deleted)", done,
			 done == 1 ? "" : "s", done == 1 ? "was" : "were", plan->region);
	io.ops->end(&io);
	ct_change_record_end(&rec, urc != 0);	/* not undone: the next run tries again */
	ct_context_refresh(ctx);
	ct_fail(&ctx->err, e, "creating a RAM region under %s: step '%s' failed: %s%s%s%s", plan->root_decoder, what,
		strerror(e), hint(fail, e), left, undone);
	if (!urc)
		plan->region[0] = '\0';
	return -e;
}
