/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* pidfd.h - a process held by a descriptor (pidfd_open, Linux 5.3+): its pid
 * cannot name another process while the descriptor is open. glibc 2.36
 * (Debian 12) has no wrapper; the system call's number is the same on every
 * architecture since 5.3. */
#ifndef CXLTIER_PIDFD_H
#define CXLTIER_PIDFD_H

#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

/* the descriptor, or -1 with errno (ENOSYS before 5.3, ESRCH: no such process) */
static inline int ct_pidfd_open(pid_t pid)
{
	return (int)syscall(SYS_pidfd_open, pid, 0);
}

#endif
