// SPDX-License-Identifier: GPL-2.0-only
/* a weighted spread's targets and the fewest moves that reach them */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include "tap.h"
#include "mm/migrate-spread.h"

#define N CT_SPREAD_MAX_NODES

/* every page handed out one at a time, as the run does: where they end */
static void apply(struct ct_migrate_spread *sp, const uint64_t *have, uint64_t *end, uint64_t *moved)
{
	*moved = 0;
	for (int n = 0; n < N; n++)
		end[n] = have[n];
	for (int n = 0; n < N; n++)
		for (int to; end[n] && (to = ct_migrate_spread_pick(sp, n, 1)) >= 0; (*moved)++) {
			end[n]--;
			end[to]++;
		}
}

static uint64_t surplus(const struct ct_migrate_spread *sp, const uint64_t *have)
{
	uint64_t s = 0;

	for (int n = 0; n < N; n++)
		s += have[n] > sp->target[n] ? have[n] - sp->target[n] : 0;
	return s;
}

static uint64_t rnd(uint64_t *x)
{
	*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
	return *x >> 33;
}

/* random processes and weights: with no tolerance the moves are the sum of
 * the surpluses and land every node on its target; with one, every node
 * ends within it, and no more moves than the surpluses */
static void random_cases(void)
{
	uint64_t x = 49, bad_min = 0, bad_end = 0, bad_both = 0, bad_tol = 0, bad_more = 0;

	for (int c = 0; c < 3000; c++) {
		uint64_t have[N] = { 0 }, end[N], moved, tol;
		unsigned w[N] = { 0 };
		struct ct_migrate_spread sp;
		double pct = c % 2 ? 0 : (double)(rnd(&x) % 11);
		int nodes = 1 + (int)(rnd(&x) % 6);

		for (int n = 0; n < nodes; n++) {
			have[n] = rnd(&x) % 4 ? rnd(&x) % 5000 : 0;
			w[n] = rnd(&x) % 3 ? 1 + (unsigned)(rnd(&x) % 255) : 0;
		}
		w[rnd(&x) % nodes] |= 1;
		if (ct_migrate_spread_plan(&sp, have, w, pct))
			continue;
		tol = (uint64_t)((double)sp.total * pct / 100);
		apply(&sp, have, end, &moved);
		bad_more += moved != sp.moves || sp.moves > surplus(&sp, have);
		for (int n = 0; n < N; n++) {
			bad_both += sp.give[n] && sp.take[n];
			bad_both += sp.give[n] > (have[n] > sp.target[n] ? have[n] - sp.target[n] : 0);
			bad_both += sp.take[n] > (sp.target[n] > have[n] ? sp.target[n] - have[n] : 0);
			if (pct == 0)
				bad_end += end[n] != sp.target[n];
			else
				bad_tol += (end[n] > sp.target[n] ? end[n] - sp.target[n] : sp.target[n] - end[n]) > tol;
		}
		if (pct == 0)
			bad_min += sp.moves != surplus(&sp, have);
	}
	is_int(bad_min, 0, "random: with no tolerance the moves are the sum of the surpluses (the least possible)");
	is_int(bad_end, 0, "random: with no tolerance every node ends on its target");
	is_int(bad_tol, 0, "random: with a tolerance every node ends within it");
	is_int(bad_both, 0, "random: only surplus nodes give, only deficit nodes take, never past the target");
	is_int(bad_more, 0, "random: the picks hand out exactly the planned moves, never more than the surpluses");
}

int main(void)
{
	struct ct_migrate_spread sp;
	uint64_t end[N], moved;

	{	/* 3:1, everything on node 0 */
		uint64_t have[N] = { 1000 };
		unsigned w[N] = { 3, 1 };
		is_int(ct_migrate_spread_plan(&sp, have, w, 5), 0, "3:1 planned");
		ok(sp.target[0] == 750 && sp.target[1] == 250, "targets 750 and 250 of 1000");
		ok(sp.give[0] == 250 && sp.take[1] == 250 && sp.moves == 250, "node 0 gives 250 to node 1");
		apply(&sp, have, end, &moved);
		ok(end[0] == 750 && end[1] == 250 && moved == 250, "handed out page by page: 750/250");
		is_int(ct_migrate_spread_pick(&sp, 0, 1), -1, "nothing more to give");
	}
	{	/* rounding: targets add up exactly */
		uint64_t have[N] = { 10 };
		unsigned w[N] = { 1, 1, 1 };
		ct_migrate_spread_plan(&sp, have, w, 0);
		ok(sp.target[0] == 4 && sp.target[1] == 3 && sp.target[2] == 3, "10 over 1:1:1: 4/3/3 (the tie to the lower node)");
		uint64_t seven[N] = { 7 };
		unsigned w31[N] = { 3, 1 };
		ct_migrate_spread_plan(&sp, seven, w31, 0);
		ok(sp.target[0] == 5 && sp.target[1] == 2, "7 over 3:1: 5.25/1.75 rounds to 5/2 (largest remainder)");
		uint64_t two[N] = { 2 };
		unsigned w13[N] = { 1, 3 };
		ct_migrate_spread_plan(&sp, two, w13, 0);
		ok(sp.target[0] == 0 && sp.target[1] == 2, "2 over 1:3: equal remainders, the larger weight first");
		uint64_t big[N] = { 1ULL << 40 };
		unsigned w255[N] = { 255, 254, 253 };
		ct_migrate_spread_plan(&sp, big, w255, 0);
		ok(sp.target[0] + sp.target[1] + sp.target[2] == 1ULL << 40, "2^40 pages over 255:254:253: no overflow, exact sum");
	}
	{	/* already spread */
		uint64_t have[N] = { 750, 250 }, near[N] = { 760, 240 };
		unsigned w[N] = { 3, 1 };
		ct_migrate_spread_plan(&sp, have, w, 5);
		is_int(sp.moves, 0, "750/250 at 3:1: nothing moves");
		ct_migrate_spread_plan(&sp, have, w, 0);
		is_int(sp.moves, 0, "... with no tolerance either");
		ct_migrate_spread_plan(&sp, near, w, 5);
		is_int(sp.moves, 0, "760/240 within 5 %%: left alone");
		ct_migrate_spread_plan(&sp, near, w, 0);
		is_int(sp.moves, 10, "760/240 with no tolerance: 10 move");
	}
	{	/* all on one node of three */
		uint64_t have[N] = { 0, 900 };
		unsigned w[N] = { 1, 1, 1 };
		ct_migrate_spread_plan(&sp, have, w, 5);
		ok(sp.give[1] == 600 && sp.take[0] == 300 && sp.take[2] == 300 && sp.moves == 600,
		   "900 on node 1 over 1:1:1: 600 leave, 300 to each other node");
	}
	{	/* nodes outside the spread, and a zero weight */
		uint64_t have[N] = { 700, 200, 100 };
		unsigned w[N] = { 3, 1 };
		ct_migrate_spread_plan(&sp, have, w, 5);
		ok(sp.target[2] == 0 && sp.give[2] == 100, "node 2 outside the spread gives all its pages");
		ok(sp.take[0] == 50 && sp.take[1] == 50 && sp.moves == 100,
		   "and they fill the deficits of nodes within tolerance (moves 100, not more)");
		apply(&sp, have, end, &moved);
		ok(end[0] == 750 && end[1] == 250 && end[2] == 0, "ends 750/250/0");
		uint64_t few[N] = { 740, 250, 10 };
		ct_migrate_spread_plan(&sp, few, w, 5);
		ok(sp.give[2] == 10 && sp.take[0] == 10 && sp.moves == 10,
		   "10 pages outside the spread (within 5 %% of 0) move all the same, to the node short of its target");
		unsigned wz[N] = { 3, 0, 1 };
		uint64_t hz[N] = { 500, 300, 200 };
		ct_migrate_spread_plan(&sp, hz, wz, 5);
		ok(sp.target[1] == 0 && sp.give[1] == 300 && sp.target[0] == 750 && sp.target[2] == 250,
		   "weight 0: outside the spread, all its pages go");
		unsigned wabs[N] = { 1, 0, 0, 1 };
		uint64_t habs[N] = { 100 };
		ct_migrate_spread_plan(&sp, habs, wabs, 0);
		ok(sp.take[3] == 50 && sp.give[0] == 50, "a node with no pages yet takes its share");
		uint64_t none[N] = { 0 };
		ct_migrate_spread_plan(&sp, none, w, 5);
		ok(sp.total == 0 && sp.moves == 0, "no pages: nothing to do");
	}
	{	/* tolerance edges: 5 %% of 1000 is 50 */
		uint64_t in[N] = { 800, 200 }, out[N] = { 801, 199 };
		unsigned w[N] = { 3, 1 };
		ct_migrate_spread_plan(&sp, in, w, 5);
		is_int(sp.moves, 0, "50 over at 5 %% of 1000: within, left alone");
		ct_migrate_spread_plan(&sp, out, w, 5);
		is_int(sp.moves, 51, "51 over: out, brought to the target exactly");
		ct_migrate_spread_plan(&sp, out, w, 5.1);
		is_int(sp.moves, 0, "51 over at 5.1 %%: within");
		is_int(ct_migrate_spread_plan(&sp, out, w, -1), -EINVAL, "a negative tolerance refused");
		is_int(ct_migrate_spread_plan(&sp, out, w, 100.5), -EINVAL, "a tolerance over 100 refused");
		unsigned nw[N] = { 0 };
		is_int(ct_migrate_spread_plan(&sp, out, nw, 5), -EINVAL, "no weighted node refused");
	}
	{	/* the deficit outside tolerance larger than the surplus outside it */
		uint64_t have[N] = { 140, 104, 56 };
		unsigned w[N] = { 1, 1, 1 };
		ct_migrate_spread_plan(&sp, have, w, 5);
		ok(sp.give[0] == 40 && sp.give[1] == 4 && sp.take[2] == 44 && sp.moves == 44,
		   "140/104/56 at 5 %%: node 1 (within) makes up what node 2 lacks, to its target only");
		apply(&sp, have, end, &moved);
		ok(end[0] == 100 && end[1] == 100 && end[2] == 100, "ends 100/100/100");
	}
	{	/* huge entries: half of one still wanted, it goes */
		uint64_t have[N] = { 1000 };
		unsigned w[N] = { 2, 1 };
		ct_migrate_spread_plan(&sp, have, w, 0);	/* node 0 gives 333 */
		is_int(ct_migrate_spread_pick(&sp, 0, 512), 1, "a 512-page entry with 333 wanted goes");
		is_int(sp.give_left[0], 0, "and the rest of what node 0 gives is used up");
		ct_migrate_spread_plan(&sp, have, w, 0);
		is_int(ct_migrate_spread_pick(&sp, 0, 1024), -1, "a 1024-page entry with 333 wanted stays");
		is_int(ct_migrate_spread_pick(&sp, 1, 1), -1, "a node that gives nothing keeps its pages");
		ok(ct_migrate_spread_gives(&sp, 0) && !ct_migrate_spread_gives(&sp, 1) && !ct_migrate_spread_gives(&sp, 99),
		   "which nodes give");
	}
	{	/* the maps a spread needs: up to where the givers' pages cover what they give */
		static const char maps[] =
			"00400000-00432000 r-xp 00000000 08:01 1 /usr/bin/hog\n"		/* 50 pages on node 0 */
			"7f0000000000-7f0000800000 rw-p 00000000 00:00 0 \n"		/* 2048 on node 0 */
			"7f0001000000-7f0002000000 rw-p 00000000 00:00 0 \n"		/* 4096 on node 0 */
			"7f0003000000-7f0003400000 rw-s 00000000 00:0f 9 /anon_hugepage\n"	/* 2 huge pages on node 2 */
			"7ffc00000000-7ffc00021000 rw-p 00000000 00:00 0 [stack]\n";
		static const char nm[] =
			"00400000 default file=/usr/bin/hog mapped=50 N0=50 kernelpagesize_kB=4\n"
			"7f0000000000 default anon=2048 dirty=2048 N0=2048 kernelpagesize_kB=4\n"
			"7f0001000000 default anon=4096 dirty=4096 N0=4096 kernelpagesize_kB=4\n"
			"7f0003000000 default file=/anon_hugepage huge dirty=2 N2=2 kernelpagesize_kB=2048\n";
		struct ct_numa_vma *vma;
		size_t nvma, cut;
		uint64_t have[N] = { 6194, 0, 1024 };
		unsigned w[N] = { 3, 1 };

		ct_numa_maps_parse_all(nm, &vma, &nvma);
		have[0] = 400, have[2] = 0;
		ct_migrate_spread_plan(&sp, have, w, 0);	/* node 0 gives 100 (with the margin, 1130) */
		cut = ct_migrate_spread_maps_needed(&sp, maps, vma, nvma, 4096);
		is_int(cut, strchr(strstr(maps, "7f0000000000"), '\n') - maps, "node 0 gives 100: the binary's and the next mapping (2098 pages)");
		have[0] = 6000;
		ct_migrate_spread_plan(&sp, have, w, 0);	/* 1500 to give, 2617 with the margin */
		cut = ct_migrate_spread_maps_needed(&sp, maps, vma, nvma, 4096);
		is_int(cut, strchr(strstr(maps, "7f0001000000"), '\n') - maps, "1500: the margin takes the third mapping too");
		have[0] = 0, have[2] = 1024;
		ct_migrate_spread_plan(&sp, have, w, 0);	/* node 2, outside: 1024 pages */
		cut = ct_migrate_spread_maps_needed(&sp, maps, vma, nvma, 4096);
		is_int(cut, strlen(maps), "node 2's 1024 pages: huge pages counted at their size, short of the margin: every mapping");
		have[0] = 20000, have[2] = 0;
		ct_migrate_spread_plan(&sp, have, w, 0);
		is_int(ct_migrate_spread_maps_needed(&sp, maps, vma, nvma, 4096), strlen(maps), "more than the mappings hold: every mapping");
		free(vma);
	}
	{	/* a plan cut short where the one giver's share is reached */
		struct ct_migrate_range r[] = {
			{ 0x400000, 0x432000, 4096, false, false },		/* asked: counts nothing */
			{ 0x7f0000000000, 0x7f0010000000, 4096, true, false },	/* 256 MiB wholly on node 0 */
			{ 0x7f0020000000, 0x7f0020100000, 4096, true, false },
		};
		struct ct_migrate_plan p = { r, 3, 0, 0, 3 };
		uint64_t have[N] = { 65536 + 256 };
		unsigned w[N] = { 3, 1 };

		ct_migrate_spread_plan(&sp, have, w, 0);	/* node 0 gives 16448: 18505 with the margin */
		ct_migrate_spread_trim(&sp, 0, &p, 4096);
		is_int(p.n, 2, "the ranges after the one that holds the share are dropped");
		ok(r[0].end == 0x432000, "a range asked page by page is kept whole");
		is_int(r[1].end, 0x7f0000000000 + (18505ULL * 4096 + (2 << 20) - 1) / (2 << 20) * (2 << 20),
		       "the 256 MiB range ends at the 2 MiB boundary past 18505 pages");
		struct ct_migrate_plan q = { r, 3, 0, 0, 3 };
		r[1].end = 0x7f0000100000;
		ct_migrate_spread_trim(&sp, 0, &q, 4096);
		ok(q.n == 3 && r[2].end == 0x7f0020100000, "ranges too small to hold the share: all kept, whole");
		ct_migrate_spread_trim(&sp, -1, &q, 4096);
		is_int(q.n, 3, "no one giver (-1): nothing cut");
	}
	random_cases();
	return tap_done();
}
