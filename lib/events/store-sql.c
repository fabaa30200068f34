// SPDX-License-Identifier: LGPL-2.1-or-later
/* store-sql.c - the event store's SQLite calls as its files share them:
 * results as -errno and messages, one statement run, one number read (see
 * event-store-db.h) */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "events/event-store-db.h"

static int sql_errno(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_OK: return 0;
	case SQLITE_BUSY: case SQLITE_LOCKED: return -EBUSY;
	case SQLITE_FULL: return -ENOSPC;
	case SQLITE_READONLY: return -EROFS;
	case SQLITE_PERM: case SQLITE_AUTH: return -EACCES;
	case SQLITE_NOMEM: return -ENOMEM;
	case SQLITE_CANTOPEN: return -ENOENT;
	case SQLITE_CORRUPT: case SQLITE_NOTADB: return -EBADMSG;
	default: return -EIO;
	}
}

/* the system's errno behind a failed SQLite call (EROFS, ENOSPC...), 0 none */
static int system_errno(struct ct_event_store *s, int rc)
{
	int e = s->db ? sqlite3_system_errno(s->db) : 0;

	switch (rc & 0xff) {
	case SQLITE_IOERR: case SQLITE_CANTOPEN: case SQLITE_FULL: case SQLITE_READONLY: case SQLITE_PERM:
		return e;
	default:
		return 0;
	}
}

const char *ct_store_why(struct ct_event_store *s, int rc, char *buf, size_t len)
{
	int sys = system_errno(s, rc);

	snprintf(buf, len, "%s%s%s%s", s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc), sys ? " (" : "",
		 sys ? strerror(sys) : "", sys ? ")" : "");
	return buf;
}

int ct_store_errno(struct ct_event_store *s, int rc)
{
	int sys = system_errno(s, rc);

	return sys ? -sys : sql_errno(rc);
}

int ct_event_store_sql_fail(struct ct_event_store *s, struct ct_error *err, int rc, const char *what)
{
	char buf[512];
	int e = ct_store_errno(s, rc);

	return ct_fail(err, e ? -e : EIO, "event store %s: %s: %s", s->path, what, ct_store_why(s, rc, buf, sizeof(buf)));
}

int ct_store_exec(struct ct_event_store *s, const char *sql)
{
	return sqlite3_exec(s->db, sql, NULL, NULL, NULL);
}

int ct_store_query_int(struct ct_event_store *s, const char *sql, int64_t *v)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);

	if (rc)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*v = sqlite3_column_int64(st, 0);
		rc = SQLITE_OK;
	} else if (rc == SQLITE_DONE) {
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc;
}

int ct_store_used_bytes(struct ct_event_store *s, uint64_t *bytes)
{
	int64_t pages = 0, free_pages = 0, page = 0;
	int rc;

	if ((rc = ct_store_query_int(s, "PRAGMA page_count", &pages)) ||
	    (rc = ct_store_query_int(s, "PRAGMA freelist_count", &free_pages)) ||
	    (rc = ct_store_query_int(s, "PRAGMA page_size", &page)))
		return rc;
	*bytes = (uint64_t)((pages - free_pages) * page);
	return SQLITE_OK;
}

int ct_store_add_pruned(struct ct_event_store *s, int64_t n)
{
	char sql[96];

	snprintf(sql, sizeof(sql), "UPDATE meta SET value = value + %" PRId64 " WHERE name = 'pruned'", n);
	return ct_store_exec(s, sql);
}

int ct_store_load_pruned(struct ct_event_store *s)
{
	int64_t v = 0;
	int rc = ct_store_query_int(s, "SELECT value FROM meta WHERE name = 'pruned'", &v);

	s->st.pruned = (uint64_t)v;
	return rc;
}

void ct_store_bind_text(sqlite3_stmt *st, int i, const char *t)
{
	if (t && *t)
		sqlite3_bind_text(st, i, t, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

/* the filter as SQL of records r, its memdevs bound from ?3 on */
static void where_of(const struct ct_event_filter *f, char *buf, size_t len)
{
	size_t at = (size_t)snprintf(buf, len, "r.time_ns >= ?1 AND r.time_ns < ?2");

	for (size_t i = 0; i < f->nmemdevs && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s?%zu%s", i ? ", " : " AND r.memdev IN (", i + 3,
				       i + 1 == f->nmemdevs ? ")" : "");
	for (int k = 0, n = 0; f->kinds && k <= CT_EV_GENERIC && at < len; k++)
		if (f->kinds & (1u << k))
			at += (size_t)snprintf(buf + at, len - at, "%s'%s'", n++ ? ", " : " AND r.kind IN (",
					       ct_event_kind_name((enum ct_event_kind)k));
	if (f->kinds && at < len)
		at += (size_t)snprintf(buf + at, len - at, ")");
	for (int v = 0, n = 0; f->severities && v <= 3 && at < len; v++)
		if (f->severities & (1u << v))
			at += (size_t)snprintf(buf + at, len - at, "%s'%s'", n++ ? ", " : " AND r.severity IN (",
					       ct_severity_name((uint8_t)v));
	if (f->severities && at < len)
		snprintf(buf + at, len - at, ")");
}

int ct_store_prepare_filtered(struct ct_event_store *s, const char *fmt, const struct ct_event_filter *f,
			      sqlite3_stmt **st)
{
	char where[2048 + 64 * 8], sql[4096];
	int rc;

	if (f->nmemdevs > 64)
		return SQLITE_TOOBIG;
	where_of(f, where, sizeof(where));
	snprintf(sql, sizeof(sql), fmt, where);
	if ((rc = sqlite3_prepare_v2(s->db, sql, -1, st, NULL)))
		return rc;
	sqlite3_bind_int64(*st, 1, (int64_t)(f->since_ns <= INT64_MAX ? f->since_ns : INT64_MAX));
	sqlite3_bind_int64(*st, 2, f->until_ns && f->until_ns <= INT64_MAX ? (int64_t)f->until_ns : INT64_MAX);
	for (size_t i = 0; i < f->nmemdevs; i++)
		sqlite3_bind_text(*st, (int)i + 3, f->memdevs[i], -1, SQLITE_STATIC);
	return SQLITE_OK;
}

sqlite3 *ct_event_store_sqlite(struct ct_event_store *s)
{
	return s->db;
}

const char *ct_event_store_path(const struct ct_event_store *s)
{
	return s->path;
}

const struct ct_event_store_stats *ct_event_store_stats(const struct ct_event_store *s)
{
	return &s->st;
}
