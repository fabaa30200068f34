/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * retire-log.h - the follower's decisions on pages in the event store:
 * one row a page of a device (table `retirements`: its last decision, when
 * it was first and last decided, its soft-offline tries and when it may be
 * tried again), every decision counted per memdev, serial and action
 * (`retire_counts`, which only grows: `metrics`); and the corrected errors
 * the store holds per page of a device, which decide a retirement
 * (page-retire.h). The rows are bounded by the store (event-store.h).
 *
 * A device is its identity in the store (event-store.h): the limit per
 * hour and the pages already decided are per device.
 */
#ifndef CXLTIER_RETIRE_LOG_H
#define CXLTIER_RETIRE_LOG_H

#include <stdbool.h>
#include <stdint.h>
#include "core/error.h"
#include "events/event-store.h"

enum ct_retire_action {
	CT_RETIRE_RETIRED,	/* soft-offlined by cxltier */
	CT_RETIRE_ALREADY,	/* found HWPOISON already (the kernel, or another tool, took it) */
	CT_RETIRE_FAILED,	/* the kernel refused it: message says why */
	CT_RETIRE_LIMITED,	/* not tried: the device's limit per hour was reached */
	CT_RETIRE_STALE,	/* not tried: the record's HPA no longer maps its DPA on that card */
};

struct ct_retirement {
	uint64_t time_ns;		/* when cxltier decided (ns since 1970; the last decision) */
	uint64_t first_ns;		/* its first decision on the page */
	uint64_t tried_ns;		/* its last soft-offline try, 0 none */
	uint64_t next_ns;		/* a page that failed or was stale: not tried again before */
	unsigned tries;			/* soft-offline tries */
	char memdev[32];
	bool has_serial;
	uint64_t serial;
	char device[CT_EVENT_IDENTITY_MAX];	/* the device's identity in the store */
	uint64_t dpa, hpa;		/* the page's first byte on the device and in the host */
	enum ct_retire_action action;
	unsigned errors;		/* corrected errors on the page within the window */
	char reason[192];
	char message[256];		/* FAILED, STALE: why */
};

const char *ct_retire_log_action_name(enum ct_retire_action a);	/* "retired", "already_poisoned", ... */

/* the decision r written: its page's row made or updated (time_ns the
 * decision's; first_ns, tries and the rest as r says), the action counted */
int ct_retire_log_add(struct ct_event_store *s, const struct ct_retirement *r, struct ct_error *err);
/* the page's row (device, dpa): 1 and *r; 0 when there is none */
int ct_retire_log_page(struct ct_event_store *s, const char *device, uint64_t dpa, struct ct_retirement *r,
		       struct ct_error *err);
/* the device's pages other than dpa tried at or after since_ns */
int ct_retire_log_tried(struct ct_event_store *s, const char *device, uint64_t dpa, uint64_t since_ns, unsigned *n,
			struct ct_error *err);
/* the corrected General Media and DRAM errors the store holds for device's
 * DPA range [dpa, dpa + len) that arrived at or after since_ns (the host's
 * time), counted up to max: what it costs grows with max, not with the
 * store */
int ct_retire_log_page_errors(struct ct_event_store *s, const char *device, uint64_t dpa, uint64_t len,
			      uint64_t since_ns, unsigned max, unsigned *n, struct ct_error *err);
/* the decisions per memdev, serial (0: none) and action, ever */
typedef void (*ct_retire_log_count_fn)(const char *memdev, uint64_t serial, enum ct_retire_action action, uint64_t n,
				       void *arg);
int ct_retire_log_counts(struct ct_event_store *s, ct_retire_log_count_fn fn, void *arg, struct ct_error *err);
/* the pages per memdev, serial (0: none) and last decision */
int ct_retire_log_pages(struct ct_event_store *s, ct_retire_log_count_fn fn, void *arg, struct ct_error *err);
/* every page's last decision, oldest first */
typedef int (*ct_retire_log_fn)(const struct ct_retirement *r, void *arg);
int ct_retire_log_each(struct ct_event_store *s, ct_retire_log_fn fn, void *arg, struct ct_error *err);

#endif
