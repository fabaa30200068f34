/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * event-store.h - the durable history of CXL event records: an SQLite
 * database (default /var/lib/cxltier/events.db, WAL mode, so readers never
 * block the writer), written by the follower (`events --follow --store`,
 * cxltier-events.service), read by `events`, `events --summary`, `metrics`.
 *
 * One row per record, stored once: a record is known by its device (serial,
 * else memdev), log, handle, timestamp and record UUID when it has the
 * common header (General Media, DRAM, Memory Module, generic), else by its
 * tracepoint, memdev, emit time and fields. Indexed columns (time, memdev,
 * serial, region, kind, severity, DPA, HPA) and every field under the
 * kernel's name (event-blob.h), so that what `events -j` showed live is
 * shown again from the store. Per device, kind and severity a counter that
 * only grows (pruning and restarts leave it), for `metrics`.
 *
 * Schema versioned (PRAGMA user_version) and marked as cxltier's
 * (application_id): a file that is not an SQLite database, is damaged, or is
 * another program's is moved aside as NAME.bad-YYYYmmddTHHMMSSZ (with its
 * -wal and -shm) and a new store started; a store of a newer schema is left
 * alone and refused. The directory must be the caller's own (root's), not
 * writable by others, reached with no symbolic link.
 *
 * The writer queues records in memory and commits them in one transaction
 * per flush; a busy, full or read-only database keeps them queued for the
 * next flush (up to CT_EVENT_STORE_QUEUE_MAX; when it is full the oldest
 * tenth is dropped and counted as unkept). The store is bounded by age and size (oldest first), what was
 * pruned counted in the store.
 */
#ifndef CXLTIER_EVENT_STORE_H
#define CXLTIER_EVENT_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/error.h"
#include "events/event.h"

#define CT_EVENT_STORE_DIR "/var/lib/cxltier"
#define CT_EVENT_STORE_PATH CT_EVENT_STORE_DIR "/events.db"
#define CT_EVENT_STORE_SCHEMA 2	/* 1: records and counts; 2: retirements (a store of 1 is upgraded) */
#define CT_EVENT_STORE_QUEUE_MAX 100000	/* records held while the database cannot take them */
#define CT_EVENT_STORE_SAME_MS 10	/* a headerless record this close in time, same fields: the same emission */

struct ct_event_store;

struct ct_event_store_limits {
	uint64_t max_age_s;	/* records older than this pruned; 0 none */
	uint64_t max_bytes;	/* the database's used pages at most; 0 none */
};

struct ct_event_store_stats {
	uint64_t stored;	/* rows written by this handle */
	uint64_t duplicates;	/* records already stored, not written again */
	uint64_t queued;	/* held for the next flush */
	uint64_t unkept;	/* dropped from a full queue: lost */
	uint64_t pruned;	/* rows removed for age or size, ever (the store's own count) */
	int last_rc;		/* 0, or why the last flush kept its records queued */
	char moved_aside[4200];	/* a damaged or foreign file moved aside at open: where */
};

/* writer: the store opened (the directory CT_EVENT_STORE_DIR made 0700 when
 * it is the default one and missing), its schema made, checked or upgraded.
 * -EPROTONOSUPPORT a newer schema; -EPERM a directory not the caller's own
 * or writable by others; -ELOOP a symbolic link on the way. A failure that
 * may pass (a read-only or full file system, a lock, I/O, no file or
 * directory yet) still gives a handle, 0 returned with stats.last_rc set and
 * err saying why: records are queued and each flush tries to open it */
int ct_event_store_open_writer(const char *path, const struct ct_event_store_limits *lim,
			       struct ct_event_store **out, struct ct_error *err);
/* reader: -ENOENT (and no message) when there is no store */
int ct_event_store_open_reader(const char *path, struct ct_event_store **out, struct ct_error *err);
void ct_event_store_close(struct ct_event_store *s);

/* queue a record (copied); flushed by ct_event_store_flush */
int ct_event_store_add(struct ct_event_store *s, const struct ct_event *e);
/* commit the queue in one transaction, then prune: 0; or -EBUSY, -ENOSPC,
 * -EROFS, -EIO with the records still queued (stats.last_rc) */
int ct_event_store_flush(struct ct_event_store *s, struct ct_error *err);
const struct ct_event_store_stats *ct_event_store_stats(const struct ct_event_store *s);
const char *ct_event_store_path(const struct ct_event_store *s);

/* the stored records with since_ns <= time < until_ns (0: open), oldest
 * first, each decoded as when it was read; fn returns non-zero to stop */
typedef int (*ct_event_store_fn)(const struct ct_event *e, void *arg);
int ct_event_store_each(struct ct_event_store *s, uint64_t since_ns, uint64_t until_ns, ct_event_store_fn fn,
			void *arg, struct ct_error *err);
/* the writer: fn told of each record a flush wrote (not of a duplicate),
 * after its commit (page-retire.h acts on them) */
void ct_event_store_on_new(struct ct_event_store *s, ct_event_store_fn fn, void *arg);
/* is this record (read live) already in the store? */
bool ct_event_store_has(struct ct_event_store *s, const struct ct_event *e);

/* the counters: per memdev, serial (0 none), kind and severity name */
typedef void (*ct_event_count_fn)(const char *memdev, uint64_t serial, const char *kind, const char *severity,
				  uint64_t n, void *arg);
int ct_event_store_counts(struct ct_event_store *s, ct_event_count_fn fn, void *arg, struct ct_error *err);
/* rows pruned ever, rows now */
int ct_event_store_totals(struct ct_event_store *s, uint64_t *rows, uint64_t *pruned, struct ct_error *err);

#endif
