/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * retire-log.h - the pages the follower retired, or tried to, in the event
 * store (table `retirements`, schema 2, never pruned: the counters of
 * `metrics` and the findings of `doctor` come from it), and the corrected
 * errors the store holds per page of a device, which decide a retirement
 * (page-retire.h).
 *
 * A device is named by its serial ("0x..."), else by its memdev: the limit
 * per hour and the pages already retired are per device.
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
};

struct ct_retirement {
	uint64_t time_ns;		/* when cxltier decided (ns since 1970) */
	char memdev[32];
	bool has_serial;
	uint64_t serial;
	char device[40];		/* "0x<serial>", else the memdev */
	uint64_t dpa, hpa;		/* the page's first byte on the device and in the host */
	enum ct_retire_action action;
	unsigned errors;		/* corrected errors on the page within the window */
	char reason[192];
	char message[256];		/* FAILED: the kernel's answer */
};

const char *ct_retire_log_action_name(enum ct_retire_action a);	/* "retired", "already_poisoned", ... */
/* the device name of a record's device: "0x<serial>", else memdev */
void ct_retire_log_device(const char *memdev, bool has_serial, uint64_t serial, char *buf, size_t len);

int ct_retire_log_add(struct ct_event_store *s, const struct ct_retirement *r, struct ct_error *err);
/* the corrected General Media and DRAM errors the store holds for device's
 * DPA range [dpa, dpa + len) with a time at or after since_ns */
int ct_retire_log_page_errors(struct ct_event_store *s, const char *device, uint64_t dpa, uint64_t len,
			      uint64_t since_ns, unsigned *n, struct ct_error *err);
/* entries of action for device (and for its page at hpa, when hpa is not
 * UINT64_MAX) at or after since_ns */
int ct_retire_log_count(struct ct_event_store *s, const char *device, uint64_t hpa, enum ct_retire_action action,
			uint64_t since_ns, unsigned *n, struct ct_error *err);
/* the entries per memdev, serial (0: none) and action */
typedef void (*ct_retire_log_count_fn)(const char *memdev, uint64_t serial, enum ct_retire_action action, uint64_t n,
				       void *arg);
int ct_retire_log_counts(struct ct_event_store *s, ct_retire_log_count_fn fn, void *arg, struct ct_error *err);
/* every entry, oldest first; a store of schema 1 (read, not upgraded) has none */
typedef int (*ct_retire_log_fn)(const struct ct_retirement *r, void *arg);
int ct_retire_log_each(struct ct_event_store *s, ct_retire_log_fn fn, void *arg, struct ct_error *err);

#endif
