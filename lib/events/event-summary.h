/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * event-summary.h - a history of event records counted: per memdev, kind,
 * severity and day (UTC), and the pages (4 KiB of device physical address)
 * with the most corrected errors (General Media and DRAM records whose
 * descriptor does not say uncorrectable). Pure.
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
};

struct ct_event_summary {
	struct ct_summary_counts all;
	uint64_t first_ns, last_ns;	/* the records' times (0: none known) */
	struct ct_summary_memdev *memdevs;
	size_t nmemdevs;
	struct ct_summary_day *days;	/* in order */
	size_t ndays;
	struct ct_summary_page *pages;	/* every page with a corrected error */
	size_t npages;
};

/* one record counted: 0, or -ENOMEM */
int ct_event_summary_add(struct ct_event_summary *s, const struct ct_event *e);
/* the pages most corrected first (then by memdev and DPA): call once, after
 * the last add */
void ct_event_summary_sort_pages(struct ct_event_summary *s);
void ct_event_summary_free(struct ct_event_summary *s);
/* a device's counts (the same memdev name, and serial when it has one), or NULL */
const struct ct_summary_memdev *ct_event_summary_memdev(const struct ct_event_summary *s, const char *memdev,
							uint64_t serial, bool has_serial);
/* severity index of the counts: 0..3 the severities, 4 unknown */
int ct_summary_severity_index(const struct ct_event *e);

#endif
