/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * process.h - which processes a command acts on: by pid, by name (every
 * process whose name in /proc/PID/stat is it, whole: a name may hold a
 * newline) or by cgroup v2 (cgroup.procs), each once. Every reader of a
 * process's name and start time goes through ct_proc_stat_read.
 * On a live system each chosen process is held by a pidfd (Linux 5.3+) and
 * its start time is kept, so that a process that exits and whose PID is
 * given to another one is never mistaken for it: ct_process_check before
 * every action. Kernel threads and processes without a memory map are
 * marked (ct_process_movable says whether pages may be moved).
 */
#ifndef CXLTIER_PROCESS_H
#define CXLTIER_PROCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/sysfs.h"

struct ct_process {
	int pid;
	char comm[32];
	int pidfd;			/* -1: not held (a captured tree, or a kernel before 5.3) */
	uint64_t start_time;		/* /proc/PID/stat field 22: clock ticks after boot */
	bool kernel_thread;		/* PF_KTHREAD */
	bool no_mm;			/* no memory map (vsize 0) */
	int err;			/* 0, -ESRCH: it does not exist; -EMFILE, -ENFILE: no fd left to hold it */
	char why[200];			/* that, for the report */
};

struct ct_procset {
	struct ct_process *proc;	/* in the order they were chosen */
	size_t count;
};

/* add one process (once); one that does not exist is added with err and
 * why set. 0 or -ENOMEM. */
int ct_procset_add_pid(struct ct_sysfs *s, struct ct_procset *set, int pid);
/* every process there is (a process that ends meanwhile is left out) */
int ct_procset_add_all(struct ct_sysfs *s, struct ct_procset *set);
/* every process named name, exactly (a name with a newline too); -ESRCH
 * (with a message) when there is none */
int ct_procset_add_comm(struct ct_sysfs *s, struct ct_procset *set, const char *name);
/* every process of a cgroup v2 path: absolute below the cgroup2 mount, or
 * relative to it; -ENOENT (with a message) when it cannot be read */
int ct_procset_add_cgroup(struct ct_sysfs *s, struct ct_procset *set, const char *cgroup);
void ct_procset_free(struct ct_procset *set);
/* the cgroup v2 directory of a path given like --cgroup's */
char *ct_cgroup_dir(const char *cgroup, char *buf, size_t len);

/* every chosen process is held by a pidfd for the whole run: the soft limit
 * of open files raised to the hard limit first (1024 by default is a few
 * hundred processes with the files read meanwhile). 0 or -errno. Out of
 * file descriptors anyway, a process is refused (or a check fails) with
 * EMFILE/ENFILE and a message that says so, never as gone. */
int ct_nofile_raise(void);

/* may its pages be moved? 0, or -EPERM with a message: kernel threads and
 * processes without a memory map have none, init is not touched */
int ct_process_movable(struct ct_sysfs *s, const struct ct_process *p);

/* is it still the process that was chosen? 0; -ESRCH "process N (comm)
 * exited"; -ESTALE "... was replaced: PID N is now another process" */
int ct_process_check(struct ct_sysfs *s, const struct ct_process *p);

/* who runs as pid now: its comm and start time (0, or -ESRCH when none) */
int ct_proc_identity(struct ct_sysfs *s, int pid, char *comm, size_t len, uint64_t *start_time);

/* /proc/PID/stat: comm, flags (field 9), start time (22), vsize (23), state
 * (3); the fields are counted from the last ')', since the name between
 * the parentheses may hold spaces, ')' or newlines; pure */
int ct_proc_stat_parse(const char *text, char *comm, size_t len, unsigned long *flags, uint64_t *start_time,
		       uint64_t *vsize, char *state);

/* the same, read from /proc/PID/stat: 0; -ENOENT when there is no such
 * process; another -errno when it cannot be read (with a message), or
 * -EINVAL when it is not a stat (no message) */
int ct_proc_stat_read(struct ct_sysfs *s, int pid, char *comm, size_t len, unsigned long *flags, uint64_t *start_time,
		      uint64_t *vsize, char *state);

#endif
