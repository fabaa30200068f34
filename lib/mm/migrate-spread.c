// SPDX-License-Identifier: LGPL-2.1-or-later
/* migrate-spread.c - the target split of a weighted spread and the fewest
 * moves that reach it (migrate-spread.h) */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "mm/migrate-spread.h"

#define N CT_SPREAD_MAX_NODES

/* each weighted node's share of total, by largest remainder: the targets
 * add up to total exactly */
static void targets(struct ct_migrate_spread *sp, const unsigned *weight, uint64_t wsum)
{
	uint64_t rem[N] = { 0 }, given = 0;

	for (int n = 0; n < N; n++) {
		unsigned __int128 x = (unsigned __int128)sp->total * weight[n];
		sp->target[n] = (uint64_t)(x / wsum);
		rem[n] = (uint64_t)(x % wsum);
		given += sp->target[n];
	}
	/* what the floors left, a page each to the largest remainders (at
	 * most one per weighted node, as the remainders are below wsum) */
	for (; given < sp->total; given++) {
		int best = -1;
		for (int n = 0; n < N; n++)
			if (weight[n] && (best < 0 || rem[n] > rem[best] ||
					  (rem[n] == rem[best] && weight[n] > weight[best])))
				best = n;
		sp->target[best]++;
		rem[best] = 0;
	}
}

/* up to *extra more pages from the nodes in-tolerance whose gap (have -
 * target for givers, target - have for takers) is positive, the largest
 * gap first; into out[] */
static void make_up(uint64_t *out, const uint64_t *gap, const bool *eligible, uint64_t extra)
{
	bool used[N] = { false };

	while (extra) {
		int best = -1;
		for (int n = 0; n < N; n++)
			if (eligible[n] && !used[n] && gap[n] && (best < 0 || gap[n] > gap[best]))
				best = n;
		if (best < 0)
			return;
		used[best] = true;
		out[best] = gap[best] < extra ? gap[best] : extra;
		extra -= out[best];
	}
}

int ct_migrate_spread_plan(struct ct_migrate_spread *sp, const uint64_t *have, const unsigned *weight, double tolerance_pct)
{
	uint64_t wsum = 0, tol, g = 0, t = 0, over[N] = { 0 }, under[N] = { 0 };
	bool inside[N] = { false };

	memset(sp, 0, sizeof(*sp));
	for (int n = 0; n < N; n++) {
		wsum += weight[n];
		sp->total += have[n];
	}
	if (!wsum || !(tolerance_pct >= 0 && tolerance_pct <= 100))
		return -EINVAL;
	targets(sp, weight, wsum);
	tol = (uint64_t)((double)sp->total * tolerance_pct / 100);	/* (rounded down) */
	for (int n = 0; n < N; n++) {
		over[n] = have[n] > sp->target[n] ? have[n] - sp->target[n] : 0;
		under[n] = sp->target[n] > have[n] ? sp->target[n] - have[n] : 0;
		inside[n] = weight[n] && over[n] <= tol && under[n] <= tol;
		if (inside[n])
			continue;
		sp->give[n] = over[n];	/* outside the spread: all of it (its target is 0) */
		sp->take[n] = under[n];
		g += over[n];
		t += under[n];
	}
	/* the sums of over and under are equal (the targets add up to the
	 * total): what one side lacks, the nodes inside have */
	if (g > t)
		make_up(sp->take, under, inside, g - t);
	else if (t > g)
		make_up(sp->give, over, inside, t - g);
	sp->moves = g > t ? g : t;
	memcpy(sp->give_left, sp->give, sizeof(sp->give));
	memcpy(sp->take_left, sp->take, sizeof(sp->take));
	sp->left = sp->moves;
	for (int n = 0; n < N; n++)
		if (sp->take[n])
			sp->taker[sp->ntakers++] = n;
	return 0;
}

bool ct_migrate_spread_gives(const struct ct_migrate_spread *sp, int node)
{
	return node >= 0 && node < N && sp->give_left[node];
}

static uint64_t less(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

int ct_migrate_spread_pick(struct ct_migrate_spread *sp, int from, uint64_t pages)
{
	int to = -1;

	if (from < 0 || from >= N || !pages || sp->give_left[from] * 2 < pages)
		return -1;
	for (int i = 0; i < sp->ntakers; i++) {
		int n = sp->taker[i];
		if (n != from && sp->take_left[n] && (to < 0 || sp->take_left[n] > sp->take_left[to]))
			to = n;
	}
	if (to < 0 || sp->take_left[to] * 2 < pages)
		return -1;
	sp->left -= sp->give_left[from] < pages ? sp->give_left[from] : pages;
	sp->give_left[from] = less(sp->give_left[from], pages);
	sp->take_left[to] = less(sp->take_left[to], pages);
	return to;
}

/* what a node gives, and a sixteenth and two huge pages more */
static uint64_t margin(uint64_t give)
{
	return give ? give + give / 16 + 1024 : 0;
}

size_t ct_migrate_spread_maps_needed(const struct ct_migrate_spread *sp, const char *maps, const struct ct_numa_vma *vma,
				     size_t nvma, uint64_t page_size)
{
	uint64_t want[N], seen[N] = { 0 };
	const char *line = maps;
	size_t j = 0;

	for (int n = 0; n < N; n++)
		want[n] = margin(sp->give[n]);
	for (; *line; line += strcspn(line, "\n"), line += *line == '\n') {
		unsigned long long a;
		bool covered = true;
		if (sscanf(line, "%llx-", &a) != 1)
			continue;
		while (j < nvma && vma[j].start < a)
			j++;
		for (int n = 0; j < nvma && vma[j].start == a && n < N; n++) {
			uint64_t per = vma[j].page_kb ? vma[j].page_kb * 1024 / page_size : 1;
			seen[n] += vma[j].pages[n] * (per ? per : 1);
		}
		for (int n = 0; n < N && covered; n++)
			covered = seen[n] >= want[n];
		if (covered)
			return (size_t)(line - maps) + strcspn(line, "\n");
	}
	return (size_t)(line - maps);
}

void ct_migrate_spread_trim(const struct ct_migrate_spread *sp, int giver, struct ct_migrate_plan *p, uint64_t page_size)
{
	uint64_t want, seen = 0;

	if (giver < 0 || giver >= N)
		return;
	want = margin(sp->give[giver]);
	for (size_t i = 0; i < p->n; i++) {
		struct ct_migrate_range *r = &p->r[i];
		uint64_t pages = (r->end - r->start) / page_size, align, end;
		if (!r->direct)
			continue;
		if (seen + pages < want) {
			seen += pages;
			continue;
		}
		align = r->step > (2u << 20) ? r->step : (2u << 20);
		end = r->start + (want - seen) * page_size;
		end = (end + align - 1) / align * align;
		if (end < r->end)
			r->end = end;
		p->n = i + 1;
		return;
	}
}
