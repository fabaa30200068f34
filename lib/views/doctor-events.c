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
#include "events/event-summary.h"
#include "events/retire-log.h"

#define DAY_NS (86400ULL * 1000000000ULL)

/* the last 7 days read once: every record counted in the week, and in the
 * last 24 h or the 24 h before by its time */
struct windows {
	uint64_t day_start, before_start;
	struct ct_event_summary day, before, week;
};

static int count(const struct ct_event *e, void *arg)
{
	struct windows *w = arg;
	uint64_t t = ct_event_time(e);
	int rc = ct_event_summary_add(&w->week, e);

	if (!rc && t >= w->day_start)
		rc = ct_event_summary_add(&w->day, e);
	else if (!rc && t >= w->before_start)
		rc = ct_event_summary_add(&w->before, e);
	return rc;
}

static void name_of(const struct ct_summary_memdev *m, char *buf, size_t len)
{
	if (m->has_serial)
		snprintf(buf, len, "%s (serial 0x%" PRIx64 ")", m->memdev[0] ? m->memdev : "?", m->serial);
	else
		snprintf(buf, len, "%s", m->memdev[0] ? m->memdev : "?");
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
	struct windows w = { 0 };
	struct ct_event_store *s;
	struct ct_error err = { 0 };
	struct timespec now;
	uint64_t t, rows = 0, pruned = 0;
	unsigned flagged = 0;
	int rc = ct_event_store_open_reader(store_path, &s, &err);

	if (rc == -ENOENT)
		return;		/* no history kept: nothing to say */
	if (!rc) {
		clock_gettime(CLOCK_REALTIME, &now);
		t = (uint64_t)now.tv_sec * 1000000000ULL + (uint64_t)now.tv_nsec;
		w.day_start = t - DAY_NS;
		w.before_start = t - 2 * DAY_NS;
		rc = ct_event_store_each(s, t - 7 * DAY_NS, 0, count, &w, &err);
		if (!rc)
			rc = ct_event_store_totals(s, &rows, &pruned, &err);
		if (!rc)
			rc = ct_retire_log_counts(s, on_retired, &ret, &err);
	}
	if (rc) {
		ct_finding_add(f, "events", where, CT_FINDING_PROBLEM, "systemctl restart cxltier-events",
			       "the event history cannot be read: %s", err.msg);
		goto out;
	}
	for (size_t i = 0; i < w.day.nmemdevs; i++) {
		const struct ct_summary_memdev *m = &w.day.memdevs[i],
					       *b = ct_event_summary_memdev(&w.before, m->memdev, m->serial, m->has_serial);
		uint64_t now_n = m->c.corrected, before_n = b ? b->c.corrected : 0;
		char name[96];

		if (now_n < CT_DOCTOR_RISING_MIN || now_n <= before_n)
			continue;
		name_of(m, name, sizeof(name));
		ct_finding_add(f, "events", name, CT_FINDING_PROBLEM, "cxltier events --summary; if it keeps rising: "
			       "cxltier offline MEMDEV --remove, then replace the card",
			       "corrected memory errors rising: %" PRIu64 " corrected General Media and DRAM records in "
			       "the last 24 h, %" PRIu64 " in the 24 h before", now_n, before_n);
		flagged++;
	}
	for (size_t i = 0; i < w.week.nmemdevs; i++) {
		const struct ct_summary_memdev *m = &w.week.memdevs[i];
		uint64_t bad = m->c.by_severity[2] + m->c.by_severity[3];
		char name[96];

		if (!bad)
			continue;
		name_of(m, name, sizeof(name));
		ct_finding_add(f, "events", name, CT_FINDING_PROBLEM,
			       "cxltier events --severity failure,fatal; cxltier offline MEMDEV --remove, then replace the card",
			       "%" PRIu64 " failure or fatal record%s in the last 7 days", bad, bad == 1 ? "" : "s");
		flagged++;
	}
	if (!flagged && !ret.flagged)
		ct_finding_add(f, "events", where, CT_FINDING_OK, "",
			       "%" PRIu64 " records kept (%" PRIu64 " pruned); no device with rising corrected errors, "
			       "a failure in the last 7 days or a retired page", rows, pruned);
out:
	ct_event_summary_free(&w.day);
	ct_event_summary_free(&w.before);
	ct_event_summary_free(&w.week);
	ct_event_store_close(s);
}
