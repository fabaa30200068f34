// SPDX-License-Identifier: LGPL-2.1-or-later
/* store-write.c - the event store's writer: records queued, committed a
 * flush at a time, every table kept within its bounds (see event-store.h) */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "events/event-blob.h"
#include "events/event-store-db.h"

#define PRUNE_MIN_ROWS 100
#define PRUNE_AGE_STEP 10000	/* rows an age pruning deletes a statement */

/* ---- the queue ---- */

static int grow_queue(struct ct_event_store *s)
{
	size_t cap = s->qcap ? 2 * s->qcap : 64;
	uint8_t **q = realloc(s->q, cap * sizeof(*q));
	size_t *ql;
	uint64_t *qh;
	int64_t *qd;
	bool *qnew;

	if (!q)
		return -ENOMEM;
	s->q = q;
	if (!(ql = realloc(s->qlen, cap * sizeof(*ql))))
		return -ENOMEM;
	s->qlen = ql;
	if (!(qh = realloc(s->qhost, cap * sizeof(*qh))))
		return -ENOMEM;
	s->qhost = qh;
	if (!(qd = realloc(s->qdev, cap * sizeof(*qd))))
		return -ENOMEM;
	s->qdev = qd;
	if (!(qnew = realloc(s->qnew, cap * sizeof(*qnew))))
		return -ENOMEM;
	s->qnew = qnew;
	s->qcap = cap;
	return 0;
}

int ct_event_store_add(struct ct_event_store *s, const struct ct_event *e)
{
	static uint8_t blob[CT_EVENT_BLOB_MAX];
	size_t n = ct_event_blob_write(e, blob, sizeof(blob));
	uint8_t *copy;

	if (!n)
		return -E2BIG;
	if (s->qn == CT_EVENT_STORE_QUEUE_MAX) {	/* the oldest tenth goes at once (one move): counted */
		size_t drop = CT_EVENT_STORE_QUEUE_MAX / 10;
		for (size_t i = 0; i < drop; i++)
			free(s->q[i]);
		memmove(s->q, s->q + drop, (s->qn - drop) * sizeof(*s->q));
		memmove(s->qlen, s->qlen + drop, (s->qn - drop) * sizeof(*s->qlen));
		memmove(s->qhost, s->qhost + drop, (s->qn - drop) * sizeof(*s->qhost));
		s->qn -= drop;
		s->st.unkept += drop;
	}
	if (s->qn == s->qcap && grow_queue(s))
		return -ENOMEM;
	if (!(copy = malloc(n)))
		return -ENOMEM;
	memcpy(copy, blob, n);
	s->q[s->qn] = copy;
	s->qhost[s->qn] = ct_store_host_time(e, ct_store_now_ns());
	s->qlen[s->qn++] = n;
	s->st.queued = s->qn;
	return 0;
}

/* ---- a flush ---- */

/* the statements of a flush */
struct flushing {
	sqlite3_stmt *ins, *cnt, *same;
	struct ct_event far[8];		/* records of devices whose clocks are far off, told after the commit */
	char far_identity[8][CT_EVENT_IDENTITY_MAX];
	int64_t far_off[8];
	size_t nfar;
};

#define INSERT_SQL "INSERT OR IGNORE INTO records (key, body, time_ns, emit_ns, event, kind, severity, memdev, " \
	"serial, region, dpa, hpa, fields, host_ns, device, page) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
#define COUNT_SQL "INSERT INTO counts VALUES (?, ?, ?, ?, 1, ?5) ON CONFLICT DO UPDATE SET n = n + 1, " \
	"last_ns = max(last_ns, ?5)"
/* a record without a header emitted within a few ms with the same fields,
 * by the same tracepoint on the same memdev: the same emission, read by
 * another tracefs instance */
#define SAME_SQL "SELECT 1 FROM records WHERE body = ?1 AND emit_ns BETWEEN ?2 AND ?3 AND event = ?4 AND memdev = ?5 LIMIT 1"

static bool has_dpa(const struct ct_event *e)
{
	return e->kind == CT_EV_GENERAL_MEDIA || e->kind == CT_EV_DRAM || e->kind == CT_EV_POISON;
}

static void bind_same(sqlite3_stmt *st, const struct ct_event *e, uint64_t body)
{
	sqlite3_bind_int64(st, 1, (int64_t)body);
	sqlite3_bind_int64(st, 2, (int64_t)(e->trace_time - CT_EVENT_STORE_SAME_MS * 1000000ULL));
	sqlite3_bind_int64(st, 3, (int64_t)(e->trace_time + CT_EVENT_STORE_SAME_MS * 1000000ULL));
	sqlite3_bind_text(st, 4, e->event, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 5, e->memdev, -1, SQLITE_TRANSIENT);
}

/* the same emission is stored already (read by another instance) */
static int same_emission(struct flushing *f, const struct ct_event *e, uint64_t body, bool *found)
{
	int rc;

	sqlite3_reset(f->same);
	bind_same(f->same, e, body);
	rc = sqlite3_step(f->same);
	*found = rc == SQLITE_ROW;
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static void bind_record(sqlite3_stmt *ins, const struct ct_event *e, const char *key, uint64_t body, int sev,
			const uint8_t *blob, size_t len)
{
	sqlite3_reset(ins);
	sqlite3_clear_bindings(ins);
	sqlite3_bind_text(ins, 1, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(ins, 2, (int64_t)body);
	sqlite3_bind_int64(ins, 3, (int64_t)ct_event_time(e));
	sqlite3_bind_int64(ins, 4, (int64_t)e->trace_time);
	sqlite3_bind_text(ins, 5, e->event, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(ins, 6, ct_event_kind_name(e->kind), -1, SQLITE_STATIC);
	ct_store_bind_text(ins, 7, sev >= 0 ? ct_severity_name((uint8_t)sev) : NULL);
	sqlite3_bind_text(ins, 8, e->memdev, -1, SQLITE_TRANSIENT);
	if (e->has_serial)
		sqlite3_bind_int64(ins, 9, (int64_t)e->serial);
	ct_store_bind_text(ins, 10, e->region);
	if (has_dpa(e))
		sqlite3_bind_int64(ins, 11, (int64_t)e->dpa);
	if (e->has_hpa)
		sqlite3_bind_int64(ins, 12, (int64_t)e->hpa);
	sqlite3_bind_blob(ins, 13, blob, (int)len, SQLITE_STATIC);
}

static int count_record(struct flushing *f, const struct ct_event *e, int sev, uint64_t host)
{
	sqlite3_reset(f->cnt);
	sqlite3_bind_text(f->cnt, 1, e->memdev, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(f->cnt, 2, e->has_serial ? (int64_t)e->serial : 0);
	sqlite3_bind_text(f->cnt, 3, ct_event_kind_name(e->kind), -1, SQLITE_STATIC);
	sqlite3_bind_text(f->cnt, 4, sev >= 0 ? ct_severity_name((uint8_t)sev) : "unknown", -1, SQLITE_STATIC);
	sqlite3_bind_int64(f->cnt, 5, (int64_t)host);
	return sqlite3_step(f->cnt) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(sqlite3_db_handle(f->cnt));
}

/* a device's clock far off: kept to be told after the commit */
static void far_clock(struct flushing *f, const struct ct_store_device *d, const struct ct_event *e)
{
	if (f->nfar == sizeof(f->far) / sizeof(f->far[0]))
		return;
	f->far[f->nfar] = *e;
	snprintf(f->far_identity[f->nfar], CT_EVENT_IDENTITY_MAX, "%s", d->identity);
	f->far_off[f->nfar++] = d->clock_off_ns;
}

/* one queued blob into records (and counts when new; *written says): an
 * SQLite result code */
static int insert_one(struct ct_event_store *s, struct flushing *f, const uint8_t *blob, size_t len, uint64_t host,
		      int64_t *dev, bool *written)
{
	static struct ct_event e;
	struct ct_store_device *d;
	char key[CT_STORE_KEY_MAX];
	int sev, rc;
	int64_t page;
	uint64_t body;
	bool same;

	*written = false;
	if (ct_event_blob_read(blob, len, &e))
		return SQLITE_OK;	/* cannot be: written by ct_event_store_add */
	body = ct_store_body_hash(blob, len, e.event);
	ct_store_key(&e, body, key, sizeof(key));
	if (key[0] == 't') {	/* no header: the same emission read by another instance? */
		if ((rc = same_emission(f, &e, body, &same)) || same)
			return rc;
	}
	if ((rc = ct_store_device_of(s, &e, host, &d)))
		return rc;
	sev = ct_event_severity(&e);
	page = ct_store_page(&e);
	bind_record(f->ins, &e, key, body, sev, blob, len);
	sqlite3_bind_int64(f->ins, 14, (int64_t)host);
	sqlite3_bind_int64(f->ins, 15, d->id);
	if (page >= 0)
		sqlite3_bind_int64(f->ins, 16, page);
	if ((rc = sqlite3_step(f->ins)) != SQLITE_DONE)
		return rc;
	if (sqlite3_changes(s->db) == 0)
		return SQLITE_OK;
	if ((rc = count_record(f, &e, sev, host)))
		return rc;
	if (ct_store_device_clock(d, &e))
		far_clock(f, d, &e);
	*dev = d->id;
	*written = true;
	return SQLITE_OK;
}

static void finalize(struct flushing *f)
{
	sqlite3_finalize(f->ins);
	sqlite3_finalize(f->cnt);
	sqlite3_finalize(f->same);
	f->ins = f->cnt = f->same = NULL;
}

/* the queue in one transaction: an SQLite code */
static int commit_queue(struct ct_event_store *s, struct flushing *f, uint64_t *stored, uint64_t *dups)
{
	int rc;

	if ((rc = ct_store_exec(s, "BEGIN IMMEDIATE")))
		return rc;
	if ((rc = sqlite3_prepare_v2(s->db, INSERT_SQL, -1, &f->ins, NULL)) ||
	    (rc = sqlite3_prepare_v2(s->db, COUNT_SQL, -1, &f->cnt, NULL)) ||
	    (rc = sqlite3_prepare_v2(s->db, SAME_SQL, -1, &f->same, NULL)))
		return rc;
	for (size_t i = 0; i < s->qn; i++) {
		bool written;
		if ((rc = insert_one(s, f, s->q[i], s->qlen[i], s->qhost[i], &s->qdev[i], &written)))
			return rc;
		written ? (*stored)++ : (*dups)++;
		s->qnew[i] = written;
	}
	finalize(f);
	if ((rc = ct_store_devices_write(s)))
		return rc;
	return ct_store_exec(s, "COMMIT");
}

/* ---- the bounds ---- */

/* DELETE of the rows a query names, counted as pruned: an SQLite code */
static int prune_rows(struct ct_event_store *s, const char *ids, int64_t *n)
{
	char sql[320];
	int rc;

	snprintf(sql, sizeof(sql), "DELETE FROM records WHERE id IN (%s)", ids);
	if ((rc = ct_store_exec(s, "BEGIN IMMEDIATE")) || (rc = ct_store_exec(s, sql)))
		return rc;
	*n = sqlite3_changes(s->db);
	if ((*n && (rc = ct_store_add_pruned(s, *n))) || (rc = ct_store_exec(s, "COMMIT")))
		return rc;
	s->st.pruned += (uint64_t)*n;
	s->rows = s->rows > (uint64_t)*n ? s->rows - (uint64_t)*n : 0;
	return SQLITE_OK;
}

/* what arrived before the age bound */
static int prune_age(struct ct_event_store *s)
{
	uint64_t now = ct_store_now_ns(), age = s->lim.max_age_s * 1000000000ULL, before;
	char ids[160];
	int64_t n;
	int rc;

	if (!s->lim.max_age_s || s->lim.max_age_s > UINT64_MAX / 1000000000ULL || age >= now)
		return SQLITE_OK;	/* (nothing arrived before 1970) */
	before = now - age;
	snprintf(ids, sizeof(ids), "SELECT id FROM records WHERE host_ns < %" PRId64 " ORDER BY host_ns LIMIT %d",
		 (int64_t)before, PRUNE_AGE_STEP);
	do {
		if ((rc = prune_rows(s, ids, &n)))
			return rc;
	} while (n == PRUNE_AGE_STEP);
	return SQLITE_OK;
}

/* the records that arrived first, while the store is over its size */
static int prune_size(struct ct_event_store *s)
{
	uint64_t used;
	char ids[160];
	int64_t n;
	int rc;

	while (s->lim.max_bytes) {
		if ((rc = ct_store_used_bytes(s, &used)))
			return rc;
		if (used <= s->lim.max_bytes)
			return SQLITE_OK;	/* (the common case: no count of the rows) */
		n = (int64_t)(s->rows / 10 > PRUNE_MIN_ROWS ? s->rows / 10 : PRUNE_MIN_ROWS);
		snprintf(ids, sizeof(ids), "SELECT id FROM records ORDER BY host_ns, id LIMIT %" PRId64, n);
		if ((rc = prune_rows(s, ids, &n)))
			return rc;
		if (!n)
			return SQLITE_OK;	/* no record left: what is left is the decisions' share */
	}
	return SQLITE_OK;
}

/* table's rows (named by key) past max, the oldest by column (kept by
 * their own bound: no record goes for them) */
static int bound_table(struct ct_event_store *s, const char *table, const char *key, const char *column, int64_t max)
{
	char sql[256];
	int64_t n = 0;
	int rc;

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", table);
	if ((rc = ct_store_query_int(s, sql, &n)) || n <= max)
		return rc;
	snprintf(sql, sizeof(sql), "DELETE FROM %s WHERE %s IN (SELECT %s FROM %s ORDER BY %s LIMIT %" PRId64 ")",
		 table, key, key, table, column, n - max);
	return ct_store_exec(s, sql);
}

/* the decisions' share: a sixteenth of the size bound */
static int64_t decisions_max(const struct ct_event_store *s)
{
	uint64_t n = s->lim.max_bytes / 16 / CT_EVENT_STORE_DECISION_BYTES;

	if (!s->lim.max_bytes || n > CT_EVENT_STORE_DECISIONS)
		return CT_EVENT_STORE_DECISIONS;
	return n < 64 ? 64 : (int64_t)n;
}

/* every table within its bound: the decisions and the devices by their
 * own, then the records by age and size */
static int prune(struct ct_event_store *s)
{
	int rc = SQLITE_OK;

	if (s->decided) {
		if ((rc = bound_table(s, "retirements", "id", "time_ns, id", decisions_max(s))) ||
		    (rc = bound_table(s, "retire_counts", "(memdev, serial, action)", "last_ns", CT_EVENT_STORE_DEVICES)))
			return rc;
		s->decided = false;
	}
	if (s->ndevs > 16 && ((rc = bound_table(s, "devices", "id", "last_ns", CT_EVENT_STORE_DEVICES)) ||
			      (rc = bound_table(s, "counts", "(memdev, serial, kind, severity)", "last_ns",
						CT_EVENT_STORE_DEVICES))))
		return rc;
	if ((rc = prune_age(s)) || (rc = prune_size(s)))
		ct_store_exec(s, "ROLLBACK");
	return rc;
}

static void tell_new(struct ct_event_store *s, const struct flushing *f)
{
	for (size_t i = 0; i < f->nfar && s->on_clock; i++)
		s->on_clock(&f->far[i], f->far_identity[i], f->far_off[i], s->on_clock_arg);
	for (size_t i = 0; i < s->qn; i++) {
		static struct ct_event e;
		if (s->on_new && s->qnew[i] && !ct_event_blob_read(s->q[i], s->qlen[i], &e)) {
			e.received_ns = s->qhost[i];
			ct_store_identity_of_id(s, s->qdev[i], e.identity, sizeof(e.identity));
			s->on_new(&e, s->on_new_arg);
		}
		free(s->q[i]);
	}
	s->qn = 0;
	s->st.queued = 0;
}

int ct_event_store_flush(struct ct_event_store *s, struct ct_error *err)
{
	static struct flushing f;
	uint64_t stored = 0, dups = 0;
	char buf[512];
	int rc, e;

	if (!s->db) {	/* moved aside at the last flush: a new one */
		if ((rc = ct_store_writer_ready(s, err)))
			return s->st.last_rc = rc;
	}
	if (!s->qn)
		return s->st.last_rc = 0;
	memset(&f, 0, sizeof(f));
	if (!(rc = commit_queue(s, &f, &stored, &dups))) {
		s->st.stored += stored;
		s->st.duplicates += dups;
		s->rows += stored;
		tell_new(s, &f);
		prune(s);	/* (a bound not met now is met at a later flush) */
		return s->st.last_rc = 0;
	}
	finalize(&f);
	e = ct_store_errno(s, rc) ? ct_store_errno(s, rc) : -EIO;
	ct_fail(err, -e, "event store %s: %zu records not written yet (kept, tried again): %s", s->path, s->qn,
		ct_store_why(s, rc, buf, sizeof(buf)));
	ct_store_exec(s, "ROLLBACK");
	ct_store_devices_forget(s);	/* (rows made in the transaction are gone) */
	if (e == -EBADMSG) {	/* damaged under us: aside, a new one at the next flush */
		ct_store_move_aside(s, err);
		ct_store_close_db(s);
	}
	return s->st.last_rc = e;
}

void ct_event_store_on_new(struct ct_event_store *s, ct_event_store_fn fn, void *arg)
{
	s->on_new = fn;
	s->on_new_arg = arg;
}

void ct_event_store_on_clock(struct ct_event_store *s, ct_event_store_clock_fn fn, void *arg)
{
	s->on_clock = fn;
	s->on_clock_arg = arg;
}
