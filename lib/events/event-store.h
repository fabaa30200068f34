/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * event-store.h - the durable history of CXL event records: an SQLite
 * database (default /var/lib/cxltier/events.db, WAL mode, so readers never
 * block the writer), written by the follower (`events --follow --store`,
 * cxltier-events.service), read by `events`, `events --summary`, `metrics`
 * and `doctor`.
 *
 * One row per record, stored once: a record is known by its device (serial,
 * PCI address and memdev), log, handle, device time (to the second) and
 * record UUID when it has the common header (General Media, DRAM, Memory
 * Module, generic), else by its tracepoint, emit time and fields. Every
 * field is kept under the kernel's name (event-blob.h), so that what
 * `events -j` showed live is shown again from the store.
 *
 * One clock: each record keeps the device's time (what it says) beside the
 * host's (when it reached the host: the kernel's emit time; a record of a
 * file, which does not say, its device's time). Every window and bound
 * counts by the host's: the age and size bounds prune what arrived first,
 * page retirement's window, doctor's days. A device whose records' times
 * are far from when they arrived is told once (ct_event_store_on_clock).
 *
 * One identity a device (`devices`, each record's `device`): its serial
 * ("serial:0x1234") while no other card reports the same one; with none (0)
 * its PCI address and memdev ("pci:0000:0d:00.0/mem0"); a serial two cards
 * report, each card's serial, PCI address and memdev
 * ("serial:0x1234@0000:0d:00.0/mem0"), the first card's history kept
 * under its own from then on. Counting, limits and retirements go by it.
 *
 * Per device, kind and severity a counter that only grows (pruning and
 * restarts leave it), for `metrics`.
 *
 * Schema versioned (PRAGMA user_version) and marked as cxltier's
 * (application_id): a file that is not an SQLite database, is damaged, or is
 * another program's is moved aside as NAME.bad-YYYYmmddTHHMMSSZ (with its
 * -wal and -shm) and a new store started; a store of a newer schema is left
 * alone and refused; one of an older schema is upgraded in place (by a
 * reader too, when it may write). The directory must be the caller's own
 * (root's), not writable by others, reached with no symbolic link.
 *
 * The writer queues records in memory and commits them in one transaction
 * per flush; a busy, full or read-only database keeps them queued for the
 * next flush (up to CT_EVENT_STORE_QUEUE_MAX; when it is full the oldest
 * tenth is dropped and counted as unkept). Every table is bounded: the
 * records by age and size (what arrived first goes first, what was pruned
 * counted in the store); the retirement decisions one a page, the oldest
 * going past a sixteenth of the size bound (at most CT_EVENT_STORE_DECISIONS
 * without one); the devices and counters past CT_EVENT_STORE_DEVICES rows.
 * Records are never pruned to make room for the decisions: those have their
 * share, the records always the rest.
 */
#ifndef CXLTIER_EVENT_STORE_H
#define CXLTIER_EVENT_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/error.h"
#include "events/event.h"
#include "events/event-filter.h"
#include "events/event-summary.h"

#define CT_EVENT_STORE_DIR "/var/lib/cxltier"
#define CT_EVENT_STORE_PATH CT_EVENT_STORE_DIR "/events.db"
#define CT_EVENT_STORE_SCHEMA 3	/* 1: records and counts; 2: retirements; 3: the host's time, devices,
				 * decisions one a page (a store of 1 or 2 is upgraded) */
#define CT_EVENT_STORE_QUEUE_MAX 100000	/* records held while the database cannot take them */
#define CT_EVENT_STORE_SAME_MS 10	/* a headerless record this close in time, same fields: the same emission */
#define CT_EVENT_STORE_DECISIONS 65536	/* retirement decisions kept without a size bound */
#define CT_EVENT_STORE_DECISION_BYTES 512	/* what one takes, for its share of a size bound */
#define CT_EVENT_STORE_DEVICES 4096	/* devices and counters kept */
#define CT_EVENT_STORE_FAR_CLOCK_NS (600ULL * 1000000000ULL)	/* a device's time this far from the host's: told */

struct ct_event_store;

struct ct_event_store_limits {
	uint64_t max_age_s;	/* records that arrived longer ago than this pruned; 0 none */
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
/* reader: -ENOENT (and no message) when there is no store; a store of an
 * older schema upgraded first (-EROFS and a message when it cannot be) */
int ct_event_store_open_reader(const char *path, struct ct_event_store **out, struct ct_error *err);
void ct_event_store_close(struct ct_event_store *s);

/* queue a record (copied), its host time taken now; flushed by
 * ct_event_store_flush */
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
/* the writer: fn told, once a handle, of a device whose record's time is
 * more than CT_EVENT_STORE_FAR_CLOCK_NS from when it arrived (its clock
 * less the host's, in ns), after the commit */
typedef void (*ct_event_store_clock_fn)(const struct ct_event *e, const char *identity, int64_t off_ns, void *arg);
void ct_event_store_on_clock(struct ct_event_store *s, ct_event_store_clock_fn fn, void *arg);
/* the identity the store gives e's device (none made): 0, or -errno with a
 * message */
int ct_event_store_identity(struct ct_event_store *s, const struct ct_event *e, char *buf, size_t len,
			    struct ct_error *err);
/* is this record (read live) already in the store? */
bool ct_event_store_has(struct ct_event_store *s, const struct ct_event *e);

/* The records a filter takes (its time: the record's own, as shown), oldest
 * first, read one at a time as they are shown: memory stays what one record
 * takes, whatever the store holds. The cursor holds the store's state as it
 * was at the open (a read transaction) until it is closed. */
struct ct_event_store_cursor;
/* 0 and *out, with *count the records it gives; -errno with a message */
int ct_event_store_cursor_open(struct ct_event_store *s, const struct ct_event_filter *f,
			       struct ct_event_store_cursor **out, uint64_t *count, struct ct_error *err);
/* the next record into e (with its received_ns and identity): 1; 0 at the
 * end; -errno with a message */
int ct_event_store_cursor_next(struct ct_event_store_cursor *c, struct ct_event *e, struct ct_error *err);
/* back to the first */
void ct_event_store_cursor_rewind(struct ct_event_store_cursor *c);
void ct_event_store_cursor_close(struct ct_event_store_cursor *c);

/* the records a filter takes counted into sum (event-summary.h) by the
 * database's own grouping: per memdev, kind, severity and day, and every
 * page with corrected errors (call ct_event_summary_finish after) */
int ct_event_store_summarize(struct ct_event_store *s, const struct ct_event_filter *f,
			     struct ct_event_summary *sum, struct ct_error *err);
/* per memdev and serial (0: none) of the records that arrived since
 * week_ns: the corrected errors that arrived since day_ns, those between
 * before_ns and day_ns, and the failure and fatal records */
typedef void (*ct_event_window_fn)(const char *memdev, bool has_serial, uint64_t serial, uint64_t day,
				   uint64_t before, uint64_t bad, void *arg);
int ct_event_store_windows(struct ct_event_store *s, uint64_t day_ns, uint64_t before_ns, uint64_t week_ns,
			   ct_event_window_fn fn, void *arg, struct ct_error *err);

/* the counters: per memdev, serial (0 none), kind and severity name */
typedef void (*ct_event_count_fn)(const char *memdev, uint64_t serial, const char *kind, const char *severity,
				  uint64_t n, void *arg);
int ct_event_store_counts(struct ct_event_store *s, ct_event_count_fn fn, void *arg, struct ct_error *err);
/* rows pruned ever, rows now */
int ct_event_store_totals(struct ct_event_store *s, uint64_t *rows, uint64_t *pruned, struct ct_error *err);

#endif
