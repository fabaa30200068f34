/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* child.h - cxltier started again as a child of this process (another
 * command of the same program, whatever its path has become since: a package
 * upgrade may have replaced it), with the signals that end a run back at
 * their defaults and unblocked, held by a pidfd until it is reaped; and a
 * line for the service manager that started us (sd_notify(3)'s protocol) */
#ifndef CXLTIER_CHILD_H
#define CXLTIER_CHILD_H

#include <sys/types.h>
#include "core/error.h"

struct ct_child {
	pid_t pid;		/* 0: none */
	int pidfd;		/* poll it: readable once the child has ended */
};

/* argv[0] is the name it runs under; 0 or -errno */
int ct_child_start_self(struct ct_child *c, char *const argv[], struct ct_error *err);
/* its wait status once it ended (waits for it), the pidfd closed */
int ct_child_reap(struct ct_child *c);

/* the service manager's notification socket (NOTIFY_SOCKET) taken from the
 * environment, so that no child inherits it: into sock ("" when none) */
void ct_notify_take(char *sock, size_t size);
/* "READY=1", "STATUS=..." to that socket; 0 or -errno (nothing when "") */
int ct_notify(const char *sock, const char *msg);

#endif
