/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * process.h - which processes a command acts on: by pid, by name (every
 * /proc/PID/comm that matches) or by cgroup v2 (cgroup.procs), each once.
 */
#ifndef CXLTIER_PROCESS_H
#define CXLTIER_PROCESS_H

#include <stddef.h>
#include <stdint.h>
#include "sysfs.h"

struct ct_process {
	int pid;
};

struct ct_procset {
	struct ct_process *proc;	/* in the order they were chosen */
	size_t count;
};

/* add one process id (no check that it exists); 0 or -ENOMEM */
int ct_procset_add_pid(struct ct_sysfs *s, struct ct_procset *set, int pid);
/* every process named name; -ESRCH (with a message) when there is none */
int ct_procset_add_comm(struct ct_sysfs *s, struct ct_procset *set, const char *name);
/* every process of a cgroup v2 path: absolute below /sys/fs/cgroup, or
 * relative to it; -ENOENT (with a message) when it cannot be read */
int ct_procset_add_cgroup(struct ct_sysfs *s, struct ct_procset *set, const char *cgroup);
void ct_procset_free(struct ct_procset *set);

#endif
