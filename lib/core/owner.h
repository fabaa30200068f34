/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * owner.h - the run that owns kernel state cxltier creates (a DAMON setup,
 * a tracefs instance): recorded as its pid and that pid's start time (clock
 * ticks after boot, /proc/PID/stat field 22), so that a later run tells
 * state whose owner still runs from state a killed run left behind (its
 * owner gone, or its pid now another process's). Where and how the record
 * is kept is the owning subsystem's (mm/damon-owner.h, events/event-owner.h).
 */
#ifndef CXLTIER_OWNER_H
#define CXLTIER_OWNER_H

#include <stddef.h>
#include <stdint.h>
#include "core/sysfs.h"

struct ct_owner {
	int pid;
	uint64_t start;			/* clock ticks after boot */
};

/* what runs as a recorded owner's pid now */
enum ct_owner_state {
	CT_OWNER_RUNS,			/* the owner itself, running */
	CT_OWNER_EXITED,		/* the owner itself, exited but not yet reaped (a zombie) */
	CT_OWNER_GONE,			/* no process has its pid, or one started at another time */
	CT_OWNER_UNKNOWN,		/* its /proc/PID/stat cannot be read, or makes no sense */
};

/* this process: 0, or -ESRCH with a message when its own stat cannot be read */
int ct_owner_self(struct ct_sysfs *s, struct ct_owner *self);

/* the state of a recorded owner; COMM (LEN bytes, may be NULL) gets the name
 * of what runs as its pid, when something does. Leaves no message. */
enum ct_owner_state ct_owner_check(struct ct_sysfs *s, const struct ct_owner *o, char *comm, size_t len);

#endif
