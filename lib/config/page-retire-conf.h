/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * page-retire-conf.h - the settings of page retirement (events/page-retire.h)
 * as the configuration gives them: the retire-* keys of [events]
 * (events-conf.h) for every device, those a [device ...] section sets
 * (policy.h) for the devices it matches. The first matching section
 * decides; a key it leaves out comes from [events]. Pure.
 */
#ifndef CXLTIER_PAGE_RETIRE_CONF_H
#define CXLTIER_PAGE_RETIRE_CONF_H

#include <stdbool.h>
#include <stdint.h>
#include "config/policy.h"

#define CT_PAGE_RETIRE_THRESHOLD 50		/* corrected errors on a page ... */
#define CT_PAGE_RETIRE_WINDOW (24 * 3600)	/* ... within a day (rasdaemon's default too) */
#define CT_PAGE_RETIRE_LIMIT 16			/* pages a device an hour */

struct ct_page_retire_conf {
	bool retire;		/* retire-pages */
	unsigned threshold;	/* retire-threshold */
	uint64_t window_s;	/* retire-window */
	unsigned limit;		/* retire-limit: pages (tries) a device an hour; 0 none */
};

/* the built-in settings: off, 50 errors within 24 h, 16 pages an hour */
void ct_page_retire_conf_defaults(struct ct_page_retire_conf *c);
/* the settings of the device s: base ([events]'s), then what the first
 * [device ...] section of p that matches s sets */
void ct_page_retire_conf_for(const struct ct_page_retire_conf *base, const struct ct_policy *p,
			     const struct ct_policy_subject *s, struct ct_page_retire_conf *out);
/* is retirement on for some device: in base, or in a [device ...] section? */
bool ct_page_retire_conf_any(const struct ct_page_retire_conf *base, const struct ct_policy *p);

#endif
