/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * event-filter.h - which records a reader wants: of these memdevs, kinds
 * and severities, within a time (the device's timestamp when the record
 * has one, else the kernel's emit time: ct_event_time). An empty part
 * takes every record. Pure.
 */
#ifndef CXLTIER_EVENT_FILTER_H
#define CXLTIER_EVENT_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "events/event.h"

struct ct_event_filter {
	const char *const *memdevs;	/* nmemdevs names; none: every memdev */
	size_t nmemdevs;
	unsigned kinds;			/* 1 << enum ct_event_kind per kind wanted; 0: all */
	unsigned severities;		/* 1 << severity (0 informational .. 3 fatal) per one wanted; 0: all */
	uint64_t since_ns, until_ns;	/* since_ns <= time < until_ns; 0: open */
};

/* does the filter take e? */
bool ct_event_filter_match(const struct ct_event_filter *f, const struct ct_event *e);
/* does it take the records of memdev? */
bool ct_event_filter_memdev(const struct ct_event_filter *f, const char *memdev);

#endif
