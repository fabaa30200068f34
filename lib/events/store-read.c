// SPDX-License-Identifier: LGPL-2.1-or-later
/* store-read.c - the event store read: its records a filter takes, one at a
 * time; whether a record is there; its counters (see event-store.h) */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "events/event-blob.h"
#include "events/event-store-db.h"

struct ct_event_store_cursor {
	struct ct_event_store *s;
	sqlite3_stmt *st;
	bool in_txn;
};

void ct_event_store_cursor_close(struct ct_event_store_cursor *c)
{
	if (!c)
		return;
	sqlite3_finalize(c->st);
	if (c->in_txn)
		ct_store_exec(c->s, "COMMIT");
	free(c);
}

int ct_event_store_cursor_open(struct ct_event_store *s, const struct ct_event_filter *f,
			       struct ct_event_store_cursor **out, uint64_t *count, struct ct_error *err)
{
	struct ct_event_store_cursor *c = calloc(1, sizeof(*c));
	sqlite3_stmt *n = NULL;
	int rc;

	*out = NULL;
	if (!c)
		return ct_fail(err, ENOMEM, "out of memory");
	c->s = s;
	/* one read transaction: the count and the records of one state */
	if (sqlite3_get_autocommit(s->db) && !ct_store_exec(s, "BEGIN"))
		c->in_txn = true;
	if ((rc = ct_store_prepare_filtered(s, "SELECT count(*) FROM records r WHERE %s", f, &n)) ||
	    (rc = sqlite3_step(n)) != SQLITE_ROW ||
	    (rc = ct_store_prepare_filtered(s, "SELECT r.fields, r.host_ns, ifnull(d.identity, '') FROM records r LEFT JOIN "
				   "devices d ON d.id = r.device WHERE %s ORDER BY r.time_ns, r.id", f, &c->st))) {
		rc = ct_event_store_sql_fail(s, err, rc, "cannot read it");
		sqlite3_finalize(n);
		ct_event_store_cursor_close(c);
		return rc;
	}
	*count = (uint64_t)sqlite3_column_int64(n, 0);
	sqlite3_finalize(n);
	*out = c;
	return 0;
}

int ct_event_store_cursor_next(struct ct_event_store_cursor *c, struct ct_event *e, struct ct_error *err)
{
	int rc;

	while ((rc = sqlite3_step(c->st)) == SQLITE_ROW) {
		const uint8_t *blob = sqlite3_column_blob(c->st, 0);
		int len = sqlite3_column_bytes(c->st, 0);
		if (!blob || len <= 0 || ct_event_blob_read(blob, (size_t)len, e))
			continue;	/* (cannot be: written by ct_event_store_add) */
		e->received_ns = (uint64_t)sqlite3_column_int64(c->st, 1);
		snprintf(e->identity, sizeof(e->identity), "%s", (const char *)sqlite3_column_text(c->st, 2));
		return 1;
	}
	return rc == SQLITE_DONE ? 0 : ct_event_store_sql_fail(c->s, err, rc, "cannot read it");
}

void ct_event_store_cursor_rewind(struct ct_event_store_cursor *c)
{
	sqlite3_reset(c->st);
}

int ct_event_store_each(struct ct_event_store *s, uint64_t since_ns, uint64_t until_ns, ct_event_store_fn fn,
			void *arg, struct ct_error *err)
{
	static struct ct_event e;
	struct ct_event_filter f = { .since_ns = since_ns, .until_ns = until_ns };
	struct ct_event_store_cursor *c;
	uint64_t n;
	int rc, stop = 0;

	if ((rc = ct_event_store_cursor_open(s, &f, &c, &n, err)))
		return rc;
	while (!stop && (rc = ct_event_store_cursor_next(c, &e, err)) == 1)
		stop = fn(&e, arg);
	ct_event_store_cursor_close(c);
	if (stop)
		return stop < 0 ? stop : 0;
	return rc;
}

bool ct_event_store_has(struct ct_event_store *s, const struct ct_event *e)
{
	static uint8_t blob[CT_EVENT_BLOB_MAX];
	size_t len = ct_event_blob_write(e, blob, sizeof(blob));
	uint64_t body = ct_store_body_hash(blob, len, e->event);
	char key[CT_STORE_KEY_MAX];
	sqlite3_stmt *st;
	bool found;

	ct_store_key(e, body, key, sizeof(key));
	if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM records WHERE key = ?", -1, &st, NULL))
		return false;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	if (found || key[0] != 't' || sqlite3_prepare_v2(s->db, "SELECT 1 FROM records WHERE body = ?1 AND emit_ns "
							 "BETWEEN ?2 AND ?3 AND event = ?4 AND memdev = ?5 LIMIT 1",
							 -1, &st, NULL))
		return found;
	sqlite3_bind_int64(st, 1, (int64_t)body);
	sqlite3_bind_int64(st, 2, (int64_t)(e->trace_time - CT_EVENT_STORE_SAME_MS * 1000000ULL));
	sqlite3_bind_int64(st, 3, (int64_t)(e->trace_time + CT_EVENT_STORE_SAME_MS * 1000000ULL));
	sqlite3_bind_text(st, 4, e->event, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 5, e->memdev, -1, SQLITE_TRANSIENT);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

int ct_event_store_counts(struct ct_event_store *s, ct_event_count_fn fn, void *arg, struct ct_error *err)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, "SELECT memdev, serial, kind, severity, n FROM counts "
				    "ORDER BY memdev, serial, kind, severity", -1, &st, NULL);

	if (rc)
		return ct_event_store_sql_fail(s, err, rc, "cannot read its counts");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fn((const char *)sqlite3_column_text(st, 0), (uint64_t)sqlite3_column_int64(st, 1),
		   (const char *)sqlite3_column_text(st, 2), (const char *)sqlite3_column_text(st, 3),
		   (uint64_t)sqlite3_column_int64(st, 4), arg);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : ct_event_store_sql_fail(s, err, rc, "cannot read its counts");
}

int ct_event_store_totals(struct ct_event_store *s, uint64_t *rows, uint64_t *pruned, struct ct_error *err)
{
	int64_t n = 0;
	int rc;

	if ((rc = ct_store_query_int(s, "SELECT count(*) FROM records", &n)) || (rc = ct_store_load_pruned(s)))
		return ct_event_store_sql_fail(s, err, rc, "cannot count it");
	*rows = (uint64_t)n;
	*pruned = s->st.pruned;
	return 0;
}
