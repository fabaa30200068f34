// SPDX-License-Identifier: LGPL-2.1-or-later
/* retire-log.c - the retired pages and the errors per page in the event
 * store: see retire-log.h */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "events/event-blob.h"
#include "events/event-store-db.h"
#include "events/retire-log.h"

static const char *const action_names[] = {
	[CT_RETIRE_RETIRED] = "retired",
	[CT_RETIRE_ALREADY] = "already_poisoned",
	[CT_RETIRE_FAILED] = "failed",
	[CT_RETIRE_LIMITED] = "limited",
};

const char *ct_retire_log_action_name(enum ct_retire_action a)
{
	return (unsigned)a < sizeof(action_names) / sizeof(action_names[0]) ? action_names[a] : "unknown";
}

void ct_retire_log_device(const char *memdev, bool has_serial, uint64_t serial, char *buf, size_t len)
{
	if (has_serial)
		snprintf(buf, len, "0x%" PRIx64, serial);
	else
		snprintf(buf, len, "%s", memdev);
}

/* 0 prepared; 1 no such table (a store of schema 1 opened read-only): nothing */
static int prepare(struct ct_event_store *s, const char *sql, sqlite3_stmt **st, struct ct_error *err)
{
	sqlite3 *db = ct_event_store_sqlite(s);
	int rc = sqlite3_prepare_v2(db, sql, -1, st, NULL);

	if (rc == SQLITE_ERROR && strstr(sqlite3_errmsg(db), "no such table"))
		return 1;
	return rc ? ct_event_store_sql_fail(s, err, rc, "cannot read its retired pages") : 0;
}

int ct_retire_log_add(struct ct_event_store *s, const struct ct_retirement *r, struct ct_error *err)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(ct_event_store_sqlite(s), "INSERT INTO retirements (time_ns, memdev, serial, "
				    "device, dpa, hpa, action, errors, reason, message) VALUES (?, ?, ?, ?, ?, ?, ?, ?, "
				    "?, ?)", -1, &st, NULL);

	if (rc)
		return ct_event_store_sql_fail(s, err, rc, "cannot record a retired page");
	sqlite3_bind_int64(st, 1, (int64_t)r->time_ns);
	sqlite3_bind_text(st, 2, r->memdev, -1, SQLITE_TRANSIENT);
	if (r->has_serial)
		sqlite3_bind_int64(st, 3, (int64_t)r->serial);
	sqlite3_bind_text(st, 4, r->device, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 5, (int64_t)r->dpa);
	if (r->hpa != UINT64_MAX)
		sqlite3_bind_int64(st, 6, (int64_t)r->hpa);
	sqlite3_bind_text(st, 7, ct_retire_log_action_name(r->action), -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 8, (int)r->errors);
	sqlite3_bind_text(st, 9, r->reason, -1, SQLITE_TRANSIENT);
	if (r->message[0])
		sqlite3_bind_text(st, 10, r->message, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : ct_event_store_sql_fail(s, err, rc, "cannot record a retired page");
}

int ct_retire_log_page_errors(struct ct_event_store *s, const char *device, uint64_t dpa, uint64_t len,
			      uint64_t since_ns, unsigned *n, struct ct_error *err)
{
	static struct ct_event e;
	sqlite3_stmt *st;
	int rc = prepare(s, "SELECT fields FROM records WHERE dpa >= ?1 AND dpa < ?2 AND time_ns >= ?3 AND "
			 "kind IN ('general_media', 'dram') AND (printf('0x%x', serial) = ?4 OR "
			 "(serial IS NULL AND memdev = ?4))", &st, err);

	*n = 0;
	if (rc)
		return rc < 0 ? rc : 0;
	sqlite3_bind_int64(st, 1, (int64_t)dpa);
	sqlite3_bind_int64(st, 2, (int64_t)(dpa + len));
	sqlite3_bind_int64(st, 3, (int64_t)since_ns);
	sqlite3_bind_text(st, 4, device, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const void *blob = sqlite3_column_blob(st, 0);
		int bytes = sqlite3_column_bytes(st, 0);
		if (blob && bytes > 0 && !ct_event_blob_read(blob, (size_t)bytes, &e) && !(e.descriptor & 1))
			(*n)++;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : ct_event_store_sql_fail(s, err, rc, "cannot count a page's errors");
}

int ct_retire_log_count(struct ct_event_store *s, const char *device, uint64_t hpa, enum ct_retire_action action,
			uint64_t since_ns, unsigned *n, struct ct_error *err)
{
	sqlite3_stmt *st;
	int rc = prepare(s, "SELECT count(*) FROM retirements WHERE device = ?1 AND action = ?2 AND time_ns >= ?3 "
			 "AND (?4 IS NULL OR hpa = ?4)", &st, err);

	*n = 0;
	if (rc)
		return rc < 0 ? rc : 0;
	sqlite3_bind_text(st, 1, device, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, ct_retire_log_action_name(action), -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, (int64_t)since_ns);
	if (hpa != UINT64_MAX)
		sqlite3_bind_int64(st, 4, (int64_t)hpa);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		*n = (unsigned)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : ct_event_store_sql_fail(s, err, rc, "cannot count its retired pages");
}


static enum ct_retire_action action_of(const char *name)
{
	for (size_t i = 0; i < sizeof(action_names) / sizeof(action_names[0]); i++)
		if (name && !strcmp(name, action_names[i]))
			return (enum ct_retire_action)i;
	return CT_RETIRE_FAILED;
}

int ct_retire_log_counts(struct ct_event_store *s, ct_retire_log_count_fn fn, void *arg, struct ct_error *err)
{
	sqlite3_stmt *st;
	int rc = prepare(s, "SELECT memdev, ifnull(serial, 0), action, count(*) FROM retirements "
			 "GROUP BY memdev, serial, action ORDER BY memdev, serial, action", &st, err);

	if (rc)
		return rc < 0 ? rc : 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fn((const char *)sqlite3_column_text(st, 0), (uint64_t)sqlite3_column_int64(st, 1),
		   action_of((const char *)sqlite3_column_text(st, 2)), (uint64_t)sqlite3_column_int64(st, 3), arg);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : ct_event_store_sql_fail(s, err, rc, "cannot count its retired pages");
}

static void text_col(sqlite3_stmt *st, int i, char *buf, size_t len)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	snprintf(buf, len, "%s", t ? (const char *)t : "");
}

int ct_retire_log_each(struct ct_event_store *s, ct_retire_log_fn fn, void *arg, struct ct_error *err)
{
	struct ct_retirement r;
	sqlite3_stmt *st;
	int rc = prepare(s, "SELECT time_ns, memdev, serial, device, dpa, hpa, action, errors, reason, message "
			 "FROM retirements ORDER BY time_ns, id", &st, err), stop = 0;

	if (rc)
		return rc < 0 ? rc : 0;
	while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		memset(&r, 0, sizeof(r));
		r.time_ns = (uint64_t)sqlite3_column_int64(st, 0);
		text_col(st, 1, r.memdev, sizeof(r.memdev));
		r.has_serial = sqlite3_column_type(st, 2) != SQLITE_NULL;
		r.serial = (uint64_t)sqlite3_column_int64(st, 2);
		text_col(st, 3, r.device, sizeof(r.device));
		r.dpa = (uint64_t)sqlite3_column_int64(st, 4);
		r.hpa = sqlite3_column_type(st, 5) == SQLITE_NULL ? UINT64_MAX : (uint64_t)sqlite3_column_int64(st, 5);
		r.action = action_of((const char *)sqlite3_column_text(st, 6));
		r.errors = (unsigned)sqlite3_column_int(st, 7);
		text_col(st, 8, r.reason, sizeof(r.reason));
		text_col(st, 9, r.message, sizeof(r.message));
		stop = fn(&r, arg);
	}
	if (!stop && rc != SQLITE_DONE)
		rc = ct_event_store_sql_fail(s, err, rc, "cannot read its retired pages");
	else
		rc = stop < 0 ? stop : 0;
	sqlite3_finalize(st);
	return rc;
}
