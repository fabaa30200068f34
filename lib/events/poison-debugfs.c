// SPDX-License-Identifier: LGPL-2.1-or-later
/* poison-debugfs.c - the test tools: Inject Poison and Clear Poison through
 * the kernel's debugfs files cxl/memN/inject_poison and clear_poison (one
 * 64-byte cacheline per write; the kernel checks the address against the
 * device's capacity and alignment, sends the mailbox command and traces the
 * cacheline as cxl:cxl_poison, inject or clear, with its region and HPA) */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "core/context.h"
#include "events/event-source.h"
#include "events/poison.h"

#define DEBUGFS_CXL "/sys/kernel/debug/cxl"

struct job {
	struct ct_context *ctx;
	const char *memdev, *what, *file;
	uint64_t dpa, len, done;
	bool ran;
};

static int write_lines(void *arg)
{
	struct job *j = arg;
	char val[32];
	int rc;

	j->ran = true;
	for (uint64_t off = 0; off < j->len; off += CT_POISON_LINE) {
		snprintf(val, sizeof(val), "0x%" PRIx64, j->dpa + off);
		rc = ct_sysfs_write_str(&j->ctx->sys, j->file, val);
		if (!rc) {
			j->done += CT_POISON_LINE;
			continue;
		}
		ct_error_clear(&j->ctx->err);
		switch (-rc) {
		case EBUSY:
			return ct_fail(&j->ctx->err, EBUSY, "%s: the device refused to %s DPA 0x%" PRIx64 ": its "
				       "injection limit is reached or it is busy (clear some poison, or try later)",
				       j->memdev, j->what, j->dpa + off);
		case EINVAL:
		case EFAULT:
			return ct_fail(&j->ctx->err, EINVAL, "%s: the kernel or the device refused DPA 0x%" PRIx64
				       " as an address to %s (%s)", j->memdev, j->dpa + off, j->what, strerror(-rc));
		case EACCES:
		case EPERM:
			return ct_fail(&j->ctx->err, -rc, "%s: writing %s was refused (%s): root is needed, and a "
				       "kernel in lockdown refuses debugfs writes", j->memdev, j->file, strerror(-rc));
		default:
			return ct_fail(&j->ctx->err, -rc, "%s: %s DPA 0x%" PRIx64 " failed: %s (dmesg says more)",
				       j->memdev, j->what, j->dpa + off, strerror(-rc));
		}
	}
	return 0;
}

static int collect(const struct ct_event *e, void *arg)
{
	return ct_poison_list_add(arg, e) < 0 ? -ENOMEM : 0;
}

static int check(struct ct_context *ctx, const char *memdev, uint64_t capacity, uint64_t dpa, uint64_t len,
		 const char *what, const char *file)
{
	char path[128];

	if (!ctx->live)
		return ct_fail(&ctx->err, EOPNOTSUPP, "%s: poison is %sed on the device, not on a captured tree", memdev, what);
	if (!ct_poison_memdev_name_ok(memdev))
		return ct_fail(&ctx->err, EINVAL, "'%s' is not a memdev name (memN)", memdev);
	if (dpa % CT_POISON_LINE || len % CT_POISON_LINE || !len)
		return ct_fail(&ctx->err, EINVAL, "%s: DPA 0x%" PRIx64 " and length %" PRIu64 " must be multiples of %d "
			       "(poison is %sed by 64-byte cacheline)", memdev, dpa, len, CT_POISON_LINE, what);
	if (len > CT_POISON_INJECT_MAX)
		return ct_fail(&ctx->err, EINVAL, "%s: at most %d bytes at a time (%d cachelines, one mailbox "
			       "command each)", memdev, CT_POISON_INJECT_MAX, CT_POISON_INJECT_MAX / CT_POISON_LINE);
	if (capacity && (dpa >= capacity || len > capacity - dpa))
		return ct_fail(&ctx->err, EINVAL, "%s: DPA 0x%" PRIx64 "-0x%" PRIx64 " is beyond its capacity "
			       "(0x%" PRIx64 " bytes)", memdev, dpa, dpa + len - 1, capacity);
	if (geteuid() != 0)
		return ct_fail(&ctx->err, EACCES, "%s: poison is %sed through debugfs, which is root's", memdev, what);
	if (ct_sysfs_exists(&ctx->sys, file))
		return 0;
	if (!ct_sysfs_exists(&ctx->sys, DEBUGFS_CXL))
		return ct_fail(&ctx->err, EOPNOTSUPP, "no %s: debugfs is not mounted (mount -t debugfs none "
			       "/sys/kernel/debug) or the kernel has no CONFIG_DEBUG_FS", DEBUGFS_CXL);
	snprintf(path, sizeof(path), DEBUGFS_CXL "/%s", memdev);
	if (!ct_sysfs_exists(&ctx->sys, path))
		return ct_fail(&ctx->err, ENODEV, "no %s: %s is not bound to the cxl_mem driver", path, memdev);
	return ct_fail(&ctx->err, EOPNOTSUPP, "no %s: the device does not support %s Poison (its Command "
		       "Effects Log lacks it)", file, !strcmp(what, "inject") ? "Inject" : "Clear");
}

static int run(struct ct_context *ctx, const char *memdev, uint64_t capacity, uint64_t dpa, uint64_t len,
	       enum ct_poison_trace trace, struct ct_poison_list *traced, uint64_t *done)
{
	static const char *const events[] = { "cxl_poison", NULL };
	const char *what = trace == CT_POISON_TRACE_INJECT ? "inject" : "clear";
	char file[128];
	struct job j = { ctx, memdev, what, file, dpa, len, 0, false };
	int rc;

	*done = 0;
	ct_poison_list_init(traced, memdev, trace);
	snprintf(file, sizeof(file), DEBUGFS_CXL "/%s/%s_poison", memdev, what);
	if ((rc = check(ctx, memdev, capacity, dpa, len, what, file)))
		return rc;
	rc = ct_event_collect(ctx, "poison", events, write_lines, &j, collect, traced);
	if (!j.ran) {
		/* no tracing here (not mounted, no cxl_poison): the writes alone */
		ct_error_clear(&ctx->err);
		rc = write_lines(&j);
	}
	*done = j.done;
	ct_poison_list_finish(traced);
	return rc;
}

int ct_poison_inject(struct ct_context *ctx, const char *memdev, uint64_t capacity, uint64_t dpa,
		     uint64_t len, struct ct_poison_list *traced, uint64_t *done)
{
	return run(ctx, memdev, capacity, dpa, len, CT_POISON_TRACE_INJECT, traced, done);
}

int ct_poison_clear(struct ct_context *ctx, const char *memdev, uint64_t capacity, uint64_t dpa,
		    uint64_t len, struct ct_poison_list *traced, uint64_t *done)
{
	return run(ctx, memdev, capacity, dpa, len, CT_POISON_TRACE_CLEAR, traced, done);
}
