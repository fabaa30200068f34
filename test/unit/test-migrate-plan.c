// SPDX-License-Identifier: GPL-2.0-only
/* which ranges of a process move_pages gets, and how they are cut into
 * batches; the [migrate] section of the configuration */
#include <stdlib.h>
#include "tap.h"
#include "mm/migrate-conf.h"
#include "mm/migrate-plan.h"
#include "config/policy.h"

static const char maps[] =
	"00400000-00401000 r-xp 00000000 08:01 1 /usr/bin/hog\n"
	"7f0000000000-7f0004000000 rw-p 00000000 00:00 0 \n"		/* 64 MiB, all on node 0 */
	"7f0004000000-7f0004100000 rw-p 00000000 00:00 0 \n"		/* 1 MiB, half resident */
	"7f0008000000-7f0008400000 rw-s 00000000 00:0f 9 /anon_hugepage (deleted)\n"	/* 4 MiB hugetlb */
	"7f000c000000-7f000c001000 ---p 00000000 00:00 0 \n"		/* a guard page */
	"7f000d000000-7f000d010000 rw-p 00000000 00:00 0 \n"		/* on node 1 already */
	"7ffc00000000-7ffc00021000 rw-p 00000000 00:00 0 [stack]\n"	/* no numa_maps line */
	"ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0 [vsyscall]\n";

static const char numa_maps[] =
	"00400000 default file=/usr/bin/hog mapped=1 N0=1 kernelpagesize_kB=4\n"
	"7f0000000000 default anon=16384 dirty=16384 N0=16384 kernelpagesize_kB=4\n"
	"7f0004000000 default anon=128 dirty=128 N0=128 kernelpagesize_kB=4\n"
	"7f0008000000 default file=/anon_hugepage\\040(deleted) huge dirty=2 N0=2 kernelpagesize_kB=2048\n"
	"7f000c000000 default\n"
	"7f000d000000 default anon=16 dirty=16 N1=16 kernelpagesize_kB=4\n";

int main(void)
{
	struct ct_numa_vma *vma;
	struct ct_migrate_plan p;
	struct ct_migrate_range *chunk;
	struct ct_nodeset from = { 0 };
	struct ct_vrange cold[] = { { 0x7f0001000000, 0x7f0001200000 }, { 0x7f0001200000, 0x7f0001300000 },
				    { 0x7f0008100000, 0x7f0008101000 } };
	struct ct_migrate_selection sel = { true, cold, 3 }, none = { true, NULL, 0 };
	struct ct_migrate_conf conf;
	struct ct_policy pol;
	struct ct_error err = { 0 };
	size_t nvma, nchunk;

	is_int(ct_numa_maps_parse_all(numa_maps, &vma, &nvma), 0, "numa_maps parses");
	is_int(nvma, 6, "six mappings");

	is_int(ct_migrate_plan_build(maps, vma, nvma, NULL, &from, 1, 4096, &p), 0, "a plan to node 1");
	is_int(p.n, 5, "binary, anon, half-resident, hugetlb, stack (not the node-1 mapping, guard, vsyscall)");
	ok(p.r[0].start == 0x400000 && p.r[0].direct, "the binary's one page: resident, direct");
	ok(p.r[1].start == 0x7f0000000000 && p.r[1].end == 0x7f0004000000 && p.r[1].direct && p.r[1].step == 4096,
	   "64 MiB all on node 0: direct, base pages");
	ok(p.r[2].start == 0x7f0004000000 && !p.r[2].direct, "half resident: asked page by page");
	ok(p.r[3].start == 0x7f0008000000 && p.r[3].step == 2 << 20 && p.r[3].direct, "hugetlb: one entry per 2 MiB page");
	ok(p.r[4].start == 0x7ffc00000000 && !p.r[4].direct, "no numa_maps line: asked");
	ok(p.bytes_direct == 0x1000 + (64 << 20) + (4 << 20), "direct bytes");

	is_int(ct_migrate_plan_split(&p, 4096, &chunk, &nchunk), 0, "cut into batches");
	is_int(nchunk, 1 + 4 + 1 + 1 + 1, "64 MiB in four 16 MiB batches, one batch for each other range");
	ok(chunk[1].start == 0x7f0000000000 && chunk[1].end == 0x7f0001000000, "batches end at 16 MiB boundaries");
	free(chunk);
	is_int(ct_migrate_plan_split(&p, 3, &chunk, &nchunk), 0, "three entries a batch");
	for (size_t i = 0, bad = 0, split = 0; i < nchunk; i++) {
		bad += (chunk[i].end - chunk[i].start) / chunk[i].step > 3;
		split += chunk[i].start % chunk[i].step || chunk[i].end % chunk[i].step;
		if (i == nchunk - 1) {
			ok(!bad, "no batch longer than asked");
			ok(!split, "no page split between batches");
		}
	}
	free(chunk);
	ct_migrate_plan_free(&p);

	struct ct_nodeset only1;
	ct_nodeset_parse(&only1, "1");
	is_int(ct_migrate_plan_build(maps, vma, nvma, NULL, &only1, 0, 4096, &p), 0, "--from 1 --to 0");
	ok(p.n == 2 && p.r[0].start == 0x7f000d000000 && p.r[0].direct, "only the mapping on node 1 (and the unknown stack)");
	ct_migrate_plan_free(&p);

	/* pagemap's present runs: a sparse range narrowed to them; a THP run one entry per huge page */
	{
		struct ct_migrate_plan q = { 0 };
		struct ct_migrate_range big = { 0x7f0000000000, 0x7f0040000000, 4096, false, false };
		struct ct_present pr[] = { { 0x7f0000001000, 0x7f0000003000, false },
					   { 0x7f0000200000, 0x7f0000600000, true },	/* two THPs */
					   { 0x7f0000600000, 0x7f0000601000, false },
					   { 0x7f0040000000, 0x7f0040001000, false } };	/* past the range */
		is_int(ct_migrate_plan_add_present(&q, &big, pr, 4, 2 << 20), 0, "a 1 GiB range narrowed to its present runs");
		is_int(q.n, 3, "two base-page runs and one of huge pages");
		ok(q.r[0].start == 0x7f0000001000 && q.r[0].end == 0x7f0000003000 && q.r[0].step == 4096 && !q.r[0].thp,
		   "two base pages");
		ok(q.r[1].start == 0x7f0000200000 && q.r[1].end == 0x7f0000600000 && q.r[1].step == 2 << 20 && q.r[1].thp,
		   "two THPs: one entry each");
		ok(q.r[2].start == 0x7f0000600000 && q.r[2].end == 0x7f0000601000, "the page after them");
		ct_migrate_plan_free(&q);

		/* two chosen ranges that cut one THP: the whole huge page, once */
		struct ct_migrate_range a = { 0x7f0000300000, 0x7f0000380000, 4096, true, false };
		struct ct_migrate_range b = { 0x7f0000380000, 0x7f0000500000, 4096, true, false };
		struct ct_present thp[] = { { 0x7f0000200000, 0x7f0000600000, true } };
		is_int(ct_migrate_plan_add_present(&q, &a, thp, 1, 2 << 20), 0, "a range that cuts a THP");
		is_int(ct_migrate_plan_add_present(&q, &b, thp, 1, 2 << 20), 0, "the next one, in the same THP and the next");
		is_int(q.n, 1, "one range");
		ok(q.r[0].start == 0x7f0000200000 && q.r[0].end == 0x7f0000600000 && q.r[0].thp && q.r[0].direct,
		   "both huge pages whole, each once");
		ct_migrate_plan_free(&q);
	}

	/* a mapping that cannot be read (PROT_NONE after use) still holds pages move_pages moves */
	{
		static const char maps2[] = "7f0010000000-7f0010010000 ---p 00000000 00:00 0 \n"
					    "7f0011000000-7f0011001000 ---p 00000000 00:00 0 \n";
		static const char nm2[] = "7f0010000000 default anon=16 dirty=16 N0=16 kernelpagesize_kB=4\n"
					  "7f0011000000 default\n";
		struct ct_numa_vma *v2;
		size_t n2;
		is_int(ct_numa_maps_parse_all(nm2, &v2, &n2), 0, "numa_maps of a PROT_NONE mapping");
		is_int(ct_migrate_plan_build(maps2, v2, n2, NULL, &from, 1, 4096, &p), 0, "planned");
		ok(p.n == 1 && p.r[0].start == 0x7f0010000000 && p.r[0].direct,
		   "its 16 pages are moved like any others (the guard page without pages is not)");
		ct_migrate_plan_free(&p);
		free(v2);
	}

	is_int(ct_migrate_plan_build(maps, vma, nvma, &sel, &from, 1, 4096, &p), 0, "cold ranges only");
	is_int(p.n, 2, "two DAMON regions side by side make one range; a huge page touched is one chosen");
	ok(p.r[0].start == 0x7f0001000000 && p.r[0].end == 0x7f0001300000 && p.r[0].direct, "the anonymous part");
	ok(p.r[1].start == 0x7f0008000000 && p.r[1].end == 0x7f0008200000, "the whole huge page around the region");
	ct_migrate_plan_free(&p);

	/* an empty chosen range inside a huge page chooses nothing, not the page */
	{
		struct ct_vrange empty[] = { { 0x7f0008100000, 0x7f0008100000 } };
		struct ct_migrate_selection sel_empty = { true, empty, 1 };
		is_int(ct_migrate_plan_build(maps, vma, nvma, &sel_empty, &from, 1, 4096, &p), 0, "an empty range chosen");
		is_int(p.n, 0, "nothing planned for it");
		ct_migrate_plan_free(&p);
	}

	is_int(ct_migrate_plan_build(maps, vma, nvma, &none, &from, 1, 4096, &p), 0, "nothing chosen");
	is_int(p.n, 0, "nothing planned");
	ct_migrate_plan_free(&p);
	free(vma);

	is_int(ct_migrate_conf_parse("[defaults]\nonline = yes\n[migrate]\njobs = 4\n", "c", &conf, &err), 0,
	       "[migrate] jobs");
	is_int(conf.jobs, 4, "four jobs");
	is_int(ct_migrate_conf_parse("[defaults]\nzone = movable\n", "c", &conf, &err), 0, "no [migrate]");
	is_int(conf.jobs, 0, "jobs not set");
	ok(ct_migrate_conf_parse("[migrate]\njobs = 0\n", "c", &conf, &err) < 0, "jobs = 0 is refused");
	is_str(err.msg, "c:2: jobs = 0: a number from 1 to 64", "naming the line");
	ok(ct_migrate_conf_parse("[migrate]\nthreads = 2\n", "c", &conf, &err) < 0, "an unknown key is refused");
	static const char both[] = "[defaults]\nonline = yes\n[migrate]\njobs = 2\n[device any]\nzone = normal\n";
	is_int(ct_policy_parse(both, sizeof(both) - 1, "c", &pol, &err), 0, "the hotplug policy reads past [migrate]");
	ok(pol.n == 1 && pol.rule[0].movable == 0, "and keeps its own sections");
	ct_policy_free(&pol);
	return tap_done();
}
