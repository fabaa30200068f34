/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* private to lib/events/ (unit tests in test/ may include it): other folders
 * and the CLI go through event-source.h */
/*
 * event-owner.h - who owns a private tracefs instance of cxltier's: its
 * name says it, "cxltier-ROLE-PID-START-PIDNS" (the owner's pid, the pid's
 * start time in clock ticks since boot, its pid namespace: core/owner.h),
 * so that an instance left by a killed owner is recognised and removed by
 * the next open, and no instance is removed unless it is provably ours and
 * stale. The shared instance ("cxltier") has no owner.
 */
#ifndef CXLTIER_EVENT_OWNER_H
#define CXLTIER_EVENT_OWNER_H

#include <stdbool.h>
#include <stddef.h>
#include "core/owner.h"

struct ct_context;

struct ct_event_owner {
	char role[16];			/* "follow", "poison"... ([a-z]+) */
	struct ct_owner owner;		/* its pid and that pid's start time */
	unsigned long long pidns;	/* pid namespace inode */
};

/* a private instance's name and what it records; 0, or -ENAMETOOLONG;
 * parse: 0, or -EINVAL when the name is not one of ours; pure */
int ct_event_owner_name(const struct ct_event_owner *o, char *buf, size_t len);
int ct_event_owner_parse(const char *name, struct ct_event_owner *o);

/* this process as the owner of an instance for ROLE: 0 or -errno with a message */
int ct_event_owner_self(struct ct_context *ctx, const char *role, struct ct_event_owner *self);

/* is the instance NAME provably a private one of ours whose owner is gone:
 * same pid namespace as SELF, and its pid no longer runs or now belongs to
 * a process started at another time */
bool ct_event_owner_stale(struct ct_context *ctx, const char *name, const struct ct_event_owner *self);

/* remove the instance NAME; one that cannot go (a reader holds it open)
 * has its tracing turned off, and the message says so. One already gone is
 * not an error. 0 or -errno. */
int ct_event_owner_remove(struct ct_context *ctx, const char *name);

/* remove every stale instance (up to MAX of them): their names, malloc'd,
 * in REMOVED; how many */
size_t ct_event_owner_remove_stale(struct ct_context *ctx, const struct ct_event_owner *self, char **removed,
				   size_t max);

#endif
