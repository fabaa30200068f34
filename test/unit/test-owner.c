// SPDX-License-Identifier: GPL-2.0-only
/* the owner of kernel state cxltier made: this process as one, and what
 * runs as a recorded owner's pid now (the owner itself, running or exited
 * unreaped; no one, or another process; cannot tell) */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include "tap.h"
#include "tree.h"
#include "core/owner.h"

#define STAT(pid, name, state, start) pid " (" name ") " state " 1 " pid " " pid " 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 " \
	start " 4096 1\n"

int main(void)
{
	struct ct_error err = { 0 };
	struct ct_owner self, o = { .pid = 4242, .start = 100 };
	struct ct_sysfs s;
	char root[512], path[64], comm[32];

	if (!mkdtemp(tap_tmp_template(root, sizeof(root), "cxltier-test-owner")) || ct_sysfs_open(&s, root, &err)) {
		ok(0, "a tree for /proc");
		return tap_done();
	}

	is_int(ct_owner_self(&s, &self), -ESRCH, "this process's own stat missing: an error");
	ok(strstr(err.msg, "own /proc/") != NULL, "saying so: %s", err.msg);
	ct_error_clear(&err);
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)getpid());
	tree_put(root, path, "1 (test) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 777 4096 1\n");
	is_int(ct_owner_self(&s, &self), 0, "this process as an owner");
	ok(self.pid == (int)getpid() && self.start == 777, "its pid and start time");

	tree_put(root, "/proc/4242/stat", STAT("4242", "cxltier", "S", "100"));
	is_int(ct_owner_check(&s, &o, comm, sizeof(comm)), CT_OWNER_RUNS, "the owner runs");
	is_str(comm, "cxltier", "its name");
	tree_put(root, "/proc/4242/stat", STAT("4242", "cxltier", "Z", "100"));
	is_int(ct_owner_check(&s, &o, NULL, 0), CT_OWNER_EXITED, "the owner exited, not yet reaped");
	tree_put(root, "/proc/4242/stat", STAT("4242", "bash", "S", "101"));
	is_int(ct_owner_check(&s, &o, comm, sizeof(comm)), CT_OWNER_GONE, "its pid is another process's now");
	is_str(comm, "bash", "that one's name");
	tree_put(root, "/proc/4242/stat", STAT("4242", "bash", "Z", "101"));
	is_int(ct_owner_check(&s, &o, NULL, 0), CT_OWNER_GONE, "another process's, exited too");
	o.pid = 4243;
	is_int(ct_owner_check(&s, &o, NULL, 0), CT_OWNER_GONE, "no process has its pid");
	ok(!err.code && !err.msg[0], "no message left");

	/* a name may hold ") " and a newline: the fields follow the last ')' */
	tree_put(root, "/proc/4244/stat", "4244 (a) b\nc) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 100 4096 1\n");
	o.pid = 4244;
	is_int(ct_owner_check(&s, &o, comm, sizeof(comm)), CT_OWNER_RUNS, "a name with ') ' and a newline");
	is_str(comm, "a) b\nc", "read whole");

	tree_put(root, "/proc/4245/stat", "garbage\n");
	o.pid = 4245;
	is_int(ct_owner_check(&s, &o, NULL, 0), CT_OWNER_UNKNOWN, "a stat that makes no sense: cannot tell");
	tree_put(root, "/proc/4246/stat/x", "");
	o.pid = 4246;
	is_int(ct_owner_check(&s, &o, NULL, 0), CT_OWNER_UNKNOWN, "a stat that cannot be read: cannot tell");
	ok(!err.code && !err.msg[0], "no message left");
	o.pid = 0;
	is_int(ct_owner_check(&s, &o, NULL, 0), CT_OWNER_UNKNOWN, "no pid recorded: cannot tell");

	ct_sysfs_close(&s);
	tap_rm_tree(root);
	return tap_done();
}
