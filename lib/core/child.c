// SPDX-License-Identifier: LGPL-2.1-or-later
/* child.c - cxltier started again as a child, held by pidfd; the service
 * manager's notification socket: see child.h */
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include "core/child.h"
#include "core/ending-signals.h"
#include "core/pidfd.h"


extern char **environ;

int ct_child_start_self(struct ct_child *c, char *const argv[], struct ct_error *err)
{
	posix_spawnattr_t attr;
	sigset_t none, ending;
	int r;

	c->pid = 0;
	c->pidfd = -1;
	sigemptyset(&none);
	ct_ending_signals(&ending);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &ending);
	/* the program running now (its inode), not whatever its path names now */
	r = posix_spawn(&c->pid, "/proc/self/exe", NULL, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	if (r) {
		c->pid = 0;
		return ct_fail(err, r, "cannot start cxltier %s: %s", argv[1] ? argv[1] : "", strerror(r));
	}
	/* ours until reaped: the pid cannot be another process's meanwhile */
	if ((c->pidfd = ct_pidfd_open(c->pid)) < 0) {
		pid_t pid = c->pid;

		r = errno;
		kill(pid, SIGTERM);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		c->pid = 0;
		c->pidfd = -1;
		return ct_fail(err, r, "cannot hold cxltier %s (pid %d) by pidfd (Linux 5.3+): %s", argv[1] ? argv[1] : "",
			       (int)pid, strerror(r));
	}
	return 0;
}

int ct_child_reap(struct ct_child *c)
{
	int st = 0;

	while (waitpid(c->pid, &st, 0) < 0 && errno == EINTR)
		;
	close(c->pidfd);
	c->pid = 0;
	c->pidfd = -1;
	return st;
}

void ct_notify_take(char *sock, size_t size)
{
	const char *ns = getenv("NOTIFY_SOCKET");

	sock[0] = '\0';
	if (ns && (ns[0] == '/' || ns[0] == '@') && strlen(ns) < size &&
	    strlen(ns) < sizeof(((struct sockaddr_un *)0)->sun_path))
		snprintf(sock, size, "%s", ns);
	unsetenv("NOTIFY_SOCKET");
}

int ct_notify(const char *sock, const char *msg)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t len = strlen(sock);
	int fd, r = 0;

	if (!len)
		return 0;
	memcpy(sa.sun_path, sock, len);
	if (sa.sun_path[0] == '@')	/* an abstract socket */
		sa.sun_path[0] = '\0';
	if ((fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0)
		return -errno;
	if (sendto(fd, msg, strlen(msg), MSG_NOSIGNAL, (struct sockaddr *)&sa,
		   (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len)) < 0)
		r = -errno;
	close(fd);
	return r;
}
