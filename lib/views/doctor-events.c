// SPDX-License-Identifier: LGPL-2.1-or-later
/* doctor-events.c - the doctor's check of the event history
 * (events/event-store.h): a device whose corrected errors are rising, or
 * that reported a failure or fatal record lately, or whose pages were
 * retired (or due and left in use), named with what to do */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "views/doctor.h"
#include "events/event-store.h"
#include "events/retire-log.h"

#define DAY_NS (86400ULL * 1000000000ULL)

/* the devices' windows (the store counts them: event-store.h), named */
struct windows {
	struct ct_findings *f;
	unsigned flagged;
};

static void name_of(const char *memdev, bool has_serial, uint64_t serial, char *buf, size_t len)
{
	if (has_serial)
		snprintf(buf, len, "%s (serial 0x%" PRIx64 ")", memdev[0] ? memdev : "?", serial);
	else
		snprintf(buf, len, "%s", memdev[0] ? memdev : "?");
}

/* a device: its corrected errors rising, its failures of the week */
static void on_window(const char *memdev, bool has_serial, uint64_t serial, uint64_t day, uint64_t before,
		      uint64_t bad, void *arg)
{
	struct windows *w = arg;
	char name[96];

	name_of(memdev, has_serial, serial, name, sizeof(name));
	if (day >= CT_DOCTOR_RISING_MIN && day > before) {
		ct_finding_add(w->f, "events", name, CT_FINDING_PROBLEM, "cxltier events --summary; if it keeps rising: "
			       "cxltier offline MEMDEV --remove, then replace the card",
			       "corrected memory errors rising: %" PRIu64 " corrected General Media and DRAM records in "
			       "the last 24 h, %" PRIu64 " in the 24 h before", day, before);
		w->flagged++;
	}
	if (bad) {
		ct_finding_add(w->f, "events", name, CT_FINDING_PROBLEM,
			       "cxltier events --severity failure,fatal; cxltier offline MEMDEV --remove, then replace the card",
			       "%" PRIu64 " failure or fatal record%s in the last 7 days", bad, bad == 1 ? "" : "s");
		w->flagged++;
	}
}

struct retired {
	struct ct_findings *f;
	unsigned flagged;
};

/* a device's retirements: retired (and how), failed, limited */
static void on_retired(const char *memdev, uint64_t serial, enum ct_retire_action action, uint64_t n, void *arg)
{
	struct retired *r = arg;
	char name[96];

	if (action == CT_RETIRE_ALREADY)
		return;
	if (serial)
		snprintf(name, sizeof(name), "%s (serial 0x%" PRIx64 ")", memdev, serial);
	else
		snprintf(name, sizeof(name), "%s", memdev);
	if (action == CT_RETIRE_RETIRED)
		ct_finding_add(r->f, "events", name, CT_FINDING_PROBLEM, "cxltier events --summary; if pages keep being "
			       "retired: cxltier offline MEMDEV --remove, then replace the card",
			       "%" PRIu64 " page%s retired for corrected errors (soft-offlined)", n, n == 1 ? "" : "s");
	else if (action == CT_RETIRE_STALE)
		ct_finding_add(r->f, "events", name, CT_FINDING_PROBLEM, "cxltier events --summary (and journalctl -u "
			       "cxltier-events) say which; the follower weighs them again at their next error",
			       "%" PRIu64 " page%s due for retirement not retired: the records' addresses no longer map "
			       "them (a region made again, or another card)", n, n == 1 ? "" : "s");
	else
		ct_finding_add(r->f, "events", name, CT_FINDING_PROBLEM, action == CT_RETIRE_LIMITED ?
			       "the device is failing fast: cxltier offline MEMDEV --remove, then replace the card" :
			       "journalctl -u cxltier-events says why the kernel refused; cxltier offline MEMDEV --remove",
			       "%" PRIu64 " page%s due for retirement left in use: %s", n, n == 1 ? "" : "s",
			       action == CT_RETIRE_LIMITED ? "the limit of pages an hour (retire-limit) was reached" :
			       "the kernel refused to soft-offline them");
	r->flagged++;
}

void ct_doctor_events(const char *store_path, struct ct_findings *f)
{
	struct retired ret = { f, 0 };
	const char *where = store_path ? store_path : CT_EVENT_STORE_PATH;
	struct windows w = { f, 0 };
	struct ct_event_store *s;
	struct ct_error err = { 0 };
	struct timespec now;
	uint64_t t, rows = 0, pruned = 0;
	int rc = ct_event_store_open_reader(store_path, &s, &err);

	if (rc == -ENOENT)
		return;		/* no history kept: nothing to say */
	if (!rc) {
		/* by the host's time: when the records arrived */
		clock_gettime(CLOCK_REALTIME, &now);
		t = (uint64_t)now.tv_sec * 1000000000ULL + (uint64_t)now.tv_nsec;
		rc = ct_event_store_windows(s, t - DAY_NS, t - 2 * DAY_NS, t - 7 * DAY_NS, on_window, &w, &err);
		if (!rc)
			rc = ct_event_store_totals(s, &rows, &pruned, &err);
		if (!rc)
			rc = ct_retire_log_pages(s, on_retired, &ret, &err);
	}
	if (rc)
		ct_finding_add(f, "events", where, CT_FINDING_PROBLEM, "systemctl restart cxltier-events",
			       "the event history cannot be read: %s", err.msg);
	else if (!w.flagged && !ret.flagged)
		ct_finding_add(f, "events", where, CT_FINDING_OK, "",
			       "%" PRIu64 " records kept (%" PRIu64 " pruned); no device with rising corrected errors, "
			       "a failure in the last 7 days or a retired page", rows, pruned);
	ct_event_store_close(s);
}
