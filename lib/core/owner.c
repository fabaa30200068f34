// SPDX-License-Identifier: LGPL-2.1-or-later
/* owner.c - the run that owns kernel state, and whether it still runs: see owner.h */
#include <errno.h>
#include <unistd.h>
#include "core/owner.h"
#include "core/process.h"

int ct_owner_self(struct ct_sysfs *s, struct ct_owner *self)
{
	char comm[32];

	self->pid = getpid();
	self->start = 0;
	if (ct_proc_identity(s, self->pid, comm, sizeof(comm), &self->start))
		return ct_fail(s->err, ESRCH, "cannot read this process's own /proc/%d/stat", self->pid);
	return 0;
}

enum ct_owner_state ct_owner_check(struct ct_sysfs *s, const struct ct_owner *o, char *comm, size_t len)
{
	char name[32], state;
	unsigned long flags;
	uint64_t start, vsize;
	int rc;

	if (o->pid <= 0)
		return CT_OWNER_UNKNOWN;
	rc = ct_proc_stat_read(s, o->pid, name, sizeof(name), &flags, &start, &vsize, &state);
	ct_error_clear(s->err);
	if (rc == -ENOENT)
		return CT_OWNER_GONE;
	if (rc)
		return CT_OWNER_UNKNOWN;
	if (comm && len)
		ct_strlcpy(comm, name, len);
	if (start != o->start)
		return CT_OWNER_GONE;
	return state == 'Z' || state == 'X' ? CT_OWNER_EXITED : CT_OWNER_RUNS;
}
