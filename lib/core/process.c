// SPDX-License-Identifier: LGPL-2.1-or-later
#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "core/process.h"
#include "core/pidfd.h"

#define CGROOT "/sys/fs/cgroup"
#define PF_KTHREAD 0x00200000

int ct_proc_stat_parse(const char *text, char *comm, size_t len, unsigned long *flags, uint64_t *start_time,
		       uint64_t *vsize, char *state)
{
	const char *open = strchr(text, '('), *close = strrchr(text, ')'), *p;
	unsigned long long v;
	char *end;

	if (!open || !close || close < open || close[1] != ' ')
		return -EINVAL;
	snprintf(comm, len, "%.*s", (int)(close - open - 1), open + 1);
	p = close + 2;		/* field 3: state */
	*state = *p;
	for (int field = 3; field <= 23; field++) {
		while (*p == ' ')
			p++;
		if (!*p)
			return -EINVAL;
		if (field == 9 || field == 22 || field == 23) {
			v = strtoull(p, &end, 10);
			if (end == p)
				return -EINVAL;
			if (field == 9)
				*flags = (unsigned long)v;
			else if (field == 22)
				*start_time = v;
			else
				*vsize = v;
		}
		p += strcspn(p, " ");
	}
	return 0;
}

int ct_proc_stat_read(struct ct_sysfs *s, int pid, char *comm, size_t len, unsigned long *flags, uint64_t *start,
		      uint64_t *vsize, char *state)
{
	char path[64], *text;
	int rc;

	/* read whole: a name may hold a newline, and the fields follow it */
	if ((rc = ct_sysfs_read_text(s, ct_path(path, sizeof(path), "/proc/%d/stat", pid), &text)))
		return rc;
	rc = ct_proc_stat_parse(text, comm, len, flags, start, vsize, state) ? -EINVAL : 0;
	free(text);
	return rc;
}

int ct_proc_identity(struct ct_sysfs *s, int pid, char *comm, size_t len, uint64_t *start_time)
{
	unsigned long flags;
	uint64_t vsize;
	char state;

	if (pid <= 0 || ct_proc_stat_read(s, pid, comm, len, &flags, start_time, &vsize, &state) || state == 'Z' ||
	    state == 'X') {
		ct_error_clear(s->err);
		return -ESRCH;
	}
	return 0;
}

/* this process has no file descriptor left: not the other process's doing */
static bool out_of_fds(int err)
{
	return err == EMFILE || err == ENFILE;
}

#define FDS_HINT "too many open files (%s): raise the limit of open files (ulimit -n), or choose fewer processes"
#define FDS_WHY(err) ((err) == ENFILE ? "the system's limit" : "this process's limit")

int ct_nofile_raise(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return -errno;
	if (rl.rlim_cur == rl.rlim_max)
		return 0;
	rl.rlim_cur = rl.rlim_max;
	return setrlimit(RLIMIT_NOFILE, &rl) ? -errno : 0;
}

static bool pidfd_exited(int pidfd)
{
	struct pollfd pf = { .fd = pidfd, .events = POLLIN };

	return pidfd >= 0 && poll(&pf, 1, 0) > 0 && (pf.revents & (POLLIN | POLLHUP));
}

static void refuse(struct ct_process *p, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void refuse(struct ct_process *p, int err, const char *fmt, ...)
{
	va_list ap;

	p->err = -err;
	va_start(ap, fmt);
	vsnprintf(p->why, sizeof(p->why), fmt, ap);
	va_end(ap);
}

/* hold it (live system), learn who it is */
static void open_process(struct ct_sysfs *s, struct ct_process *p)
{
	unsigned long flags = 0;
	uint64_t vsize = 0;
	char state = 0;
	int rc;

	p->pidfd = -1;
	if (!s->root[0]) {
		p->pidfd = ct_pidfd_open(p->pid);
		if (p->pidfd < 0 && errno == ESRCH) {
			refuse(p, ESRCH, "process %d does not exist", p->pid);
			return;
		}
		if (p->pidfd < 0 && out_of_fds(errno)) {
			int e = errno;
			refuse(p, e, "process %d cannot be held: " FDS_HINT, p->pid, FDS_WHY(e));
			return;
		}
		/* other errors (ENOSYS before 5.3): the start time alone tells */
	}
	/* read after the pidfd is held: if it is still running, this is its stat */
	rc = ct_proc_stat_read(s, p->pid, p->comm, sizeof(p->comm), &flags, &p->start_time, &vsize, &state);
	if (out_of_fds(-rc)) {
		ct_error_clear(s->err);
		refuse(p, -rc, "process %d cannot be read: " FDS_HINT, p->pid, FDS_WHY(-rc));
	} else if (rc || pidfd_exited(p->pidfd) || state == 'Z' || state == 'X') {
		ct_error_clear(s->err);
		refuse(p, ESRCH, "process %d does not exist", p->pid);
	} else {
		p->kernel_thread = flags & PF_KTHREAD;
		p->no_mm = !vsize;
	}
}

int ct_process_movable(struct ct_sysfs *s, const struct ct_process *p)
{
	if (p->kernel_thread)
		return ct_fail(s->err, EPERM, "process %d (%s) is a kernel thread: it has no user memory to move", p->pid,
			       p->comm);
	if (p->no_mm)
		return ct_fail(s->err, EPERM, "process %d (%s) has no memory map: nothing to move", p->pid, p->comm);
	if (p->pid == 1)
		return ct_fail(s->err, EPERM, "process 1 (%s) is init: cxltier does not move its memory", p->comm);
	return 0;
}

int ct_procset_add_pid(struct ct_sysfs *s, struct ct_procset *set, int pid)
{
	struct ct_process *np;

	for (size_t i = 0; i < set->count; i++)
		if (set->proc[i].pid == pid)
			return 0;
	np = realloc(set->proc, (set->count + 1) * sizeof(*np));
	if (!np)
		return ct_fail(s->err, ENOMEM, "out of memory");
	set->proc = np;
	np = &set->proc[set->count++];
	memset(np, 0, sizeof(*np));
	np->pid = pid;
	open_process(s, np);
	return 0;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

int ct_procset_add_all(struct ct_sysfs *s, struct ct_procset *set)
{
	char **names;
	size_t count;
	int rc = ct_sysfs_list(s, "/proc", NULL, &names, &count);

	for (size_t i = 0; !rc && i < count; i++)
		if (all_digits(names[i]))
			rc = ct_procset_add_pid(s, set, atoi(names[i]));
	ct_strv_free(names, count);
	return rc;
}

/* a process chosen by its name: added, then its name read again from the
 * stat read once its pidfd is held. A PID whose process ended between the
 * two reads (and that another process may have taken, under another name)
 * is not chosen: it is not the process that was named. */
static int add_named(struct ct_sysfs *s, struct ct_procset *set, int pid, const char *name)
{
	size_t before = set->count;
	struct ct_process *p;
	int rc = ct_procset_add_pid(s, set, pid);

	if (rc || set->count == before)
		return rc;	/* (one chosen already, by --pid: kept) */
	p = &set->proc[set->count - 1];
	if (p->err == -ESRCH || (!p->err && strcmp(p->comm, name))) {
		if (p->pidfd >= 0)
			close(p->pidfd);
		set->count--;
	}
	return 0;
}

int ct_procset_add_comm(struct ct_sysfs *s, struct ct_procset *set, const char *name)
{
	char **names, comm[sizeof(set->proc->comm)], state;
	size_t count, before = set->count;
	unsigned long flags;
	uint64_t start, vsize;
	int rc = ct_sysfs_list(s, "/proc", NULL, &names, &count);

	if (rc)
		return rc;
	for (size_t i = 0; i < count && !rc; i++) {
		if (!all_digits(names[i]))
			continue;
		/* the name from the stat, read whole (not the first line of
		 * /proc/PID/comm: a name may hold a newline). A process that
		 * ends while we look is simply not chosen; one that cannot be
		 * read for want of a file descriptor is an error */
		int r = ct_proc_stat_read(s, atoi(names[i]), comm, sizeof(comm), &flags, &start, &vsize, &state);
		if (out_of_fds(-r))
			rc = ct_fail(s->err, -r, "--comm %s: /proc/%s/stat cannot be read: " FDS_HINT, name, names[i],
				     FDS_WHY(-r));
		else if (!r && !strcmp(comm, name))
			rc = add_named(s, set, atoi(names[i]), name);
	}
	ct_strv_free(names, count);
	if (rc)
		return rc;
	ct_error_clear(s->err);
	if (set->count == before)
		return ct_fail(s->err, ESRCH, "no process named '%s'", name);
	return 0;
}

char *ct_cgroup_dir(const char *cg, char *buf, size_t len)
{
	bool absolute = !strncmp(cg, CGROOT, strlen(CGROOT));

	snprintf(buf, len, "%s%s", absolute ? "" : CGROOT "/", absolute ? cg : cg + (cg[0] == '/'));
	return buf;
}

int ct_procset_add_cgroup(struct ct_sysfs *s, struct ct_procset *set, const char *cg)
{
	char dir[4000], path[4096], why[sizeof(s->err->msg)], *text, *save;
	int rc;

	snprintf(path, sizeof(path), "%s/cgroup.procs", ct_cgroup_dir(cg, dir, sizeof(dir)));
	if (ct_sysfs_read_text(s, path, &text)) {
		ct_strlcpy(why, s->err->msg, sizeof(why));
		return ct_fail(s->err, ENOENT, "cgroup %s: %s", cg, why);
	}
	rc = 0;
	for (char *l = strtok_r(text, "\n", &save); l && !rc; l = strtok_r(NULL, "\n", &save))
		rc = ct_procset_add_pid(s, set, atoi(l));
	free(text);
	return rc;
}

void ct_procset_free(struct ct_procset *set)
{
	for (size_t i = 0; i < set->count; i++)
		if (set->proc[i].pidfd >= 0)
			close(set->proc[i].pidfd);
	free(set->proc);
	set->proc = NULL;
	set->count = 0;
}

int ct_process_check(struct ct_sysfs *s, const struct ct_process *p)
{
	unsigned long flags;
	uint64_t start, vsize;
	char comm[32], state;
	bool gone = pidfd_exited(p->pidfd);

	int rc;

	if (p->err)
		return ct_fail(s->err, -p->err, "%s", p->why);
	if ((rc = ct_proc_stat_read(s, p->pid, comm, sizeof(comm), &flags, &start, &vsize, &state))) {
		ct_error_clear(s->err);
		if (out_of_fds(-rc))
			return ct_fail(s->err, -rc, "process %d (%s) cannot be checked: " FDS_HINT, p->pid, p->comm,
				       FDS_WHY(-rc));
		return ct_fail(s->err, ESRCH, "process %d (%s) exited", p->pid, p->comm);
	}
	if (start != p->start_time)
		return ct_fail(s->err, ESTALE, "process %d (%s) was replaced: PID %d now belongs to another process (%s), "
			       "which is left alone", p->pid, p->comm, p->pid, comm);
	if (gone || state == 'Z' || state == 'X')
		return ct_fail(s->err, ESRCH, "process %d (%s) exited", p->pid, p->comm);
	return 0;
}
