// SPDX-License-Identifier: GPL-2.0-only
/* ct_migrate_run on live processes of this machine: a run stopped before a
 * process's turn leaves its record unreached (no mechanism, no error) */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tap.h"
#include "mm/migrate.h"

static pid_t child(void)
{
	pid_t p = fork();

	if (!p) {
		pause();
		_exit(0);
	}
	return p;
}

int main(void)
{
	struct ct_error err = { 0 };
	struct ct_sysfs s;
	struct ct_procset set = { 0 };
	struct ct_migrate_task t[2] = { 0 };
	struct ct_migrate_totals tot;
	volatile sig_atomic_t stop = 1;
	struct ct_migrate_opts o = { .to = 0, .jobs = 1, .stop = &stop };
	pid_t a = child(), b = child();

	is_int(ct_sysfs_open(&s, "/", &err), 0, "the live system");
	is_int(ct_procset_add_pid(&s, &set, a), 0, "first child chosen");
	is_int(ct_procset_add_pid(&s, &set, b), 0, "second child chosen");
	t[0].proc = &set.proc[0];
	t[1].proc = &set.proc[1];

	/* a signal came before any process's turn: nothing prepared */
	is_int(ct_migrate_run(&s, &o, t, 2, &tot), 0, "a run stopped before it began returns");
	ok(!t[0].r.mechanism && !t[0].r.err, "the first process is unreached");
	ok(!t[1].r.mechanism && !t[1].r.err, "the second process is unreached");
	is_int(t[1].r.pid, b, "its record still names it");
	is_int(tot.bytes_moved, 0, "nothing moved");

	/* not stopped: both reached, nothing moves in a dry run */
	stop = 0;
	o.dry_run = true;
	is_int(ct_migrate_run(&s, &o, t, 2, &tot), 0, "a dry run");
	ok(t[0].r.mechanism && t[1].r.mechanism, "both reached");

	ct_procset_free(&set);
	kill(a, SIGKILL);
	kill(b, SIGKILL);
	waitpid(a, NULL, 0);
	waitpid(b, NULL, 0);
	ct_sysfs_close(&s);
	return tap_done();
}
