// SPDX-License-Identifier: GPL-2.0-only
/* /proc/PID/stat: the fields a process is known by (its name may hold
 * spaces and parentheses) */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include "tap.h"
#include "tree.h"
#include "core/process.h"

#define STAT(pid, name) pid " (" name ") S 1 " pid " " pid " 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 500 4096 1\n"

/* --comm: the name is read from /proc/PID/comm, then the process is held
 * and its stat read; a PID whose process ended between the two and went to
 * another process (another name in stat) is not the one named */
static void comm_reuse(void)
{
	char root[512];
	struct ct_error err = { 0 };
	struct ct_sysfs s;
	struct ct_procset set = { 0 };

	if (!mkdtemp(tap_tmp_template(root, sizeof(root), "cxltier-test-process")) || ct_sysfs_open(&s, root, &err)) {
		ok(0, "a tree for /proc");
		return;
	}
	tree_put(root, "/proc/100/comm", "hog\n");
	tree_put(root, "/proc/100/stat", STAT("100", "bash"));	/* the PID is bash's now */
	tree_put(root, "/proc/101/comm", "hog\n");
	tree_put(root, "/proc/101/stat", STAT("101", "hog"));
	is_int(ct_procset_add_comm(&s, &set, "hog"), 0, "--comm hog");
	is_int(set.count, 1, "one process chosen");
	is_int(set.count ? set.proc[0].pid : 0, 101, "the one still named hog, not the PID another process took");
	ct_procset_free(&set);

	tree_put(root, "/proc/101/stat", STAT("101", "sshd"));
	is_int(ct_procset_add_comm(&s, &set, "hog"), -ESRCH, "every hog's PID taken by another: none named");
	is_int(set.count, 0, "nothing chosen");
	ct_procset_free(&set);
	ct_error_clear(&err);

	tree_put(root, "/proc/101/stat", STAT("101", "hog"));
	ct_procset_add_pid(&s, &set, 100);
	is_int(ct_procset_add_comm(&s, &set, "hog"), 0, "--pid 100 --comm hog");
	is_int(set.count, 2, "the PID given by --pid stays chosen beside the hog");
	ct_procset_free(&set);
	ct_sysfs_close(&s);
	tap_rm_tree(root);
}

/* a name may hold a newline too: the stat is read whole */
static void name_with_newline(void)
{
	char root[512], comm[32];
	struct ct_error err = { 0 };
	struct ct_sysfs s;
	uint64_t start = 0;

	if (!mkdtemp(tap_tmp_template(root, sizeof(root), "cxltier-test-process")) || ct_sysfs_open(&s, root, &err)) {
		ok(0, "a tree for /proc");
		return;
	}
	tree_put(root, "/proc/102/stat", "102 (a) b\nc) S 1 102 102 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 500 4096 1\n");
	is_int(ct_proc_identity(&s, 102, comm, sizeof(comm), &start), 0, "a name with ') ' and a newline");
	is_str(comm, "a) b\nc", "its name whole");
	is_int(start, 500, "its start time");

	/* --comm: a name with a newline is matched whole, and only whole */
	struct ct_procset set = { 0 };
	tree_put(root, "/proc/103/stat", "103 (a\nb) S 1 103 103 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 600 4096 1\n");
	tree_put(root, "/proc/103/comm", "a\nb\n");
	is_int(ct_procset_add_comm(&s, &set, "a\nb"), 0, "--comm a<newline>b: %s", err.msg);
	ok(set.count == 1 && set.proc[0].pid == 103 && !set.proc[0].err, "the process named so is chosen");
	is_str(set.count ? set.proc[0].comm : "", "a\nb", "its name whole");
	ct_procset_free(&set);
	ct_error_clear(&err);
	is_int(ct_procset_add_comm(&s, &set, "a"), -ESRCH, "--comm a: not a name's first line");
	is_int(set.count, 0, "nothing chosen");
	ct_procset_free(&set);
	ct_error_clear(&err);
	ct_sysfs_close(&s);
	tap_rm_tree(root);
}

int main(void)
{
	char comm[32], state;
	unsigned long flags;
	uint64_t start, vsize;

	is_int(ct_proc_stat_parse("4242 (hog) S 1 4242 4242 0 -1 4194560 1209 0 0 0 1 2 0 0 20 0 1 0 987654 "
				  "71458816 16451 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0",
				  comm, sizeof(comm), &flags, &start, &vsize, &state), 0, "a user process");
	is_str(comm, "hog", "its name");
	is_int(state, 'S', "its state");
	is_int(flags, 4194560, "flags (field 9)");
	is_int(start, 987654, "start time (field 22)");
	is_int(vsize, 71458816, "vsize (field 23)");

	is_int(ct_proc_stat_parse("2 (kthreadd) S 0 0 0 0 -1 2129984 0 0 0 0 0 0 0 0 20 0 1 0 5 0 0 "
				  "18446744073709551615 0 0 0 0 0 0 0 2147483647 0 0 0 0 17 0 0 0 0 0 0",
				  comm, sizeof(comm), &flags, &start, &vsize, &state), 0, "a kernel thread");
	ok(flags & 0x00200000, "PF_KTHREAD set");
	is_int(vsize, 0, "no memory map");

	is_int(ct_proc_stat_parse("77 (a (b) c) R 1 77 77 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 123 4096 1",
				  comm, sizeof(comm), &flags, &start, &vsize, &state), 0, "a name with ') ' inside");
	is_str(comm, "a (b) c", "the name up to the last ')'");
	is_int(start, 123, "its start time");
	ok(ct_proc_stat_parse("77 (x) R 1 2 3", comm, sizeof(comm), &flags, &start, &vsize, &state) < 0,
	   "a cut line is refused");
	ok(ct_proc_stat_parse("garbage", comm, sizeof(comm), &flags, &start, &vsize, &state) < 0, "garbage is refused");
	comm_reuse();
	name_with_newline();
	return tap_done();
}
