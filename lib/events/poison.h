/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * poison.h - a CXL memdev's poison list (its media errors) as the kernel
 * reads it. Writing memN/trigger_poison_list (Linux 6.4) makes the kernel
 * send Get Poison List (CXL 3.1 §8.2.9.9.4.1) over the device's capacity -
 * decoder by decoder when a region maps it, so that each record names its
 * region and host physical address - and emit every record as the
 * tracepoint cxl:cxl_poison before the write returns. The records are
 * collected from a private tracefs instance (event-source.h), one per
 * reader, whatever else reads the cxl events meanwhile.
 *
 * The test tools: Inject Poison and Clear Poison through the kernel's
 * debugfs files (cxl/memN/inject_poison, clear_poison), which take one
 * 64-byte cacheline each.
 */
#ifndef CXLTIER_POISON_H
#define CXLTIER_POISON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "events/event.h"

#define CT_POISON_LINE 64		/* a poison record's unit, inject's and clear's */
#define CT_POISON_INJECT_MAX (64 * 1024)	/* one mailbox command per cacheline */

/* the response flags each record carries (Get Poison List output, byte 0) */
#define CT_POISON_MORE (1u << 0)	/* more records followed (the kernel asked for them) */
#define CT_POISON_OVERFLOW (1u << 1)	/* the device's list overflowed: poison after overflow_ts is missing */
#define CT_POISON_SCANNING (1u << 2)	/* a media scan is running: the list may be incomplete */

/* what the kernel's trace says a record is */
enum ct_poison_trace {
	CT_POISON_TRACE_LIST = 0,	/* read from the device's list */
	CT_POISON_TRACE_INJECT = 1,	/* injected through debugfs */
	CT_POISON_TRACE_CLEAR = 2,	/* cleared through debugfs */
};

struct ct_poison {
	uint64_t dpa, length;		/* device physical address and bytes */
	bool has_hpa;			/* the DPA is mapped by a region: */
	uint64_t hpa;			/* the host address of its first byte */
	bool has_hpa_alias;		/* with an extended linear cache: the address */
	uint64_t hpa_alias;		/* of the same byte in the cache's alias range */
	char region[32];
	bool has_region_uuid;
	uint8_t region_uuid[16];
	uint8_t source;			/* 0 unknown, 1 external, 2 internal, 3 injected, 7 vendor */
	uint8_t flags;			/* CT_POISON_* of the response that carried it */
	uint64_t overflow_ts;		/* device time of the overflow (ns since 1970); 0 none */
	uint64_t trace_time;		/* when the kernel traced it (ns since 1970); 0 unknown */
};

struct ct_poison_list {
	char memdev[32];		/* whose records are kept */
	enum ct_poison_trace trace;	/* which records are kept */
	struct ct_poison *recs;		/* by DPA, duplicates merged */
	size_t n, cap;
	bool overflow, scanning;	/* some response said so */
	uint64_t overflow_ts;		/* the earliest overflow time given */
	uint64_t bytes;			/* sum of the lengths */
	unsigned long lost;		/* records the trace buffer dropped: incomplete */
};

/* ---- pure: records into a list ---- */

void ct_poison_list_init(struct ct_poison_list *l, const char *memdev, enum ct_poison_trace trace);
/* take one decoded event: 1 when it is not one of the list's (another
 * memdev, another trace type, not cxl_poison), 0 kept, -ENOMEM */
int ct_poison_list_add(struct ct_poison_list *l, const struct ct_event *e);
/* sort by DPA, merge identical records (a concurrent read of the same
 * device by another program traces them twice), sum up */
void ct_poison_list_finish(struct ct_poison_list *l);
void ct_poison_list_free(struct ct_poison_list *l);

/* ---- the kernel's poison list of live memdevs (root) ---- */

struct ct_context;
struct ct_poison_reader;

/* never fails but for memory; the tracefs instance is made on the first read */
int ct_poison_open(struct ct_context *ctx, struct ct_poison_reader **out);
/*
 * trigger the list of memdev and collect its records into l (initialised
 * here): 0; -EOPNOTSUPP when the kernel has no trigger_poison_list for it
 * (before 6.4, or a device without Get Poison List) or no cxl_poison
 * tracepoint; -EBUSY when the device is busy (a media scan, sanitize, or
 * another mailbox user): try later; -ENODEV when memdev is not bound to
 * cxl_mem; other -errno with a message naming the memdev
 */
int ct_poison_read(struct ct_poison_reader *r, const char *memdev, struct ct_poison_list *l);
/* 0, or -errno when the tracefs instance could not be removed */
int ct_poison_close(struct ct_poison_reader *r);
/* open, read one, close */
int ct_poison_read_one(struct ct_context *ctx, const char *memdev, struct ct_poison_list *l);

/* ---- test tools: debugfs inject / clear (root, live) ---- */

/*
 * poison (or clear) len bytes from dpa, 64-byte aligned, one cacheline at a
 * time; *done counts the bytes the kernel took. The records the kernel
 * traced for them go into traced (initialised here; empty when tracefs is
 * not there). -EOPNOTSUPP when the kernel has no such debugfs file for
 * memdev (no debugfs, or a device without Inject/Clear Poison); -EINVAL
 * for a misaligned or out-of-range address (checked first: capacity is
 * the memdev's size, 0 when unknown)
 */
int ct_poison_inject(struct ct_context *ctx, const char *memdev, uint64_t capacity, uint64_t dpa,
		     uint64_t len, struct ct_poison_list *traced, uint64_t *done);
int ct_poison_clear(struct ct_context *ctx, const char *memdev, uint64_t capacity, uint64_t dpa,
		    uint64_t len, struct ct_poison_list *traced, uint64_t *done);

/* a memdev name cxltier builds paths with: "mem" and digits */
bool ct_poison_memdev_name_ok(const char *memdev);

#endif
