/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * event-source.h - CXL event records from the kernel's tracepoints (cxl:*),
 * read from a tracefs instance of cxltier's own so that the global buffer
 * and other tools' instances (rasdaemon) are never disturbed.
 *
 * Two kinds of instance:
 *  - the shared one, "cxltier": it persists between runs and keeps what
 *    arrives while no cxltier runs; each read consumes what it returns;
 *  - a private one, owned by this process and removed when it is closed:
 *    its name records the owner (event-owner.h), so that an instance left
 *    by a killed owner is recognised and removed by the next open, and no
 *    instance is removed unless it is provably ours and stale.
 *
 * Every record comes decoded (struct ct_event: every field of the
 * tracepoint under the kernel's name, and the decoded view).
 */
#ifndef CXLTIER_EVENT_SOURCE_H
#define CXLTIER_EVENT_SOURCE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include "events/event.h"

struct ct_context;
struct ct_event_source;

#define CT_EVENT_SHARED_INSTANCE "cxltier"

struct ct_event_source_opts {
	bool shared;			/* the shared instance; else a private one */
	const char *role;		/* private: "follow", "poison"... ([a-z]+) */
	const char *const *events;	/* tracepoints of the cxl system; NULL: all */
	/* shared: open the instance only when it exists, and change nothing in
	 * it (a read): -ENODATA when there is none */
	bool existing;
};

/* a record: return 0 to go on, non-zero to stop (a negative value is
 * returned by the read) */
typedef int (*ct_event_fn)(const struct ct_event *e, void *arg);

/* -ENOENT tracefs not mounted, -EOPNOTSUPP no CXL tracepoints on this
 * kernel, -EACCES not root; stale private instances are removed first.
 * Under a context's sysroot, tracefs is its sys/kernel/tracing */
int ct_event_source_open(struct ct_context *ctx, const struct ct_event_source_opts *o,
			 struct ct_event_source **out);
/* consume and decode every record in the buffer now, oldest first */
int ct_event_source_read(struct ct_event_source *s, ct_event_fn fn, void *arg);

/* fn's answer for a record it did not show (ct_event_source_read_shared) */
#define CT_EVENT_KEEP 1

struct ct_event_keep_report {
	size_t kept;			/* records kept now for later runs */
	unsigned long dropped;		/* the oldest kept ones, dropped for room */
	size_t damaged_bytes;		/* of a damaged store, dropped */
	size_t undecodable;		/* kept ones this kernel has no tracepoint for */
	int hold_rc;			/* 0, or why a record to keep could not be held */
	int store_rc;			/* 0, or why the store could not be written */
	size_t unkept;			/* records this run read, hid and could not keep: lost */
};

/*
 * The shared instance: first the records that earlier runs read but did not
 * show (event-keep.h), then those in the buffer, oldest first. A record for
 * which fn returns CT_EVENT_KEEP is kept for later runs; any other record fn
 * is given is consumed. The store is locked for the whole read (another
 * reader waits up to timeout_ms). Returns the read's error. What could not
 * be kept is in rep: hold_rc (a record not held: out of memory), store_rc
 * (the store not written, with the message in the context: the old store
 * stays), unkept (this run's records so lost: the buffer has been read).
 */
int ct_event_source_read_shared(struct ct_event_source *s, ct_event_fn fn, void *arg, unsigned timeout_ms,
				struct ct_event_keep_report *rep);
/* read every interval_ms until *stop is set (a signal handler) or fn stops;
 * after each read tick(arg) when given (the caller's periodic work: a
 * non-zero answer ends the follow with it); -ENOENT when the instance
 * disappeared under us, -EPIPE when watch_fd (if >= 0: where the events go)
 * reports that its reader went away */
int ct_event_source_follow(struct ct_event_source *s, ct_event_fn fn, int (*tick)(void *arg), void *arg,
			   const volatile sig_atomic_t *stop, unsigned interval_ms, int watch_fd);
/* remove a private instance, free everything: 0, or -errno when the
 * instance could not be removed (its tracing is then off) */
int ct_event_source_close(struct ct_event_source *s);

const char *ct_event_source_instance(const struct ct_event_source *s);
bool ct_event_source_created(const struct ct_event_source *s);	/* it did not exist before */
/* the ring buffer per CPU it was made with (KiB; 0: found, not made) */
unsigned ct_event_source_buffer_kb(const struct ct_event_source *s);
/* an existing shared instance opened to read: its cxl events or its
 * tracing are off (it was left as it was) */
bool ct_event_source_idle(const struct ct_event_source *s);
/* the shared instance was there but not recording (its cxl events or its
 * tracing off), and was turned on again: what came meanwhile is not in it */
bool ct_event_source_reenabled(const struct ct_event_source *s);
/* when (wall-clock ns) the instance was surely recording: every record
 * emitted from then on is in it */
uint64_t ct_event_source_recording_since(const struct ct_event_source *s);
unsigned long ct_event_source_lost(const struct ct_event_source *s);	/* records the buffer dropped */
/* the stale instances this open removed (names valid until close) */
size_t ct_event_source_stale_removed(const struct ct_event_source *s, const char *const **names);

/* remove the shared instance (stop keeping events): *removed says whether it existed */
int ct_event_shared_remove(struct ct_context *ctx, bool *removed);

/* the records of the given tracepoints the kernel emits while action runs
 * (a private instance for the purpose, removed afterwards); returns the
 * action's error, else the read's */
int ct_event_collect(struct ct_context *ctx, const char *role, const char *const *events,
		     int (*action)(void *arg), void *action_arg, ct_event_fn fn, void *fn_arg);

#endif
