// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mm/migrate-plan.h"

bool ct_migrate_plan_is_source(const struct ct_nodeset *from, int to, int node)
{
	if (node == to)
		return false;
	return !ct_nodeset_count(from) || ct_nodeset_has(from, node);
}

static int add(struct ct_migrate_plan *p, uint64_t a, uint64_t b, uint64_t step, bool direct, bool thp)
{
	struct ct_migrate_range *last = p->n ? &p->r[p->n - 1] : NULL;

	if (a >= b)
		return 0;
	if (direct)
		p->bytes_direct += b - a;
	else
		p->bytes_query += b - a;
	if (last && last->end == a && last->step == step && last->direct == direct && last->thp == thp) {
		last->end = b;	/* one range where DAMON saw several regions */
		return 0;
	}
	if (p->n == p->cap) {
		size_t nc = p->cap ? 2 * p->cap : 64;
		struct ct_migrate_range *nr = realloc(p->r, nc * sizeof(*nr));
		if (!nr)
			return -ENOMEM;
		p->r = nr;
		p->cap = nc;
	}
	p->r[p->n++] = (struct ct_migrate_range){ a, b, step, direct, thp };
	return 0;
}

int ct_migrate_plan_build(const char *maps, const struct ct_numa_vma *vma, size_t nvma, const struct ct_migrate_selection *sel,
		      const struct ct_nodeset *from, int to, uint64_t page_size, struct ct_migrate_plan *p)
{
	size_t j = 0;
	const char *line = maps;
	int rc = 0;

	memset(p, 0, sizeof(*p));
	if (sel && sel->on && !sel->n)
		return 0;	/* nothing chosen */
	for (; line && *line && !rc; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		unsigned long long a, b;
		char perms[8];
		uint64_t src = 0, all = 0, step = page_size;
		bool direct = false;

		size_t len = strcspn(line, "\n");

		/* [vsyscall] is not the process's. A mapping that cannot be read
		 * (PROT_NONE after use, write-only) still holds pages that
		 * move_pages moves (vma_migratable does not look at VM_READ), as
		 * migrate_pages does: it is planned like any other */
		if (sscanf(line, "%llx-%llx %7s", &a, &b, perms) != 3 || memmem(line, len, "[vsyscall]", 10))
			continue;
		while (j < nvma && vma[j].start < a)
			j++;
		if (j < nvma && vma[j].start == a) {
			for (int n = 0; n < 64; n++) {
				all += vma[j].pages[n];
				if (ct_migrate_plan_is_source(from, to, n))
					src += vma[j].pages[n];
			}
			if (!src)
				continue;	/* nothing of it on a source node */
			if (vma[j].huge && vma[j].page_kb)
				step = vma[j].page_kb * 1024;
			direct = src == all && all * step == b - a;
		}
		/* no numa_maps line (the mapping is newer): ask page by page */
		if (!sel || !sel->on) {
			rc = add(p, a, b, step, direct, false);
			continue;
		}
		for (size_t k = 0; k < sel->n && !rc; k++) {
			uint64_t s0 = sel->range[k].start > a ? sel->range[k].start : a;
			uint64_t e0 = sel->range[k].end < b ? sel->range[k].end : b;
			if (s0 >= e0)
				continue;
			s0 &= ~(step - 1);		/* a huge page touched is a huge page chosen */
			e0 = (e0 + step - 1) & ~(step - 1);
			rc = add(p, s0 < a ? a : s0, e0 > b ? b : e0, step, direct, false);
		}
	}
	if (rc)
		ct_migrate_plan_free(p);
	return rc;
}

int ct_migrate_plan_add_present(struct ct_migrate_plan *p, const struct ct_migrate_range *r, const struct ct_present *pr, size_t n,
			    uint64_t huge_size)
{
	int rc = 0;

	for (size_t i = 0; i < n && !rc; i++) {
		uint64_t a = pr[i].start > r->start ? pr[i].start : r->start;
		uint64_t b = pr[i].end < r->end ? pr[i].end : r->end;
		const struct ct_migrate_range *last = p->n ? &p->r[p->n - 1] : NULL;
		if (a >= b)
			continue;
		if (!pr[i].huge || !huge_size || huge_size <= r->step) {
			rc = add(p, a, b, r->step, r->direct, false);
			continue;
		}
		/* a PMD maps a naturally aligned huge page inside one mapping */
		a &= ~(huge_size - 1);
		b = (b + huge_size - 1) & ~(huge_size - 1);
		if (last && last->end > a)
			a = last->end;	/* the huge page a range before took already */
		if (a < b)
			rc = add(p, a, b, huge_size, r->direct, true);
	}
	return rc;
}

int ct_migrate_plan_split(const struct ct_migrate_plan *p, unsigned long max_entries, struct ct_migrate_range **out, size_t *n)
{
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	for (size_t i = 0; i < p->n; i++) {
		const struct ct_migrate_range *r = &p->r[i];
		uint64_t block = max_entries * r->step;
		for (uint64_t a = r->start; a < r->end;) {
			uint64_t b = (a / block + 1) * block;
			if (b > r->end)
				b = r->end;
			if (*n == cap) {
				size_t nc = cap ? 2 * cap : 64;
				struct ct_migrate_range *nr = realloc(*out, nc * sizeof(*nr));
				if (!nr) {
					free(*out);
					*out = NULL;
					*n = 0;
					return -ENOMEM;
				}
				*out = nr;
				cap = nc;
			}
			(*out)[(*n)++] = (struct ct_migrate_range){ a, b, r->step, r->direct, r->thp };
			a = b;
		}
	}
	return 0;
}

void ct_migrate_plan_free(struct ct_migrate_plan *p)
{
	free(p->r);
	memset(p, 0, sizeof(*p));
}
