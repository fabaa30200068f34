// SPDX-License-Identifier: GPL-2.0-only
/* DAMON's sysfs files fail with EBUSY while damon_sysfs_lock is held for a
 * moment (taken by trylock): the one retry helper of the sysfs writer, and
 * the "on" write of ct_damon_sample going through it. The writes go through
 * a stand-in (-Wl,--wrap=ct_sysfs_write_str) that refuses "on" with EBUSY
 * the first times, as the kernel does while another reader holds the lock.
 * And a sampling whose tried regions stay empty: nothing was measured, an
 * error (ENODATA), not an empty choice. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tap.h"
#include "damon-tree.h"
#include "mm/damon.h"


static char root[512];
static int on_busy;		/* "on" writes still to refuse */
static int on_writes;		/* "on" writes seen */

int __real_ct_sysfs_write_str(struct ct_sysfs *s, const char *path, const char *val);
int __wrap_ct_sysfs_write_str(struct ct_sysfs *s, const char *path, const char *val)
{
	if (!strcmp(path, KD "/state") && !strcmp(val, "on")) {
		on_writes++;
		if (on_busy > 0) {
			on_busy--;
			return ct_fail(s->err, EBUSY, "writing \"on\" to %s failed: %s", path, strerror(EBUSY));
		}
	}
	return __real_ct_sysfs_write_str(s, path, val);
}

static int calls;
static int busy_twice(struct ct_sysfs *s, void *arg)
{
	(void)arg;
	if (++calls <= 2)
		return ct_fail(s->err, EBUSY, "busy");
	return 0;
}

static int always_enoent(struct ct_sysfs *s, void *arg)
{
	(void)arg;
	calls++;
	return ct_fail(s->err, ENOENT, "gone");
}

static void fresh_damon(void)
{
	damon_tree_empty(root);
	tree_put(root, ADMIN "/nr_kdamonds", "0\n");
	tree_put(root, KD "/pid", "-1\n");
	tree_put(root, KD "/state", "off\n");
}

int main(void)
{
	struct ct_error err = { 0 };
	struct ct_sysfs s;
	struct ct_damon_run run;
	struct ct_access_region *reg;
	struct ct_sysfs_busy b = { 5, 1 };
	volatile sig_atomic_t stop = 1;		/* no interval: setup, "on" and undo */
	char path[64];
	size_t n;

	if (!mkdtemp(tap_tmp_template(root, sizeof(root), "cxltier-test-damon-busy")) || ct_sysfs_open(&s, root, &err)) {
		ok(0, "a tree for DAMON");
		return tap_done();
	}

	/* the helper: EBUSY tried again, anything else returned at once */
	calls = 0;
	is_int(ct_sysfs_retry_busy(&s, &b, busy_twice, NULL), 0, "EBUSY twice, then done");
	is_int(calls, 3, "three attempts");
	ok(!err.code && !err.msg[0], "the message of an attempt tried again is cleared");
	calls = 0;
	b.tries = 2;
	is_int(ct_sysfs_retry_busy(&s, &b, busy_twice, NULL), -EBUSY, "busy longer than its tries: EBUSY");
	is_int(calls, 2, "no more attempts than tries");
	ct_error_clear(&err);
	calls = 0;
	is_int(ct_sysfs_retry_busy(&s, &b, always_enoent, NULL), -ENOENT, "another error is not retried");
	is_int(calls, 1, "one attempt");
	ct_error_clear(&err);

	/* ct_damon_sample: "on" refused with EBUSY twice (no kernel module holds DAMON) */
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)getpid());
	tree_put(root, path, "1 (test) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 777 4096 1\n");
	tree_put_mode(root, "/run/cxltier/x", "", 0700);
	fresh_damon();
	on_busy = 2;
	on_writes = 0;
	is_int(ct_damon_sample(&s, 5555, 1000, &stop, &reg, &n, &run), 0, "a transient EBUSY on \"on\" is retried: %s",
	       err.msg);
	is_int(on_writes, 3, "\"on\" written three times");
	ct_error_clear(&err);

	/* busy for good: still an error, and nothing left behind */
	fresh_damon();
	on_busy = 1000;
	ok(ct_damon_sample(&s, 5555, 1000, &stop, &reg, &n, &run) == -EBUSY, "DAMON busy for good: EBUSY");
	ok(on_writes > 3 + 1, "after several attempts (%d)", on_writes - 3);
	ct_error_clear(&err);

	/* the interval passes, the kdamond never fills its tried regions in */
	fresh_damon();
	on_busy = 0;
	tree_put(root, SCHEME "/tried_regions/total_bytes", "0\n");
	stop = 0;
	is_int(ct_damon_sample(&s, 5555, 100, &stop, &reg, &n, &run), -ENODATA, "DAMON saw nothing: ENODATA");
	ok(strstr(err.msg, "nothing was measured") != NULL, "saying so: %s", err.msg);
	is_int(n, 0, "no region");
	ct_error_clear(&err);

	ct_sysfs_close(&s);
	tap_rm_tree(root);
	return tap_done();
}
