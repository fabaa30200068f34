// SPDX-License-Identifier: GPL-2.0-only
/* /proc/PID/numa_maps lines, including policies with spaces and '=' */
#include "tap.h"
#include "mm/numamaps.h"

int main(void)
{
	struct ct_numa_vma v;
	uint64_t b[64];

	is_int(ct_numa_maps_parse_line("55d5e2a00000 default file=/usr/bin/cat mapped=3 N0=3 kernelpagesize_kB=4", &v), 0, "a file VMA");
	ok(v.start == 0x55d5e2a00000ULL, "address");
	is_str(v.policy, "default", "policy");
	is_str(v.kind, "file", "file");
	ok(v.pages[0] == 3 && v.page_kb == 4, "N0=3, 4 kB pages");

	is_int(ct_numa_maps_parse_line("7f0000000000 prefer (many):0-1 anon=10 dirty=10 N0=4 N1=6 kernelpagesize_kB=4", &v), 0, "a policy with a space");
	is_str(v.policy, "prefer (many):0-1", "prefer (many) kept whole");
	ok(v.pages[0] == 4 && v.pages[1] == 6 && v.anon == 10, "counts");

	is_int(ct_numa_maps_parse_line("7f1000000000 bind=static:0-1 heap anon=2 dirty=2 N1=2 kernelpagesize_kB=4", &v), 0, "a policy with '='");
	is_str(v.policy, "bind=static:0-1", "bind=static kept whole");
	is_str(v.kind, "heap", "heap");

	is_int(ct_numa_maps_parse_line("7f2000000000 weighted interleave:0-2 stack anon=1 N2=1 kernelpagesize_kB=4", &v), 0, "weighted interleave");
	is_str(v.policy, "weighted interleave:0-2", "two-word policy");
	is_str(v.kind, "stack", "stack");

	is_int(ct_numa_maps_parse_line("7f3000000000 default file=/hugepages/x\\040y huge dirty=2 N0=2 kernelpagesize_kB=2048", &v), 0, "hugetlb");
	ok(v.huge && v.page_kb == 2048 && v.pages[0] == 2, "huge pages counted in huge pages");

	is_int(ct_numa_maps_parse_line("7f4000000000 default", &v), 0, "no resident pages: address and policy only");
	ok(v.page_kb == 0 && v.pages[0] == 0, "nothing resident");
	ok(ct_numa_maps_parse_line("zzz default", &v) < 0, "a bad address is rejected");

	ct_numa_maps_bytes("1000 default anon=3 N0=1 N1=2 kernelpagesize_kB=4\n"
			   "2000 bind:1 huge N1=1 kernelpagesize_kB=2048\n", b);
	is_int(b[0], 4096, "node 0 bytes");
	is_int(b[1], 2 * 4096 + 2048 * 1024, "node 1 bytes, huge page sized");
	return tap_done();
}
