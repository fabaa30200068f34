/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * event-keep.h - the records of the shared tracefs instance that a run read
 * but did not show (its filters hid them), kept for later runs. Reading a
 * trace buffer consumes what it returns, and the kernel has already cleared
 * the records in the device: without this, a filtered run would lose every
 * record it hid.
 *
 * They live in CT_RUNDIR/events.kept (root's own directory; /run is emptied
 * at boot, as the trace buffer is), under the lock CT_RUNDIR/events.lock.
 * A record is kept raw -- its tracepoint's name, the kernel's times, its
 * bytes -- and decoded again, with the running kernel's format, when read
 * back: a newer cxltier reads what an older one kept.
 */
#ifndef CXLTIER_EVENT_KEEP_H
#define CXLTIER_EVENT_KEEP_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include "core/sysfs.h"

#define CT_KEPT_FILE "events.kept"
#define CT_KEPT_LOCK "events.lock"
#define CT_KEPT_MAX_BYTES (4u << 20)	/* the file at most; the oldest records go first */
#define CT_KEPT_MAX_RECORD 65536	/* bytes of one record's data */

struct ct_event_keep_record {
	char event[48];		/* the tracepoint, in the cxl system ("cxl_dram") */
	uint64_t ts;		/* the record's time on the instance's trace clock */
	uint64_t real_time;	/* its wall-clock time (ns since 1970) when first read */
	int32_t cpu;
	uint32_t size;
	uint8_t *data;		/* size bytes, owned */
};

/* Dropping the oldest record moves r one slot on (head slots, freed, sit
 * before it in the allocation); the array is compacted only once there are
 * at least as many of those as records kept: a drop costs O(1) amortised,
 * however many records a run hides past the bound */
struct ct_event_keep {
	struct ct_event_keep_record *r;	/* n records, oldest first */
	size_t n;
	size_t head, cap;		/* dropped slots before r; slots allocated from r - head */
	size_t bytes;			/* in the file, with its header */
	unsigned long dropped;		/* the oldest, dropped to stay under CT_KEPT_MAX_BYTES */
	size_t moved;			/* records moved to compact the array (the work drops cost; tests) */
};

/* pure: the records in a file's bytes, appended to k. -EBADMSG at the first
 * damaged record (those before it are in k; *bad_at is its offset) */
int ct_event_keep_parse(const void *buf, size_t len, struct ct_event_keep *k, size_t *bad_at);
/* pure: the file's bytes for k (malloc'd) */
int ct_event_keep_serialize(const struct ct_event_keep *k, uint8_t **buf, size_t *len);
/* one more record (the newest), the oldest dropped while the file would be
 * larger than CT_KEPT_MAX_BYTES; -EINVAL for a name or size no file holds */
int ct_event_keep_add(struct ct_event_keep *k, const char *event, uint64_t ts, uint64_t real_time, int cpu, const void *data,
		uint32_t size);
void ct_event_keep_free(struct ct_event_keep *k);

/* the store, locked (waits up to timeout_ms, or until *stop): *lock_fd, and
 * the records kept in k. A damaged file is not an error: the records before
 * the damage are in k, *damaged says how many bytes after them were dropped */
int ct_event_keep_load(struct ct_sysfs *s, unsigned timeout_ms, volatile sig_atomic_t *stop, int *lock_fd,
		 struct ct_event_keep *k, size_t *damaged);
/* replace the store with k (atomically; removed when k is empty), the lock
 * ct_event_keep_load took still held (the caller releases it) */
int ct_event_keep_store(struct ct_sysfs *s, const struct ct_event_keep *k);

#endif
