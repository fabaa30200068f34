// SPDX-License-Identifier: GPL-2.0-only
/* test-lock-queue.c - the memory-blocks lock in a tree's /run/cxltier taken
 * first come, first served by processes that queue one after another; a
 * waiter killed in the line does not stop it; the time limit is for a line
 * that does not move, not for the whole wait */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tap.h"
#include "tree.h"
#include "core/lock.h"

#define WAITERS 5

static char root[256];
static int held = -1;	/* this process's lock, which a forked waiter must not keep (flock is per open file) */

static void nap_ms(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&t, NULL);
}

/* the tickets in the line now */
static int tickets(void)
{
	char dir[512];
	struct dirent *e;
	int n = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/run/cxltier", root);
	if (!(d = opendir(dir)))
		return -1;
	while ((e = readdir(d)))
		n += !strncmp(e->d_name, CT_LOCK_NAME ".q.", strlen(CT_LOCK_NAME ".q.")) &&
		     e->d_name[strlen(CT_LOCK_NAME ".q.")] >= '0' && e->d_name[strlen(CT_LOCK_NAME ".q.")] <= '9';
	closedir(d);
	return n;
}

/* poll until N tickets are in the line (the order the waiters came in) */
static bool line_is(int n)
{
	for (int i = 0; i < 5000; i++) {	/* 10 s */
		if (tickets() == n)
			return true;
		nap_ms(2);
	}
	return false;
}

/* a waiter: takes the lock (TIMEOUT ms without the line moving), writes its
 * number to FD, holds it HOLD ms; exits 0, or 1 when it gave up */
static pid_t waiter(int id, int fd, unsigned timeout, long hold)
{
	pid_t pid;

	fflush(stdout);	/* (a child must not print this process's TAP a second time) */
	pid = fork();

	if (pid == 0) {
		struct ct_error err = { 0 };
		struct ct_sysfs s;
		int lock;

		if (held >= 0)
			close(held);
		if (ct_sysfs_open(&s, root, &err))
			_exit(2);
		if (ct_lock_acquire(&s, timeout, NULL, &lock)) {
			fprintf(stderr, "# waiter %d: %s\n", id, err.msg);
			_exit(1);
		}
		if (write(fd, &id, sizeof(id)) != sizeof(id))
			_exit(3);
		nap_ms(hold);
		ct_lock_release(lock);
		_exit(0);
	}
	return pid;
}

int main(void)
{
	struct ct_error err = { 0 };
	struct ct_sysfs s;
	pid_t pid[WAITERS];
	int p[2], lock, order[WAITERS], n = 0, id, status;
	char dir[512];

	/* (read after the waiters ended: a waiter that failed writes nothing) */
	if (!mkdtemp(tap_tmp_template(root, sizeof(root), "cxltier-test-lock-queue")) || pipe2(p, O_NONBLOCK) ||
	    ct_sysfs_open(&s, root, &err)) {
		ok(0, "a tree and a pipe");
		return tap_done();
	}
	snprintf(dir, sizeof(dir), "%s/run", root);
	mkdir(dir, 0755);

	/* first come, first served: five waiters, each queued before the next starts */
	ok(ct_lock_acquire(&s, 0, NULL, &lock) == 0, "the lock taken by this process");
	held = lock;
	for (int i = 0; i < WAITERS; i++) {
		pid[i] = waiter(i, p[1], 10000, 30);
		ok(line_is(i + 1), "waiter %d in the line, behind %d", i, i);
	}
	ct_lock_release(lock);
	for (int i = 0; i < WAITERS; i++) {
		waitpid(pid[i], &status, 0);
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			fprintf(stderr, "# waiter %d: status %#x\n", i, status);
	}
	while (n < WAITERS && read(p[0], &id, sizeof(id)) == sizeof(id))
		order[n++] = id;
	is_int(n, WAITERS, "each took the lock");
	bool in_order = n == WAITERS;
	for (int i = 0; i < n; i++)
		in_order &= order[i] == i;
	ok(in_order, "in the order they came: %d %d %d %d %d", order[0], order[1], order[2], order[3], order[4]);
	is_int(tickets(), 0, "no ticket left in the line");

	/* a waiter killed in the line: the ones after it go on, its ticket removed */
	ok(ct_lock_acquire(&s, 0, NULL, &lock) == 0, "the lock taken again");
	held = lock;
	for (int i = 0; i < 3; i++) {
		pid[i] = waiter(i, p[1], 10000, 10);
		line_is(i + 1);
	}
	kill(pid[1], SIGKILL);
	waitpid(pid[1], &status, 0);
	ct_lock_release(lock);
	waitpid(pid[0], &status, 0);
	waitpid(pid[2], &status, 0);
	n = 0;
	while (n < 2 && read(p[0], &id, sizeof(id)) == sizeof(id))
		order[n++] = id;
	ok(n == 2 && order[0] == 0 && order[1] == 2, "a waiter killed in the line: the others in order (%d %d)",
	   order[0], order[1]);
	is_int(tickets(), 0, "the dead one's ticket removed");

	/* a ticket left unnumbered by a run killed while making it: removed by
	 * the next waiter once its maker's pid is gone; a live maker's stays */
	{
		char dead[600], live[600];
		pid_t gone;

		fflush(stdout);	/* (a child must not print this process's TAP a second time) */
		gone = fork();

		if (gone == 0)
			_exit(0);
		waitpid(gone, &status, 0);
		snprintf(dead, sizeof(dead), "%s/run/cxltier/" CT_LOCK_NAME ".q.new.%d", root, (int)gone);
		snprintf(live, sizeof(live), "%s/run/cxltier/" CT_LOCK_NAME ".q.new.%d", root, (int)getppid());
		close(open(dead, O_WRONLY | O_CREAT | O_EXCL, 0600));
		close(open(live, O_WRONLY | O_CREAT | O_EXCL, 0600));
		ok(ct_lock_acquire(&s, 0, NULL, &lock) == 0, "the lock taken again");
		held = lock;
		pid[0] = waiter(0, p[1], 10000, 1);
		line_is(1);
		ct_lock_release(lock);
		waitpid(pid[0], &status, 0);
		ok(read(p[0], &id, sizeof(id)) == sizeof(id), "the waiter took the lock");
		ok(access(dead, F_OK) != 0, "a dead maker's unnumbered ticket removed by the next waiter");
		ok(access(live, F_OK) == 0, "a live maker's left alone");
		unlink(live);
	}

	/* the limit is for a line that does not move: five waiters with 2500 ms
	 * each, behind a holder that keeps the lock 500 ms and runs that hold it
	 * 600 ms each (2900 ms of waiting for the last); the line never stands
	 * still for more than 600 ms, 1900 ms short of the limit: a margin for
	 * a loaded machine's scheduling under valgrind (400 ms once was not
	 * enough there, with two emulated guests beside it) */
	ok(ct_lock_acquire(&s, 0, NULL, &lock) == 0, "the lock taken again");
	held = lock;
	for (int i = 0; i < WAITERS; i++) {
		pid[i] = waiter(i, p[1], 2500, 600);
		line_is(i + 1);
	}
	nap_ms(500);
	ct_lock_release(lock);
	bool all = true;
	for (int i = 0; i < WAITERS; i++) {
		waitpid(pid[i], &status, 0);
		all &= WIFEXITED(status) && WEXITSTATUS(status) == 0;
		if (read(p[0], &id, sizeof(id)) != sizeof(id))
			all = false;
	}
	ok(all, "a line that moves: each waited longer than its limit, and none gave up");

	/* a line that does not move: given up, saying so */
	ok(ct_lock_acquire(&s, 0, NULL, &lock) == 0, "the lock held");
	held = lock;
	is_int(ct_lock_acquire(&s, 200, NULL, &id), -EWOULDBLOCK, "a holder that does not move: given up");
	ok(strstr(err.msg, "without the line moving (0 runs waiting before this one)") != NULL, "saying so: %s",
	   err.msg);
	ct_error_clear(&err);
	is_int(tickets(), 0, "its ticket removed");
	/* a wait a signal stops: said as that, not as a line that stood still */
	volatile sig_atomic_t stop = 1;
	is_int(ct_lock_acquire(&s, 60000, &stop, &id), -EINTR, "a wait stopped by its caller's flag");
	ok(strstr(err.msg, "stopped by a signal while waiting in line") != NULL && !strstr(err.msg, "without the line moving"),
	   "saying so: %s", err.msg);
	ct_error_clear(&err);
	is_int(tickets(), 0, "its ticket removed");
	ct_lock_release(lock);
	ct_sysfs_close(&s);
	tap_rm_tree(root);
	return tap_done();
}
