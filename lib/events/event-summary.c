// SPDX-License-Identifier: LGPL-2.1-or-later
/* event-summary.c - a history of event records counted: see event-summary.h */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/array.h"
#include "events/event-summary.h"

#define DESCRIPTOR_UNCORRECTABLE 0x1

int ct_summary_severity_index(const struct ct_event *e)
{
	int sev = ct_event_severity(e);

	return sev >= 0 && sev <= 3 ? sev : 4;
}

static bool corrected_media(const struct ct_event *e)
{
	return (e->kind == CT_EV_GENERAL_MEDIA || e->kind == CT_EV_DRAM) && !(e->descriptor & DESCRIPTOR_UNCORRECTABLE);
}

static void count(struct ct_summary_counts *c, const struct ct_event *e)
{
	c->records++;
	c->corrected += corrected_media(e);
	c->by_kind[e->kind < CT_SUMMARY_KINDS ? e->kind : CT_EV_GENERIC]++;
	c->by_severity[ct_summary_severity_index(e)]++;
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

static struct ct_summary_memdev *memdev_of(struct ct_event_summary *s, const struct ct_event *e)
{
	struct ct_summary_memdev *m = (struct ct_summary_memdev *)ct_event_summary_memdev(s, e->memdev, e->serial,
											 e->has_serial);

	if (m)
		return m;
	if (!(m = append((void **)&s->memdevs, &s->nmemdevs, sizeof(*m))))
		return NULL;
	memcpy(m->memdev, e->memdev, sizeof(m->memdev));
	m->serial = e->serial;
	m->has_serial = e->has_serial;
	return m;
}

static int add_day(struct ct_event_summary *s, uint64_t ns)
{
	int64_t day = (int64_t)(ns / 1000000000ULL / 86400);
	size_t i = s->ndays;
	struct ct_summary_day *d;

	while (i > 0 && s->days[i - 1].day > day)
		i--;
	if (i > 0 && s->days[i - 1].day == day) {
		s->days[i - 1].records++;
		return 0;
	}
	if (!append((void **)&s->days, &s->ndays, sizeof(*d)))
		return -ENOMEM;
	memmove(&s->days[i + 1], &s->days[i], (s->ndays - 1 - i) * sizeof(*d));
	s->days[i] = (struct ct_summary_day){ day, 1 };
	return 0;
}

static int add_page(struct ct_event_summary *s, const struct ct_event *e, uint64_t ns)
{
	uint64_t dpa = e->dpa & ~(uint64_t)(CT_SUMMARY_PAGE - 1);
	struct ct_summary_page *p = NULL;

	for (size_t i = 0; i < s->npages && !p; i++)
		if (s->pages[i].dpa == dpa && same_device(s->pages[i].memdev, s->pages[i].serial, s->pages[i].has_serial,
							  e->memdev, e->serial, e->has_serial))
			p = &s->pages[i];
	if (!p) {
		if (!(p = append((void **)&s->pages, &s->npages, sizeof(*p))))
			return -ENOMEM;
		memcpy(p->memdev, e->memdev, sizeof(p->memdev));
		p->serial = e->serial;
		p->has_serial = e->has_serial;
		p->dpa = dpa;
		p->first_ns = ns;
	}
	if (e->has_hpa && !p->has_hpa) {
		p->has_hpa = true;
		p->hpa = e->hpa & ~(uint64_t)(CT_SUMMARY_PAGE - 1);
	}
	p->records++;
	if (ns && (!p->first_ns || ns < p->first_ns))
		p->first_ns = ns;
	if (ns > p->last_ns)
		p->last_ns = ns;
	return 0;
}

int ct_event_summary_add(struct ct_event_summary *s, const struct ct_event *e)
{
	uint64_t ns = ct_event_time(e);
	struct ct_summary_memdev *m = memdev_of(s, e);

	if (!m)
		return -ENOMEM;
	count(&s->all, e);
	count(&m->c, e);
	if (ns) {
		if (!s->first_ns || ns < s->first_ns)
			s->first_ns = ns;
		if (ns > s->last_ns)
			s->last_ns = ns;
		if (add_day(s, ns))
			return -ENOMEM;
	}
	return corrected_media(e) ? add_page(s, e, ns) : 0;
}

static int by_records(const void *a, const void *b)
{
	const struct ct_summary_page *x = a, *y = b;
	int c;

	if (x->records != y->records)
		return x->records < y->records ? 1 : -1;
	if ((c = strcmp(x->memdev, y->memdev)))
		return c;
	return x->dpa < y->dpa ? -1 : x->dpa > y->dpa;
}

void ct_event_summary_sort_pages(struct ct_event_summary *s)
{
	if (s->npages)
		qsort(s->pages, s->npages, sizeof(*s->pages), by_records);
}

void ct_event_summary_free(struct ct_event_summary *s)
{
	free(s->memdevs);
	free(s->days);
	free(s->pages);
	memset(s, 0, sizeof(*s));
}
