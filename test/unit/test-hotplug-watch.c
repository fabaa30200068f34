// SPDX-License-Identifier: GPL-2.0-only
/* test-hotplug-watch.c - lib/change/hotplug-watch.c's names (what becomes
 * a run's argument: memN and daxN.M, nothing else) and lib/core/child.c: a
 * child started as the running program, its ending signals unblocked and at
 * their defaults though the parent blocks them, held by pidfd, reaped with
 * its status; the notification socket taken from the environment and
 * written to */
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tap.h"
#include "tree.h"
#include "core/sysfs.h"
#include "change/hotplug-watch.h"
#include "core/child.h"
#include "core/ending-signals.h"
#include "core/pidfd.h"


/* the child: 0 when every ending signal is unblocked and at its default */
static int child_main(void)
{
	sigset_t mask, ending;
	struct sigaction sa;

	sigprocmask(SIG_SETMASK, NULL, &mask);
	ct_ending_signals(&ending);
	for (int s = 1; s < NSIG; s++) {
		if (!sigismember(&ending, s))
			continue;
		if (sigismember(&mask, s))
			return 10;
		if (sigaction(s, NULL, &sa) || sa.sa_handler != SIG_DFL)
			return 11;
	}
	return getenv("NOTIFY_SOCKET") ? 12 : 7;
}

/* a dax device of 4 blocks of 128 MiB at 4 GiB, in a throw-away tree */
static void dax_tree(const char *root, const char *const blocks[4])
{
	char path[128];

	tree_put(root, "/sys/devices/system/memory/block_size_bytes", "8000000\n");
	tree_put(root, "/sys/bus/dax/devices/dax1.0/resource", "0x100000000\n");
	tree_put(root, "/sys/bus/dax/devices/dax1.0/size", "536870912\n");
	for (int i = 0; i < 4; i++) {
		char st[32] = "", z[32] = "";
		snprintf(path, sizeof(path), "/sys/devices/system/memory/memory%d/state", 32 + i);
		if (!blocks[i]) {
			snprintf(path, sizeof(path), "%s/sys/devices/system/memory/memory%d/state", root, 32 + i);
			unlink(path);
			continue;
		}
		sscanf(blocks[i], "%31s %31s", st, z);
		strcat(st, "\n");
		strcat(z, "\n");
		tree_put(root, path, st);
		snprintf(path, sizeof(path), "/sys/devices/system/memory/memory%d/valid_zones", 32 + i);
		tree_put(root, path, z);
	}
}

/* a pending dax device with nothing left to do is told apart */
static void done_devices(void)
{
	char root[512];
	struct ct_error err = { 0 };
	struct ct_sysfs s;
	static const struct {
		const char *blocks[4], *what;
		bool done;
	} cases[] = {
		{ { "online Movable", "online Movable", "online Movable", "online Movable" }, "every block online movable", true },
		{ { "online Movable", "online Movable", "offline Movable", "online Movable" }, "a block offline", false },
		{ { "online Movable", "online Normal", "online Movable", "online Movable" }, "a block in ZONE_NORMAL", false },
		{ { "online Movable", "online Movable", "online Movable", NULL }, "a block not added yet", false },
	};

	if (!mkdtemp(tap_tmp_template(root, sizeof(root), "cxltier-test-hotplug-watch")) || ct_sysfs_open(&s, root, &err)) {
		ok(0, "a tree for the done test");
		return;
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		dax_tree(root, cases[i].blocks);
		is_int(ct_hotplug_watch_done(&s, "dax1.0"), cases[i].done, "dax1.0, %s: %s", cases[i].what,
		       cases[i].done ? "nothing to do" : "a run");
	}
	dax_tree(root, cases[0].blocks);
	ok(!ct_hotplug_watch_done(&s, "mem1"), "a memdev is never dropped");
	ok(!ct_hotplug_watch_done(&s, "dax2.0"), "a dax device that cannot be read: a run looks at it");
	ok(!ct_hotplug_watch_done(&s, "dax1.0/../dax1.0"), "a name that is not a dax device's: not read");
	ct_sysfs_close(&s);
	tap_rm_tree(root);
}

static void ignore(int sig)
{
	(void)sig;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "child"))
		return child_main();

	static const char *const good[] = { "mem0", "mem12", "dax0.0", "dax3.12", "mem123456789" };
	static const char *const bad[] = { "mem", "mem1a", "mem1 ", "mem-1", "memory3", "dax0", "dax0.", "dax.0", "dax0.0.0",
					   "dax0.0/..", "../mem0", "region0", "mem1234567890", "", "mem0\nmem1", "dax1.x" };
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		ok(ct_hotplug_watch_name_ok(good[i]), "name '%s' taken", good[i]);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		/* (shown with its newline as \n: a TAP line is one line) */
		char shown[64];
		size_t k = 0;
		for (const char *c = bad[i]; *c && k < sizeof(shown) - 3; c++) {
			if (*c == '\n') {
				shown[k++] = '\\';
				shown[k++] = 'n';
			} else
				shown[k++] = *c;
		}
		shown[k] = '\0';
		ok(!ct_hotplug_watch_name_ok(bad[i]), "name '%s' refused", shown);
	}

	done_devices();

	/* the notification socket (abstract, as systemd's may be: no file):
	 * taken from the environment, written to */
	char name[64], sock[108], got[64] = "";
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	snprintf(name, sizeof(name), "@cxltier-test-hotplug-watch-%d", (int)getpid());
	memcpy(sa.sun_path + 1, name + 1, strlen(name) - 1);
	ok(fd >= 0 && bind(fd, (struct sockaddr *)&sa, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(name))) == 0,
	   "a socket to be told on");
	setenv("NOTIFY_SOCKET", name, 1);
	ct_notify_take(sock, sizeof(sock));
	is_str(sock, name, "the socket taken");
	ok(getenv("NOTIFY_SOCKET") == NULL, "and out of the environment (no child inherits it)");
	is_int(ct_notify(sock, "READY=1"), 0, "told");
	ssize_t n = recv(fd, got, sizeof(got) - 1, MSG_DONTWAIT);
	is_str(n > 0 ? got : "", "READY=1", "what it was told");
	is_int(ct_notify("", "READY=1"), 0, "no socket: nothing, no error");
	setenv("NOTIFY_SOCKET", "relative/path", 1);
	ct_notify_take(sock, sizeof(sock));
	is_str(sock, "", "a socket that is neither a path nor abstract is not taken");
	close(fd);

	/* a child while the parent blocks the ending signals and ignores one */
	sigset_t ending;
	struct ct_child c;
	struct ct_error err = { 0 };
	char *args[] = { argv[0], "child", NULL };
	ct_ending_signals(&ending);
	sigprocmask(SIG_BLOCK, &ending, NULL);
	signal(SIGHUP, ignore);
	setenv("NOTIFY_SOCKET", "/nowhere", 1);
	ct_notify_take(sock, sizeof(sock));
	/* where pidfd_open is not there (valgrind before 3.20 does not pass
	 * it on; Linux before 5.3): the start is refused, saying why, and no
	 * child is left behind */
	int probe = ct_pidfd_open(getpid());
	if (probe < 0 && errno == ENOSYS) {
		is_int(ct_child_start_self(&c, args, &err), -ENOSYS, "no pidfd_open: refused (%s)", err.msg);
		ok(strstr(err.msg, "by pidfd (Linux 5.3+)") != NULL, "saying why");
		ok(c.pid == 0 && c.pidfd == -1 && waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD,
		   "and no child left to reap");
		printf("1..%d\n", tap_n);
		return tap_failed ? 1 : 0;
	}
	if (probe >= 0)
		close(probe);
	is_int(ct_child_start_self(&c, args, &err), 0, "started (%s)", err.msg);
	ok(c.pid > 0 && c.pidfd >= 0, "held by pidfd");
	struct pollfd p = { .fd = c.pidfd, .events = POLLIN };
	ok(poll(&p, 1, 60000) == 1, "its pidfd readable once it ended");
	int st = ct_child_reap(&c);
	ok(WIFEXITED(st), "it exited");
	is_int(WEXITSTATUS(st), 7, "its ending signals unblocked and at their defaults, no NOTIFY_SOCKET (10: blocked, "
	       "11: not the default, 12: the socket inherited)");
	ok(c.pid == 0 && c.pidfd == -1, "reaped, its pidfd closed");

	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
