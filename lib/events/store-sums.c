// SPDX-License-Identifier: LGPL-2.1-or-later
/* store-sums.c - the event store counted by the database's own grouping:
 * a summary's groups and pages, doctor's windows (see event-store.h) */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "events/event-store-db.h"

static const char *text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? (const char *)t : "";
}

/* per memdev, kind, severity and day */
static int groups(struct ct_event_store *s, const struct ct_event_filter *f, struct ct_event_summary *sum)
{
	sqlite3_stmt *st;
	int rc = ct_store_prepare_filtered(s, "SELECT r.memdev, r.serial, r.kind, r.severity, r.host_ns / 86400000000000, count(*), "
			 "count(r.page), min(r.host_ns), max(r.host_ns) FROM records r WHERE %s GROUP BY 1, 2, 3, 4, 5",
			 f, &st);

	if (rc)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ct_summary_group g = {
			.memdev = text(st, 0), .has_serial = sqlite3_column_type(st, 1) != SQLITE_NULL,
			.serial = (uint64_t)sqlite3_column_int64(st, 1), .severity = ct_severity_parse(text(st, 3)),
			.day = sqlite3_column_int64(st, 4), .records = (uint64_t)sqlite3_column_int64(st, 5),
			.corrected = (uint64_t)sqlite3_column_int64(st, 6),
			.first_ns = (uint64_t)sqlite3_column_int64(st, 7), .last_ns = (uint64_t)sqlite3_column_int64(st, 8),
		};
		int k = ct_event_kind_parse(text(st, 2));
		g.kind = k < 0 ? CT_EV_GENERIC : (enum ct_event_kind)k;
		if (ct_event_summary_add_group(sum, &g)) {
			rc = SQLITE_NOMEM;
			break;
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* every page with corrected errors, once (by the device it is of) */
static int pages(struct ct_event_store *s, const struct ct_event_filter *f, struct ct_event_summary *sum)
{
	sqlite3_stmt *st;
	int rc = ct_store_prepare_filtered(s, "SELECT r.memdev, r.serial, r.page, count(*), min(r.host_ns), max(r.host_ns), max(r.hpa) "
			 "FROM records r WHERE r.page IS NOT NULL AND %s GROUP BY r.device, r.page", f, &st);

	if (rc)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ct_summary_page p = {
			.has_serial = sqlite3_column_type(st, 1) != SQLITE_NULL,
			.serial = (uint64_t)sqlite3_column_int64(st, 1),
			.dpa = (uint64_t)sqlite3_column_int64(st, 2) * CT_SUMMARY_PAGE,
			.records = (uint64_t)sqlite3_column_int64(st, 3),
			.first_ns = (uint64_t)sqlite3_column_int64(st, 4), .last_ns = (uint64_t)sqlite3_column_int64(st, 5),
			.has_hpa = sqlite3_column_type(st, 6) != SQLITE_NULL,
			.hpa = (uint64_t)sqlite3_column_int64(st, 6) & ~(uint64_t)(CT_SUMMARY_PAGE - 1),
		};
		snprintf(p.memdev, sizeof(p.memdev), "%s", text(st, 0));
		if (ct_event_summary_add_page(sum, &p)) {
			rc = SQLITE_NOMEM;
			break;
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int ct_event_store_summarize(struct ct_event_store *s, const struct ct_event_filter *f,
			     struct ct_event_summary *sum, struct ct_error *err)
{
	int rc;

	if ((rc = ct_store_exec(s, "BEGIN")) || (rc = groups(s, f, sum)) || (rc = pages(s, f, sum))) {
		ct_store_exec(s, "ROLLBACK");
		return ct_event_store_sql_fail(s, err, rc, "cannot count it");
	}
	ct_store_exec(s, "COMMIT");
	return 0;
}

int ct_event_store_windows(struct ct_event_store *s, uint64_t day_ns, uint64_t before_ns, uint64_t week_ns,
			   ct_event_window_fn fn, void *arg, struct ct_error *err)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, "SELECT memdev, serial, count(CASE WHEN page IS NOT NULL AND host_ns >= ?1 "
				    "THEN 1 END), count(CASE WHEN page IS NOT NULL AND host_ns >= ?2 AND host_ns < ?1 "
				    "THEN 1 END), count(CASE WHEN severity IN ('failure', 'fatal') THEN 1 END) FROM "
				    "records WHERE host_ns >= ?3 GROUP BY memdev, serial ORDER BY memdev, serial", -1,
				    &st, NULL);

	if (rc)
		return ct_event_store_sql_fail(s, err, rc, "cannot count it");
	sqlite3_bind_int64(st, 1, (int64_t)day_ns);
	sqlite3_bind_int64(st, 2, (int64_t)before_ns);
	sqlite3_bind_int64(st, 3, (int64_t)week_ns);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fn(text(st, 0), sqlite3_column_type(st, 1) != SQLITE_NULL, (uint64_t)sqlite3_column_int64(st, 1),
		   (uint64_t)sqlite3_column_int64(st, 2), (uint64_t)sqlite3_column_int64(st, 3),
		   (uint64_t)sqlite3_column_int64(st, 4), arg);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : ct_event_store_sql_fail(s, err, rc, "cannot count it");
}
