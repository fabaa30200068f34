// SPDX-License-Identifier: LGPL-2.1-or-later
/* retire-log.c - the follower's decisions on pages and the errors per page
 * in the event store: see retire-log.h */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "events/event-store-db.h"
#include "events/retire-log.h"

static const char *const action_names[] = {
	[CT_RETIRE_RETIRED] = "retired",
	[CT_RETIRE_ALREADY] = "already_poisoned",
	[CT_RETIRE_FAILED] = "failed",
	[CT_RETIRE_LIMITED] = "limited",
	[CT_RETIRE_STALE] = "stale",
};

const char *ct_retire_log_action_name(enum ct_retire_action a)
{
	return (unsigned)a < sizeof(action_names) / sizeof(action_names[0]) ? action_names[a] : "unknown";
}

static enum ct_retire_action action_of(const char *name)
{
	for (size_t i = 0; i < sizeof(action_names) / sizeof(action_names[0]); i++)
		if (name && !strcmp(name, action_names[i]))
			return (enum ct_retire_action)i;
	return CT_RETIRE_FAILED;
}

#define ADD_SQL "INSERT INTO retirements (time_ns, first_ns, tried_ns, next_ns, tries, memdev, serial, device, dpa, " \
	"hpa, action, errors, reason, message) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14) " \
	"ON CONFLICT (device, dpa) DO UPDATE SET time_ns = ?1, tried_ns = ?3, next_ns = ?4, tries = ?5, memdev = ?6, " \
	"serial = ?7, hpa = ?10, action = ?11, errors = ?12, reason = ?13, message = ?14"
#define COUNT_SQL "INSERT INTO retire_counts VALUES (?1, ?2, ?3, 1, ?4) ON CONFLICT DO UPDATE SET n = n + 1, " \
	"last_ns = ?4"

static void bind_decision(sqlite3_stmt *st, const struct ct_retirement *r)
{
	sqlite3_bind_int64(st, 1, (int64_t)r->time_ns);
	sqlite3_bind_int64(st, 2, (int64_t)(r->first_ns ? r->first_ns : r->time_ns));
	if (r->tried_ns)
		sqlite3_bind_int64(st, 3, (int64_t)r->tried_ns);
	sqlite3_bind_int64(st, 4, (int64_t)r->next_ns);
	sqlite3_bind_int(st, 5, (int)r->tries);
	sqlite3_bind_text(st, 6, r->memdev, -1, SQLITE_TRANSIENT);
	if (r->has_serial)
		sqlite3_bind_int64(st, 7, (int64_t)r->serial);
	sqlite3_bind_text(st, 8, r->device, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 9, (int64_t)r->dpa);
	if (r->hpa != UINT64_MAX)
		sqlite3_bind_int64(st, 10, (int64_t)r->hpa);
	sqlite3_bind_text(st, 11, ct_retire_log_action_name(r->action), -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 12, (int)r->errors);
	sqlite3_bind_text(st, 13, r->reason, -1, SQLITE_TRANSIENT);
	ct_store_bind_text(st, 14, r->message);
}

int ct_retire_log_add(struct ct_event_store *s, const struct ct_retirement *r, struct ct_error *err)
{
	sqlite3_stmt *add = NULL, *cnt = NULL;
	int rc;

	if ((rc = ct_store_exec(s, "BEGIN IMMEDIATE")) ||
	    (rc = sqlite3_prepare_v2(s->db, ADD_SQL, -1, &add, NULL)) ||
	    (rc = sqlite3_prepare_v2(s->db, COUNT_SQL, -1, &cnt, NULL)))
		goto out;
	bind_decision(add, r);
	if ((rc = sqlite3_step(add)) != SQLITE_DONE)
		goto out;
	sqlite3_bind_text(cnt, 1, r->memdev, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(cnt, 2, r->has_serial ? (int64_t)r->serial : 0);
	sqlite3_bind_text(cnt, 3, ct_retire_log_action_name(r->action), -1, SQLITE_STATIC);
	sqlite3_bind_int64(cnt, 4, (int64_t)r->time_ns);
	if ((rc = sqlite3_step(cnt)) != SQLITE_DONE)
		goto out;
	rc = ct_store_exec(s, "COMMIT");
out:
	sqlite3_finalize(add);
	sqlite3_finalize(cnt);
	if (rc && rc != SQLITE_DONE) {
		rc = ct_event_store_sql_fail(s, err, rc, "cannot record a decision on a page");
		ct_store_exec(s, "ROLLBACK");
		return rc;
	}
	s->decided = true;
	return 0;
}

static void text_col(sqlite3_stmt *st, int i, char *buf, size_t len)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	snprintf(buf, len, "%s", t ? (const char *)t : "");
}

#define ROW_COLUMNS "time_ns, first_ns, tried_ns, next_ns, tries, memdev, serial, device, dpa, hpa, action, errors, " \
	"reason, message"

static void row_of(sqlite3_stmt *st, struct ct_retirement *r)
{
	memset(r, 0, sizeof(*r));
	r->time_ns = (uint64_t)sqlite3_column_int64(st, 0);
	r->first_ns = (uint64_t)sqlite3_column_int64(st, 1);
	r->tried_ns = (uint64_t)sqlite3_column_int64(st, 2);
	r->next_ns = (uint64_t)sqlite3_column_int64(st, 3);
	r->tries = (unsigned)sqlite3_column_int(st, 4);
	text_col(st, 5, r->memdev, sizeof(r->memdev));
	r->has_serial = sqlite3_column_type(st, 6) != SQLITE_NULL;
	r->serial = (uint64_t)sqlite3_column_int64(st, 6);
	text_col(st, 7, r->device, sizeof(r->device));
	r->dpa = (uint64_t)sqlite3_column_int64(st, 8);
	r->hpa = sqlite3_column_type(st, 9) == SQLITE_NULL ? UINT64_MAX : (uint64_t)sqlite3_column_int64(st, 9);
	r->action = action_of((const char *)sqlite3_column_text(st, 10));
	r->errors = (unsigned)sqlite3_column_int(st, 11);
	text_col(st, 12, r->reason, sizeof(r->reason));
	text_col(st, 13, r->message, sizeof(r->message));
}

int ct_retire_log_page(struct ct_event_store *s, const char *device, uint64_t dpa, struct ct_retirement *r,
		       struct ct_error *err)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, "SELECT " ROW_COLUMNS " FROM retirements WHERE device = ? AND dpa = ?", -1,
				    &st, NULL);

	if (rc)
		return ct_event_store_sql_fail(s, err, rc, "cannot read its decisions");
	sqlite3_bind_text(st, 1, device, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, (int64_t)dpa);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		row_of(st, r);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 1;
	return rc == SQLITE_DONE ? 0 : ct_event_store_sql_fail(s, err, rc, "cannot read its decisions");
}

/* the number a statement of ?1 device and the integers from ?2 on gives */
static int count_of(struct ct_event_store *s, const char *sql, const char *device, const int64_t *v, int nv,
		    unsigned *n, struct ct_error *err)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);

	*n = 0;
	if (rc)
		return ct_event_store_sql_fail(s, err, rc, "cannot count a page's errors");
	sqlite3_bind_text(st, 1, device, -1, SQLITE_TRANSIENT);
	for (int i = 0; i < nv; i++)
		sqlite3_bind_int64(st, i + 2, v[i]);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		*n = (unsigned)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : ct_event_store_sql_fail(s, err, rc, "cannot count a page's errors");
}

int ct_retire_log_tried(struct ct_event_store *s, const char *device, uint64_t dpa, uint64_t since_ns, unsigned *n,
			struct ct_error *err)
{
	int64_t v[] = { (int64_t)since_ns, (int64_t)dpa };

	return count_of(s, "SELECT count(*) FROM retirements WHERE device = ?1 AND tried_ns >= ?2 AND dpa != ?3", device,
			v, 2, n, err);
}

int ct_retire_log_page_errors(struct ct_event_store *s, const char *device, uint64_t dpa, uint64_t len,
			      uint64_t since_ns, unsigned max, unsigned *n, struct ct_error *err)
{
	/* the range's 4 KiB pages (the store's), each one range of its index
	 * in the host's time from since_ns on: the count stops at max */
	uint64_t first = dpa >> 12, last = (dpa + len - 1) >> 12;
	int64_t v[] = { (int64_t)since_ns, (int64_t)max };
	char sql[1024], in[640];
	size_t at = 0;

	if (last - first >= 32)
		snprintf(in, sizeof(in), "BETWEEN %" PRIu64 " AND %" PRIu64, first, last);
	for (uint64_t p = first; last - first < 32 && p <= last && at < sizeof(in); p++)
		at += (size_t)snprintf(in + at, sizeof(in) - at, "%s%" PRIu64 "%s", p == first ? "IN (" : ", ", p,
				       p == last ? ")" : "");
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM (SELECT 1 FROM records WHERE device = (SELECT id FROM devices "
		 "WHERE identity = ?1) AND page IS NOT NULL AND page %s AND host_ns >= ?2 LIMIT ?3)", in);
	return count_of(s, sql, device, v, 2, n, err);
}

/* the rows of a grouping statement: memdev, serial, action, n */
static int grouped(struct ct_event_store *s, const char *sql, ct_retire_log_count_fn fn, void *arg,
		   struct ct_error *err)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);

	if (rc)
		return ct_event_store_sql_fail(s, err, rc, "cannot read its retired pages");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fn((const char *)sqlite3_column_text(st, 0), (uint64_t)sqlite3_column_int64(st, 1),
		   action_of((const char *)sqlite3_column_text(st, 2)), (uint64_t)sqlite3_column_int64(st, 3), arg);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : ct_event_store_sql_fail(s, err, rc, "cannot read its retired pages");
}

int ct_retire_log_counts(struct ct_event_store *s, ct_retire_log_count_fn fn, void *arg, struct ct_error *err)
{
	return grouped(s, "SELECT memdev, serial, action, n FROM retire_counts ORDER BY memdev, serial, action", fn, arg,
		       err);
}

int ct_retire_log_pages(struct ct_event_store *s, ct_retire_log_count_fn fn, void *arg, struct ct_error *err)
{
	return grouped(s, "SELECT memdev, ifnull(serial, 0), action, count(*) FROM retirements GROUP BY memdev, serial, "
		       "action ORDER BY memdev, serial, action", fn, arg, err);
}

int ct_retire_log_each(struct ct_event_store *s, ct_retire_log_fn fn, void *arg, struct ct_error *err)
{
	struct ct_retirement r;
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, "SELECT " ROW_COLUMNS " FROM retirements ORDER BY time_ns, id", -1, &st,
				    NULL), stop = 0;

	if (rc)
		return ct_event_store_sql_fail(s, err, rc, "cannot read its retired pages");
	while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		row_of(st, &r);
		stop = fn(&r, arg);
	}
	if (!stop && rc != SQLITE_DONE)
		rc = ct_event_store_sql_fail(s, err, rc, "cannot read its retired pages");
	else
		rc = stop < 0 ? stop : 0;
	sqlite3_finalize(st);
	return rc;
}
