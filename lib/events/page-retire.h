/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * page-retire.h - what the follower does with a media error record once the
 * store holds it: a page with too many corrected errors is retired
 * (soft-offlined by its HPA, mm/page-offline.h: its data moved, the
 * processes using it run on), each decision written to the store
 * (retire-log.h).
 *
 * A General Media or DRAM record that is corrected counts against its page
 * (the device's DPA page: the counting survives a region made again; the
 * device is its identity in the store, event-store.h). The page is retired
 * when the store holds `threshold` corrected errors on it that arrived
 * within `window` (the host's time, whatever the device's clock says), or
 * at once when the device itself says its threshold is crossed (descriptor
 * "threshold event", or CXL 3.1's CME "threshold exceeded" flag). Counting
 * stops at the threshold, through the store's index of the pages: a record
 * costs the same whatever the store holds of its page. Not when retirement
 * is off, when the DPA maps to no host address (no region: nothing uses it),
 * when the page is HWPOISON already, beyond `limit` pages tried per device
 * per hour (a storm does not take memory out of use wholesale), nor when
 * the record's HPA no longer maps its DPA on that card (hpa-check.h: stale).
 * A page the kernel refused is tried again at a later record, a minute
 * after, then twice as long each time (at most a day), and its tries count
 * once in its device's hour: one pinned page does not spend the others'.
 *
 * An uncorrectable record is never acted on: the kernel handles a consumed
 * poisoned line itself (memory_failure); the outcome says whether the page
 * is HWPOISON already.
 */
#ifndef CXLTIER_PAGE_RETIRE_H
#define CXLTIER_PAGE_RETIRE_H

#include <stdbool.h>
#include <stdint.h>
#include "config/page-retire-conf.h"
#include "config/policy.h"
#include "core/context.h"
#include "events/event.h"
#include "events/event-store.h"
#include "events/retire-log.h"

#define CT_PAGE_RETIRE_RETRY_S 60		/* a page that failed: tried again this long after */
#define CT_PAGE_RETIRE_RETRY_MAX_S 86400	/* ... twice as long each time, at most this */

enum ct_page_retire_verdict {
	CT_PAGE_RETIRE_IGNORED,		/* not a General Media or DRAM record */
	CT_PAGE_RETIRE_BELOW,		/* corrected: counted, below the threshold */
	CT_PAGE_RETIRE_OFF,		/* the threshold is crossed, and retire-pages = no */
	CT_PAGE_RETIRE_UNMAPPED,	/* the threshold is crossed, the DPA maps to no host address */
	CT_PAGE_RETIRE_BEFORE,		/* retired (or found poisoned, or limited) before: nothing new */
	CT_PAGE_RETIRE_WAITING,		/* failed (or stale) before: not tried again until entry.next_ns */
	CT_PAGE_RETIRE_UNCORRECTABLE,	/* the kernel's to handle: reported, not acted on */
	CT_PAGE_RETIRE_LOGGED,		/* a decision written to the store: entry.action says which */
};

struct ct_page_retire_outcome {
	enum ct_page_retire_verdict verdict;
	struct ct_retirement entry;	/* device, addresses, errors and reason always; action when LOGGED */
	bool poisoned;			/* UNCORRECTABLE: the page is HWPOISON already */
	bool poison_known;		/* UNCORRECTABLE: poisoned could be read */
};

/* the settings of e's device (config/page-retire-conf.h): base, the
 * [events] section's, then what the first [device ...] section of p that
 * matches the device (its serial, PCI device or region) sets */
void ct_page_retire_settings(const struct ct_page_retire_conf *base, const struct ct_policy *p,
			     const struct ct_event *e, struct ct_page_retire_conf *out);
/* decide for record e (just written to the store s), now_ns the host's
 * time: 0 with *o filled; -errno with a message when the store, the
 * kernel's page flags or the topology cannot be read (nothing was done) */
int ct_page_retire_consider(struct ct_context *ctx, struct ct_event_store *s, const struct ct_event *e,
			    const struct ct_page_retire_conf *c, uint64_t now_ns, struct ct_page_retire_outcome *o);

#endif
