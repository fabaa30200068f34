// SPDX-License-Identifier: LGPL-2.1-or-later
/* poison.c - a memdev's poison list: memN/trigger_poison_list written, the
 * cxl:cxl_poison records it makes the kernel trace collected (see poison.h) */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/context.h"
#include "events/event-source.h"
#include "core/kernel.h"
#include "events/poison.h"

#define CXL_DEVICES "/sys/bus/cxl/devices"

bool ct_poison_memdev_name_ok(const char *memdev)
{
	size_t n = strlen(memdev);

	if (n < 4 || n > 16 || strncmp(memdev, "mem", 3))
		return false;
	for (size_t i = 3; i < n; i++)
		if (!isdigit((unsigned char)memdev[i]))
			return false;
	return true;
}

/* ---- records into a list ---- */

void ct_poison_list_init(struct ct_poison_list *l, const char *memdev, enum ct_poison_trace trace)
{
	memset(l, 0, sizeof(*l));
	snprintf(l->memdev, sizeof(l->memdev), "%s", memdev);
	l->trace = trace;
}

int ct_poison_list_add(struct ct_poison_list *l, const struct ct_event *e)
{
	struct ct_poison *p;

	if (e->kind != CT_EV_POISON || e->trace_type != l->trace || strcmp(e->memdev, l->memdev))
		return 1;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		struct ct_poison *r = realloc(l->recs, cap * sizeof(*r));
		if (!r)
			return -ENOMEM;
		l->recs = r;
		l->cap = cap;
	}
	p = &l->recs[l->n++];
	memset(p, 0, sizeof(*p));
	p->dpa = e->dpa;
	p->length = e->dpa_length;
	p->has_hpa = e->has_hpa;
	p->hpa = e->hpa;
	p->has_hpa_alias = e->has_hpa_alias;
	p->hpa_alias = e->hpa_alias;
	snprintf(p->region, sizeof(p->region), "%s", e->region);
	p->has_region_uuid = e->has_region_uuid;
	memcpy(p->region_uuid, e->region_uuid, sizeof(p->region_uuid));
	p->source = e->source;
	p->flags = e->poison_flags;
	p->overflow_ts = e->poison_flags & CT_POISON_OVERFLOW ? e->overflow_ts : 0;
	p->trace_time = e->trace_time;
	return 0;
}

static int by_dpa(const void *a, const void *b)
{
	const struct ct_poison *x = a, *y = b;

	if (x->dpa != y->dpa)
		return x->dpa < y->dpa ? -1 : 1;
	if (x->length != y->length)
		return x->length < y->length ? -1 : 1;
	return 0;
}

/* the same record twice: only when the trace time differs */
static bool same(const struct ct_poison *a, const struct ct_poison *b)
{
	return a->dpa == b->dpa && a->length == b->length && a->has_hpa == b->has_hpa && a->hpa == b->hpa &&
	       a->source == b->source && (a->flags & ~CT_POISON_MORE) == (b->flags & ~CT_POISON_MORE) &&
	       a->overflow_ts == b->overflow_ts && !strcmp(a->region, b->region);
}

void ct_poison_list_finish(struct ct_poison_list *l)
{
	size_t k = 0;

	if (l->n)	/* stable enough: equal keys are merged or kept in trace order */
		qsort(l->recs, l->n, sizeof(*l->recs), by_dpa);
	l->bytes = 0;
	for (size_t i = 0; i < l->n; i++) {
		const struct ct_poison *p = &l->recs[i];
		bool dup = false;
		for (size_t j = k; j-- > 0 && l->recs[j].dpa == p->dpa;)
			if (same(&l->recs[j], p)) {
				dup = true;
				break;
			}
		if (dup)
			continue;
		l->recs[k++] = *p;
		l->bytes += p->length;
		if (p->flags & CT_POISON_SCANNING)
			l->scanning = true;
		if (p->flags & CT_POISON_OVERFLOW) {
			if (!l->overflow || (p->overflow_ts && p->overflow_ts < l->overflow_ts))
				l->overflow_ts = p->overflow_ts;
			l->overflow = true;
		}
	}
	l->n = k;
}

void ct_poison_list_free(struct ct_poison_list *l)
{
	free(l->recs);
	l->recs = NULL;
	l->n = l->cap = 0;
}

/* ---- reading the kernel's list ---- */

struct ct_poison_reader {
	struct ct_context *ctx;
	struct ct_event_source *src;	/* made on the first read */
};

int ct_poison_open(struct ct_context *ctx, struct ct_poison_reader **out)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return ct_fail(&ctx->err, ENOMEM, "out of memory");
	(*out)->ctx = ctx;
	return 0;
}

int ct_poison_close(struct ct_poison_reader *r)
{
	int rc;

	if (!r)
		return 0;
	rc = ct_event_source_close(r->src);
	free(r);
	return rc;
}

/* why there is no trigger_poison_list for memdev: -ENODEV or -EOPNOTSUPP */
static int no_trigger(struct ct_context *ctx, const char *memdev)
{
	struct ct_kernel_release rel;
	char path[128];

	snprintf(path, sizeof(path), CXL_DEVICES "/%s/driver", memdev);
	if (!ct_sysfs_exists(&ctx->sys, path))
		return ct_fail(&ctx->err, ENODEV, "%s is not bound to the cxl_mem driver: the kernel offers its "
			       "poison list only then (modprobe cxl_mem, or see 'cxltier doctor')", memdev);
	ct_kernel_release(ctx, &rel);
	ct_error_clear(&ctx->err);
	if (rel.major && !ct_kernel_at_least(&rel, 6, 4))
		return ct_fail(&ctx->err, EOPNOTSUPP, "%s: Linux %s has no trigger_poison_list (6.4 and later read "
			       "a device's poison list)", memdev, rel.text);
	return ct_fail(&ctx->err, EOPNOTSUPP, "%s: the kernel offers no poison list for it (no %s/%s/trigger_poison_list): "
		       "the device does not support Get Poison List", memdev, CXL_DEVICES, memdev);
}

/* the kernel says a sanitize of memdev is running (memN/security/state, 6.5) */
static bool sanitizing(struct ct_context *ctx, const char *memdev)
{
	char path[128], state[32];

	snprintf(path, sizeof(path), CXL_DEVICES "/%s/security/state", memdev);
	if (ct_sysfs_read_str(&ctx->sys, path, state, sizeof(state))) {
		ct_error_clear(&ctx->err);
		return false;
	}
	return !strcmp(state, "sanitize");
}

static int being_sanitized(struct ct_context *ctx, const char *memdev)
{
	return ct_fail(&ctx->err, EBUSY, "%s is being sanitized (security/state says so): the kernel refuses its "
		       "mailbox until the device has finished; its poison list was not read: read it when the "
		       "sanitize is over", memdev);
}

static int trigger(struct ct_context *ctx, const char *memdev, const char *path)
{
	int rc = ct_sysfs_write_str(&ctx->sys, path, "1");

	if (!rc)
		return 0;
	ct_error_clear(&ctx->err);
	switch (-rc) {
	case EBUSY:
		if (sanitizing(ctx, memdev))
			return being_sanitized(ctx, memdev);
		return ct_fail(&ctx->err, EBUSY, "%s is busy (a media scan, a sanitize or another mailbox command is "
			       "running): its poison list was not read; try again when that has finished", memdev);
	case EACCES:
	case EPERM:
		return ct_fail(&ctx->err, -rc, "%s: reading the poison list needs root (writing %s)", memdev, path);
	case EINVAL:
		return ct_fail(&ctx->err, ENODEV, "%s has no endpoint port: the kernel cannot read its poison list "
			       "(is cxl_port loaded? see 'cxltier doctor')", memdev);
	case EINTR:
		return ct_fail(&ctx->err, EINTR, "%s: reading the poison list was interrupted", memdev);
	case ENXIO:
	case EIO:
	case ETIMEDOUT:
		return ct_fail(&ctx->err, -rc, "%s: the device failed Get Poison List (%s); the kernel log says "
			       "why (dmesg | grep %s)", memdev, strerror(-rc), memdev);
	default:
		return ct_fail(&ctx->err, -rc, "%s: reading the poison list failed: %s", memdev, strerror(-rc));
	}
}

static int collect(const struct ct_event *e, void *arg)
{
	return ct_poison_list_add(arg, e) < 0 ? -ENOMEM : 0;
}

static int open_source(struct ct_poison_reader *r, const char *memdev)
{
	static const char *const events[] = { "cxl_poison", NULL };
	struct ct_event_source_opts o = { .role = "poison", .events = events };
	struct ct_context *ctx = r->ctx;
	char why[sizeof(ctx->err.msg)];
	int rc;

	if (r->src)
		return 0;
	rc = ct_event_source_open(ctx, &o, &r->src);
	if (rc) {
		snprintf(why, sizeof(why), "%s", ctx->err.msg);
		return ct_fail(&ctx->err, -rc, "%s: the poison list comes as cxl_poison trace records: %s", memdev, why);
	}
	return 0;
}

int ct_poison_read(struct ct_poison_reader *r, const char *memdev, struct ct_poison_list *l)
{
	struct ct_context *ctx = r->ctx;
	unsigned long lost;
	char path[128];
	int rc;

	ct_poison_list_init(l, memdev, CT_POISON_TRACE_LIST);
	if (!ctx->live)
		return ct_fail(&ctx->err, EOPNOTSUPP, "%s: the poison list is read from the device, not from a captured tree",
			       memdev);
	if (!ct_poison_memdev_name_ok(memdev))
		return ct_fail(&ctx->err, EINVAL, "'%s' is not a memdev name (memN)", memdev);
	snprintf(path, sizeof(path), CXL_DEVICES "/%s", memdev);
	if (!ct_sysfs_exists(&ctx->sys, path))
		return ct_fail(&ctx->err, ENOENT, "no memdev %s", memdev);
	snprintf(path, sizeof(path), CXL_DEVICES "/%s/trigger_poison_list", memdev);
	if (!ct_sysfs_exists(&ctx->sys, path))
		return no_trigger(ctx, memdev);
	if (geteuid() != 0)
		return ct_fail(&ctx->err, EACCES, "%s: reading the poison list needs root (it writes %s and reads the "
			       "kernel's trace buffer)", memdev, path);
	/* the kernel would refuse the trigger: say so before making an instance */
	if (sanitizing(ctx, memdev))
		return being_sanitized(ctx, memdev);
	if ((rc = open_source(r, memdev)))
		return rc;
	/* what an earlier read left behind is not this list */
	if ((rc = ct_event_source_read(r->src, collect, &(struct ct_poison_list){ .trace = 0xff })))
		return rc;
	lost = ct_event_source_lost(r->src);
	if ((rc = trigger(ctx, memdev, path)))
		return rc;
	/* the kernel traced every record before the write returned */
	rc = ct_event_source_read(r->src, collect, l);
	if (rc == -ENOMEM)
		return ct_fail(&ctx->err, ENOMEM, "%s: out of memory for its poison list", memdev);
	if (rc)
		return rc;
	l->lost = ct_event_source_lost(r->src) - lost;
	ct_poison_list_finish(l);
	return 0;
}

int ct_poison_read_one(struct ct_context *ctx, const char *memdev, struct ct_poison_list *l)
{
	struct ct_poison_reader *r;
	int rc, crc;

	ct_poison_list_init(l, memdev, CT_POISON_TRACE_LIST);
	if ((rc = ct_poison_open(ctx, &r)))
		return rc;
	rc = ct_poison_read(r, memdev, l);
	crc = ct_poison_close(r);
	return rc ? rc : crc;
}
