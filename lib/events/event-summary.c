// SPDX-License-Identifier: LGPL-2.1-or-later
/* event-summary.c - a history of event records counted: see event-summary.h */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/array.h"
#include "events/event-summary.h"

#define DESCRIPTOR_UNCORRECTABLE 0x1
#define DAY_NS (86400ULL * 1000000000ULL)

int ct_summary_severity_index(const struct ct_event *e)
{
	int sev = ct_event_severity(e);

	return sev >= 0 && sev <= 3 ? sev : 4;
}

static bool corrected_media(const struct ct_event *e)
{
	return (e->kind == CT_EV_GENERAL_MEDIA || e->kind == CT_EV_DRAM) && !(e->descriptor & DESCRIPTOR_UNCORRECTABLE);
}

static void count(struct ct_summary_counts *c, enum ct_event_kind kind, int sev, uint64_t records, uint64_t corrected)
{
	c->records += records;
	c->corrected += corrected;
	c->by_kind[kind < CT_SUMMARY_KINDS ? kind : CT_EV_GENERIC] += records;
	c->by_severity[sev >= 0 && sev <= 3 ? sev : 4] += records;
}

/* one device: the same memdev name, and the same serial when it has one */
static bool same_device(const char *memdev, uint64_t serial, bool has_serial, const char *memdev2, uint64_t serial2,
			bool has_serial2)
{
	return has_serial == has_serial2 && (!has_serial || serial == serial2) && !strcmp(memdev, memdev2);
}

const struct ct_summary_memdev *ct_event_summary_memdev(const struct ct_event_summary *s, const char *memdev,
							uint64_t serial, bool has_serial)
{
	for (size_t i = 0; i < s->nmemdevs; i++)
		if (same_device(s->memdevs[i].memdev, s->memdevs[i].serial, s->memdevs[i].has_serial, memdev, serial,
				has_serial))
			return &s->memdevs[i];
	return NULL;
}

/* one more element of size sz at the end of an array of n: it, zeroed */
static void *append(void **arr, size_t *n, size_t sz)
{
	if (ct_array_grow(NULL, arr, *n, sz))
		return NULL;
	return (char *)*arr + (*n)++ * sz;
}

static struct ct_summary_memdev *memdev_of(struct ct_event_summary *s, const char *memdev, uint64_t serial,
					   bool has_serial)
{
	struct ct_summary_memdev *m = (struct ct_summary_memdev *)ct_event_summary_memdev(s, memdev, serial, has_serial);

	if (m)
		return m;
	if (!(m = append((void **)&s->memdevs, &s->nmemdevs, sizeof(*m))))
		return NULL;
	snprintf(m->memdev, sizeof(m->memdev), "%s", memdev);
	m->serial = serial;
	m->has_serial = has_serial;
	return m;
}

static int add_day(struct ct_event_summary *s, int64_t day, uint64_t records)
{
	size_t i = s->ndays;
	struct ct_summary_day *d;

	while (i > 0 && s->days[i - 1].day > day)
		i--;
	if (i > 0 && s->days[i - 1].day == day) {
		s->days[i - 1].records += records;
		return 0;
	}
	if (!append((void **)&s->days, &s->ndays, sizeof(*d)))
		return -ENOMEM;
	memmove(&s->days[i + 1], &s->days[i], (s->ndays - 1 - i) * sizeof(*d));
	s->days[i] = (struct ct_summary_day){ day, records };
	return 0;
}

static void span(uint64_t *first, uint64_t *last, uint64_t from, uint64_t to)
{
	if (from && (!*first || from < *first))
		*first = from;
	if (to > *last)
		*last = to;
}

int ct_event_summary_add_group(struct ct_event_summary *s, const struct ct_summary_group *g)
{
	struct ct_summary_memdev *m = memdev_of(s, g->memdev, g->serial, g->has_serial);

	if (!m)
		return -ENOMEM;
	count(&s->all, g->kind, g->severity, g->records, g->corrected);
	count(&m->c, g->kind, g->severity, g->records, g->corrected);
	if (!g->first_ns)
		return 0;
	span(&s->first_ns, &s->last_ns, g->first_ns, g->last_ns);
	return add_day(s, g->day, g->records);
}

int ct_event_summary_add(struct ct_event_summary *s, const struct ct_event *e)
{
	uint64_t ns = ct_event_host_time(e);
	struct ct_summary_group g = {
		.memdev = e->memdev, .has_serial = e->has_serial, .serial = e->serial, .kind = e->kind,
		.severity = ct_summary_severity_index(e), .day = (int64_t)(ns / DAY_NS), .records = 1,
		.corrected = corrected_media(e), .first_ns = ns, .last_ns = ns,
	};
	struct ct_summary_page *p;
	int rc = ct_event_summary_add_group(s, &g);

	if (rc || !corrected_media(e))
		return rc;
	if (s->nheld == s->cheld) {
		size_t cap = s->cheld ? 2 * s->cheld : 64;
		struct ct_summary_page *more = realloc(s->held, cap * sizeof(*more));
		if (!more)
			return -ENOMEM;
		s->held = more;
		s->cheld = cap;
	}
	p = &s->held[s->nheld++];
	memset(p, 0, sizeof(*p));
	snprintf(p->memdev, sizeof(p->memdev), "%s", e->memdev);
	p->serial = e->serial;
	p->has_serial = e->has_serial;
	p->dpa = e->dpa & ~(uint64_t)(CT_SUMMARY_PAGE - 1);
	p->has_hpa = e->has_hpa;
	p->hpa = e->hpa & ~(uint64_t)(CT_SUMMARY_PAGE - 1);
	p->records = 1;
	p->first_ns = p->last_ns = ns;
	s->held_sorted = false;
	return 0;
}

/* by memdev, serial and DPA */
static int by_place(const void *a, const void *b)
{
	const struct ct_summary_page *x = a, *y = b;
	int c = strcmp(x->memdev, y->memdev);

	if (c)
		return c;
	if (x->has_serial != y->has_serial)
		return x->has_serial ? 1 : -1;
	if (x->serial != y->serial)
		return x->serial < y->serial ? -1 : 1;
	return x->dpa < y->dpa ? -1 : x->dpa > y->dpa;
}

/* the most corrected first, then by place */
static int by_records(const void *a, const void *b)
{
	const struct ct_summary_page *x = a, *y = b;

	if (x->records != y->records)
		return x->records < y->records ? 1 : -1;
	return by_place(a, b);
}

/* the held pages in place order, each page once */
static void sort_held(struct ct_event_summary *s)
{
	size_t n = 0;

	if (s->held_sorted)
		return;
	if (s->nheld)	/* (qsort's array may not be NULL, even empty) */
		qsort(s->held, s->nheld, sizeof(*s->held), by_place);
	for (size_t i = 0; i < s->nheld; i++) {
		struct ct_summary_page *p = &s->held[i], *q = n ? &s->held[n - 1] : NULL;
		if (q && !by_place(p, q)) {
			q->records += p->records;
			span(&q->first_ns, &q->last_ns, p->first_ns, p->last_ns);
			if (!q->has_hpa && p->has_hpa) {
				q->has_hpa = true;
				q->hpa = p->hpa;
			}
			continue;
		}
		s->held[n++] = *p;
	}
	s->nheld = n;
	s->held_sorted = true;
}

/* one page among the most corrected, when it is */
static int keep_top(struct ct_event_summary *s, const struct ct_summary_page *p)
{
	size_t at;

	s->pages_total++;
	if (!s->pages && !(s->pages = calloc(CT_SUMMARY_TOP_PAGES, sizeof(*s->pages))))
		return -ENOMEM;
	if (s->npages == CT_SUMMARY_TOP_PAGES && by_records(p, &s->pages[s->npages - 1]) >= 0)
		return 0;
	at = s->npages < CT_SUMMARY_TOP_PAGES ? s->npages++ : s->npages - 1;
	while (at > 0 && by_records(p, &s->pages[at - 1]) < 0) {
		s->pages[at] = s->pages[at - 1];
		at--;
	}
	s->pages[at] = *p;
	return 0;
}

int ct_event_summary_add_page(struct ct_event_summary *s, const struct ct_summary_page *p)
{
	struct ct_summary_page one = *p, *h;

	sort_held(s);
	h = s->nheld ? bsearch(p, s->held, s->nheld, sizeof(*s->held), by_place) : NULL;
	if (h && !h->merged) {
		one.records += h->records;
		span(&one.first_ns, &one.last_ns, h->first_ns, h->last_ns);
		if (!one.has_hpa && h->has_hpa) {
			one.has_hpa = true;
			one.hpa = h->hpa;
		}
		h->merged = true;
	}
	return keep_top(s, &one);
}

int ct_event_summary_finish(struct ct_event_summary *s)
{
	int rc = 0;

	sort_held(s);
	for (size_t i = 0; i < s->nheld && !rc; i++)
		if (!s->held[i].merged)
			rc = keep_top(s, &s->held[i]);
	free(s->held);
	s->held = NULL;
	s->nheld = s->cheld = 0;
	return rc;
}

void ct_event_summary_free(struct ct_event_summary *s)
{
	free(s->memdevs);
	free(s->days);
	free(s->pages);
	free(s->held);
	memset(s, 0, sizeof(*s));
}
