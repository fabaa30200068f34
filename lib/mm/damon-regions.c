// SPDX-License-Identifier: LGPL-2.1-or-later
/* damon-regions.c - several of DAMON's snapshots of a process's regions made
 * one: an address counts as accessed when any snapshot saw its region
 * accessed. DAMON checks one sampled page per region per sample interval, so
 * a region holding a few hot pages among many cold ones can show no access in
 * one aggregation interval; it rarely does so in several in a row, and the
 * regions are split differently each time. */
#include <errno.h>
#include <stdlib.h>
#include "mm/damon.h"

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/* the region of r[0..n) (sorted, not overlapping) holding addr, from *k on */
static const struct ct_access_region *covering(const struct ct_access_region *r, size_t n, size_t *k, uint64_t addr)
{
	while (*k < n && r[*k].end <= addr)
		(*k)++;
	return *k < n && r[*k].start <= addr ? &r[*k] : NULL;
}

static int by_start(const void *x, const void *y)
{
	const struct ct_access_region *a = x, *b = y;

	return a->start < b->start ? -1 : a->start > b->start;
}

int ct_access_regions_merge(struct ct_access_region *a, size_t na, struct ct_access_region *b, size_t nb,
			    struct ct_access_region **out, size_t *nout)
{
	size_t nbound = 2 * (na + nb), nb_u = 0, ka = 0, kb = 0, n = 0;
	uint64_t *bound = malloc((nbound ? nbound : 1) * sizeof(*bound));
	struct ct_access_region *r = calloc(nbound ? nbound : 1, sizeof(*r));

	*out = NULL;
	*nout = 0;
	if (!bound || !r) {
		free(bound);
		free(r);
		return -ENOMEM;
	}
	if (na)		/* qsort's array may not be NULL, even empty */
		qsort(a, na, sizeof(*a), by_start);
	if (nb)
		qsort(b, nb, sizeof(*b), by_start);
	for (size_t i = 0; i < na; i++) {
		bound[nb_u++] = a[i].start;
		bound[nb_u++] = a[i].end;
	}
	for (size_t i = 0; i < nb; i++) {
		bound[nb_u++] = b[i].start;
		bound[nb_u++] = b[i].end;
	}
	if (nb_u)
		qsort(bound, nb_u, sizeof(*bound), cmp_u64);
	for (size_t i = 0; i + 1 < nb_u; i++) {
		const struct ct_access_region *ra, *rb;
		struct ct_access_region piece = { .start = bound[i], .end = bound[i + 1] };
		if (piece.start == piece.end)
			continue;
		ra = covering(a, na, &ka, piece.start);
		rb = covering(b, nb, &kb, piece.start);
		if (!ra && !rb)
			continue;	/* a gap in both */
		piece.nr_accesses = ra && rb ? (ra->nr_accesses > rb->nr_accesses ? ra->nr_accesses : rb->nr_accesses)
					     : (ra ? ra : rb)->nr_accesses;
		piece.age = ra && rb ? (ra->age < rb->age ? ra->age : rb->age) : (ra ? ra : rb)->age;
		if (n && r[n - 1].end == piece.start && r[n - 1].nr_accesses == piece.nr_accesses &&
		    r[n - 1].age == piece.age)
			r[n - 1].end = piece.end;
		else
			r[n++] = piece;
	}
	free(bound);
	*out = r;
	*nout = n;
	return 0;
}
