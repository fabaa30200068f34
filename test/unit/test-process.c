// SPDX-License-Identifier: GPL-2.0-only
/* /proc/PID/stat: the fields a process is known by (its name may hold
 * spaces and parentheses) */
#include <stdint.h>
#include "tap.h"
#include "process.h"

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
	return tap_done();
}
