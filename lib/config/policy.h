/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * policy.h - /etc/cxltier.conf: what to do with CXL memory that appears.
 *
 *   [defaults]              online = yes|no, zone = movable|normal,
 *                           create-region = yes|no, reonline = yes|no,
 *                           interleave-weights = yes|no
 *   [device serial=0x1234]  matched by memdev serial
 *   [device host=0000:0d:00.0]   by memdev PCI device
 *   [device region=region0]      by region
 *   [device any]                 any CXL memory
 * The first matching [device ...] section (file order) decides; keys it does
 * not set come from [defaults]; without a file: online, movable, no region
 * created for a memdev that has none, no block moved out of another zone.
 * A [device ...] section may also set the page retirement of the event
 * follower (retire-pages, retire-threshold, retire-window, retire-limit:
 * events-conf.h), whose defaults are in [events]; [events] and [migrate]
 * belong to other commands and are skipped here.
 */
#ifndef CXLTIER_POLICY_H
#define CXLTIER_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/error.h"

enum ct_match { CT_MATCH_ANY, CT_MATCH_SERIAL, CT_MATCH_HOST, CT_MATCH_REGION };

/* a [device ...] section's page retirement (events-conf.h); -1: unset */
struct ct_policy_retire {
	int pages;		/* retire-pages: 0 no, 1 yes */
	int64_t threshold;	/* retire-threshold: corrected errors on a page */
	int64_t window_s;	/* retire-window */
	int64_t limit;		/* retire-limit: pages per device per hour, 0 none */
};

struct ct_policy_rule {
	enum ct_match match;
	char value[64];
	uint64_t serial;
	int online;		/* -1 unset, 0 no, 1 yes */
	int movable;		/* -1 unset, 0 normal, 1 movable */
	int create_region;	/* -1 unset, 0 no, 1 yes: a RAM region for a memdev without one */
	int reonline;		/* -1 unset, 0 no, 1 yes: blocks online in another zone moved to the wanted one */
	int weights;		/* -1 unset, 0 no, 1 yes: once the memory is online, the weighted-interleave
				 * weights computed from bandwidth and set (jobs/weights-set.h) */
	struct ct_policy_retire retire;
	unsigned line;
};

struct ct_policy {
	struct ct_policy_rule defaults;
	struct ct_policy_rule *rule;
	size_t n;
};

struct ct_policy_subject {	/* what a dax device is made of */
	const char *region;
	const uint64_t *serials;
	const char *const *hosts;
	size_t nmemdevs;
};

struct ct_policy_decision {
	bool online, movable, create_region, reonline, weights;
	struct ct_policy_retire retire;	/* the deciding section's, -1 where it sets none */
	unsigned line;		/* the deciding section's line, 0 for the built-in default */
};

/* the largest policy file read (bytes): a larger one is an error */
#define CT_POLICY_MAX 65536u

/* read and parse the file at path: -ENOENT (with a message) when there is
 * none, -EFBIG past CT_POLICY_MAX, -EINVAL naming line and column, or -errno */
int ct_policy_load(const char *path, struct ct_policy *p, struct ct_error *err);
/* text: the file's content (len bytes, NULs included); name: for messages.
 * Anything the grammar (policy.c) does not describe is -EINVAL with
 * "name:line:column: what". */
int ct_policy_parse(const char *text, size_t len, const char *name, struct ct_policy *p, struct ct_error *err);
void ct_policy_free(struct ct_policy *p);
void ct_policy_decide(const struct ct_policy *p, const struct ct_policy_subject *s, struct ct_policy_decision *d);

#endif
