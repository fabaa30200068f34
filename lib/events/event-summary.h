/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * event-summary.h - a history of event records counted: per memdev, kind,
 * severity and day (UTC, by the host's time: when the records arrived), and
 * the pages (4 KiB of device physical address) with the most corrected
 * errors (General Media and DRAM records whose descriptor does not say
 * uncorrectable). Records come one at a time (what is live), or already
 * counted in groups and pages (the store's own grouping: event-store.h);
 * memory holds the groups and the pages of the records added one at a
 * time, never every page of the store. Pure.
 */
#ifndef CXLTIER_EVENT_SUMMARY_H
#define CXLTIER_EVENT_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "events/event.h"

#define CT_SUMMARY_KINDS (CT_EV_GENERIC + 1)
#define CT_SUMMARY_SEVERITIES 5		/* informational, warning, failure, fatal, unknown */
#define CT_SUMMARY_PAGE 4096
#define CT_SUMMARY_TOP_PAGES 10		/* the pages kept: the most corrected */

struct ct_summary_counts {
	uint64_t records;
	uint64_t corrected;	/* General Media and DRAM records not marked uncorrectable */
	uint64_t by_kind[CT_SUMMARY_KINDS];
	uint64_t by_severity[CT_SUMMARY_SEVERITIES];
};

struct ct_summary_memdev {
	char memdev[32];
	uint64_t serial;
	bool has_serial;
	struct ct_summary_counts c;
};

struct ct_summary_day {
	int64_t day;		/* days since 1970-01-01 (UTC) */
	uint64_t records;
};

struct ct_summary_page {
	char memdev[32];
	uint64_t serial;
	bool has_serial;
	uint64_t dpa;		/* the page's first byte */
	bool has_hpa;
	uint64_t hpa;		/* the page's host physical address, when a record said */
	uint64_t records;
	uint64_t first_ns, last_ns;
	bool merged;		/* (a page held: counted with the store's same page) */
};

/* records of one memdev, kind, severity and day, counted elsewhere */
struct ct_summary_group {
	const char *memdev;
	bool has_serial;
	uint64_t serial;
	enum ct_event_kind kind;
	int severity;		/* 0..3, else unknown */
	int64_t day;
	uint64_t records, corrected;
	uint64_t first_ns, last_ns;
};

struct ct_event_summary {
	struct ct_summary_counts all;
	uint64_t first_ns, last_ns;	/* the records' host times (0: none known) */
	struct ct_summary_memdev *memdevs;
	size_t nmemdevs;
	struct ct_summary_day *days;	/* in order */
	size_t ndays;
	struct ct_summary_page *pages;	/* the most corrected, at most CT_SUMMARY_TOP_PAGES: in order after finish */
	size_t npages;
	uint64_t pages_total;		/* every page with a corrected error */
	/* the pages of the records added one at a time, until finish */
	struct ct_summary_page *held;
	size_t nheld, cheld;
	bool held_sorted;
};

/* one record counted: 0, or -ENOMEM */
int ct_event_summary_add(struct ct_event_summary *s, const struct ct_event *e);
/* a group of records counted: 0, or -ENOMEM */
int ct_event_summary_add_group(struct ct_event_summary *s, const struct ct_summary_group *g);
/* one page counted elsewhere (each page once, after every record added one
 * at a time): 0, or -ENOMEM */
int ct_event_summary_add_page(struct ct_event_summary *s, const struct ct_summary_page *p);
/* the pages most corrected first (then by memdev, serial and DPA): call
 * once, after the last add */
int ct_event_summary_finish(struct ct_event_summary *s);
void ct_event_summary_free(struct ct_event_summary *s);
/* a device's counts (the same memdev name, and serial when it has one), or NULL */
const struct ct_summary_memdev *ct_event_summary_memdev(const struct ct_event_summary *s, const char *memdev,
							uint64_t serial, bool has_serial);
/* severity index of the counts: 0..3 the severities, 4 unknown */
int ct_summary_severity_index(const struct ct_event *e);

#endif
