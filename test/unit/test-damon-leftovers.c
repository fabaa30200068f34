// SPDX-License-Identifier: GPL-2.0-only
/* ct_damon_sample against a tree that stands for DAMON's sysfs: what a
 * killed cxltier left is recognised (a kdamond that stopped by itself, one
 * whose pid was never recorded, a setup cut short) and removed, DAMON_STAT
 * is never left off with its record gone, and anyone else's setup is
 * refused untouched */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tap.h"
#include "damon-tree.h"
#include "mm/damon.h"

#define STAT "/sys/module/damon_stat/parameters/enabled"
#define OWNER "/run/cxltier/damon.owner"

static char root[512];

static void put(const char *path, const char *text)
{
	tree_put(root, path, text);
}

static char *get(const char *path, char *buf, size_t len)
{
	char full[1024];
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	buf[0] = '\0';
	if ((f = fopen(full, "r"))) {
		if (!fgets(buf, (int)len, f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static bool exists(const char *path)
{
	char full[1024];

	snprintf(full, sizeof(full), "%s%s", root, path);
	return access(full, F_OK) == 0;
}

/* a kdamond as a killed cxltier (pid 999999, gone) left it: target 4242 */
static void left_setup(const char *kdamond_pid, const char *state, bool whole)
{
	damon_tree_empty(root);
	put(ADMIN "/nr_kdamonds", "1\n");
	put(KD "/contexts/nr_contexts", "1\n");
	put(CTX "/targets/nr_targets", "1\n");
	put(CTX "/targets/0/pid_target", "4242\n");
	put(CTX "/operations", whole ? "vaddr\n" : "\n");
	put(SCHEME "/action", whole ? "stat\n" : "\n");
	put(KD "/pid", kdamond_pid);
	put(KD "/state", state);
	put(STAT, "N\n");
}

static void record(const char *text)
{
	put(OWNER, text);
}

int main(void)
{
	struct ct_error err = { 0 };
	struct ct_sysfs s;
	struct ct_damon_run run;
	struct ct_access_region *reg;
	volatile sig_atomic_t stop = 1;		/* no interval: the setup and its undo only */
	char buf[256], path[64], cmd[1200];
	size_t n;

	if (!mkdtemp(tap_tmp_template(root, sizeof(root), "cxltier-test-damon")) || ct_sysfs_open(&s, root, &err)) {
		ok(0, "a tree for DAMON");
		return tap_done();
	}
	/* this process, as the owner checks read it */
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)getpid());
	put(path, "1 (test) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 777 4096 1\n");
	tree_put_mode(root, "/run/cxltier/x", "", 0700);

	/* (a) the target exited after the kill: the kdamond stopped by itself
	 * (pid -1, state off, nr_kdamonds still 1); the record has its old pid */
	left_setup("-1\n", "off\n", true);
	record("pid 999999\nstart 1\ntarget 4242\nkdamond 812\nstat_paused 1\n");
	is_int(ct_damon_sample(&s, 5555, 1000, &stop, &reg, &n, &run), 0, "a kdamond that stopped by itself: %s", err.msg);
	is_int(run.stale_owner, 999999, "recognised as the killed cxltier's");
	is_str(get(STAT, buf, sizeof(buf)), "Y", "DAMON_STAT on again");
	is_str(get(ADMIN "/nr_kdamonds", buf, sizeof(buf)), "0", "nothing left");
	ok(!exists(OWNER), "no record left");

	/* (b) killed between "on" and the record of the kdamond's pid */
	left_setup("812\n", "on\n", true);
	record("pid 999999\nstart 1\ntarget 4242\nkdamond -1\nstat_paused 0\n");
	is_int(ct_damon_sample(&s, 5555, 1000, &stop, &reg, &n, &run), 0, "a kdamond whose pid was never recorded: %s", err.msg);
	is_int(run.stale_owner, 999999, "recognised");

	/* (c) killed partway through the setup, after the target was written */
	left_setup("-1\n", "off\n", false);
	record("pid 999999\nstart 1\ntarget 4242\nkdamond -1\nstat_paused 0\n");
	is_int(ct_damon_sample(&s, 5555, 1000, &stop, &reg, &n, &run), 0, "a setup cut short: %s", err.msg);
	is_int(run.stale_owner, 999999, "recognised");

	/* someone else's kdamond on another target: refused, untouched; the
	 * record goes once DAMON_STAT it paused is on again */
	left_setup("900\n", "on\n", true);
	put(CTX "/targets/0/pid_target", "31337\n");
	record("pid 999999\nstart 1\ntarget 4242\nkdamond 812\nstat_paused 1\n");
	is_int(ct_damon_sample(&s, 5555, 1000, &stop, &reg, &n, &run), -EBUSY, "another tool's kdamond is refused");
	ok(strstr(err.msg, "another tool") != NULL, "saying so: %s", err.msg);
	is_str(get(KD "/state", buf, sizeof(buf)), "on", "its kdamond untouched");
	is_str(get(STAT, buf, sizeof(buf)), "Y", "DAMON_STAT the record paused is on again");
	ok(!exists(OWNER), "then the record goes");

	/* ... and when DAMON_STAT cannot be turned on, the record stays */
	left_setup("900\n", "on\n", true);
	put(CTX "/targets/0/pid_target", "31337\n");
	snprintf(cmd, sizeof(cmd), "rm -f '%s" STAT "'", root);
	if (system(cmd))
		ok(0, "damon_stat's parameter removed");
	record("pid 999999\nstart 1\ntarget 4242\nkdamond 812\nstat_paused 1\n");
	is_int(ct_damon_sample(&s, 5555, 1000, &stop, &reg, &n, &run), -EBUSY, "refused again");
	ok(exists(OWNER), "the record that paused DAMON_STAT stays");

	/* a teardown whose write fails (here: "off" refused, the attribute a
	 * link) leaves the record for the next run, and says so */
	put(STAT, "N\n");
	left_setup("812\n", "on\n", true);
	snprintf(cmd, sizeof(cmd), "cd '%s" KD "' && echo on > state.real && rm state && ln -s state.real state", root);
	if (system(cmd))
		ok(0, "the state attribute made a link");
	record("pid 999999\nstart 1\ntarget 4242\nkdamond 812\nstat_paused 1\n");
	ok(ct_damon_sample(&s, 5555, 1000, &stop, &reg, &n, &run) < 0, "a leftover that cannot be torn down: an error");
	ok(strstr(err.msg, "cannot tear down") != NULL, "saying so: %s", err.msg);
	ok(exists(OWNER), "the record stays");
	is_str(get(STAT, buf, sizeof(buf)), "N", "DAMON_STAT is not turned on beside a kdamond that still runs");
	is_str(get(ADMIN "/nr_kdamonds", buf, sizeof(buf)), "1", "nr_kdamonds as it was");

	ct_sysfs_close(&s);
	tap_rm_tree(root);
	return tap_done();
}
