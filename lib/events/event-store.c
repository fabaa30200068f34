// SPDX-License-Identifier: LGPL-2.1-or-later
/* event-store.c - the durable history of CXL event records in SQLite: see
 * event-store.h */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sqlite3.h>
#include "core/dir-nofollow.h"
#include "events/event-blob.h"
#include "events/event-store.h"
#include "events/event-store-db.h"

#define APPLICATION_ID 0x43584c54	/* "CXLT" */
#define BUSY_MS 2000
#define PRUNE_MIN_ROWS 100

struct ct_event_store {
	sqlite3 *db;
	char path[4096];
	bool writer;
	struct ct_event_store_limits lim;
	struct ct_event_store_stats st;
	/* the queue: blobs, oldest first */
	uint8_t **q;
	size_t *qlen;
	size_t qn, qcap;
	bool *qnew;			/* flush: which of the queue were written */
	ct_event_store_fn on_new;	/* told of each record written, after the commit */
	void *on_new_arg;
};

/* added in schema 2: the pages retired (retire-log.h); never pruned */
#define SCHEMA_2 \
	"CREATE TABLE retirements (id INTEGER PRIMARY KEY, time_ns INTEGER NOT NULL, memdev TEXT NOT NULL," \
	" serial INTEGER, device TEXT NOT NULL, dpa INTEGER, hpa INTEGER, action TEXT NOT NULL," \
	" errors INTEGER NOT NULL, reason TEXT NOT NULL, message TEXT);" \
	"CREATE INDEX retirements_page ON retirements(device, hpa, action);" \
	"CREATE INDEX retirements_device ON retirements(device, action, time_ns);"

static const char schema[] =
	"CREATE TABLE records ("
	" id INTEGER PRIMARY KEY,"
	" key TEXT NOT NULL UNIQUE,"		/* key_with_body */
	" body INTEGER NOT NULL,"		/* hash of the fields, emit time left out */
	" time_ns INTEGER NOT NULL,"		/* the device's time, else the kernel's */
	" emit_ns INTEGER NOT NULL,"		/* when the kernel emitted it (0 unknown) */
	" event TEXT NOT NULL,"			/* the tracepoint, '' for a raw record */
	" kind TEXT NOT NULL,"
	" severity TEXT,"			/* NULL: nothing says */
	" memdev TEXT NOT NULL,"
	" serial INTEGER,"
	" region TEXT,"
	" dpa INTEGER,"
	" hpa INTEGER,"
	" fields BLOB NOT NULL);"		/* event-blob.h */
	"CREATE INDEX records_time ON records(time_ns);"
	"CREATE INDEX records_memdev ON records(memdev, time_ns);"
	"CREATE INDEX records_serial ON records(serial);"
	"CREATE INDEX records_kind ON records(kind, severity);"
	"CREATE INDEX records_region ON records(region);"
	"CREATE INDEX records_dpa ON records(dpa);"
	"CREATE INDEX records_hpa ON records(hpa);"
	"CREATE INDEX records_body ON records(body, emit_ns);"
	"CREATE TABLE counts (memdev TEXT NOT NULL, serial INTEGER NOT NULL, kind TEXT NOT NULL,"
	" severity TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (memdev, serial, kind, severity)) WITHOUT ROWID;"
	"CREATE TABLE meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;"
	"INSERT INTO meta VALUES ('pruned', 0);"
	SCHEMA_2;

/* ---- what a record is stored under ---- */

static uint64_t fnv(uint64_t h, const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

/* the fields' hash, the emit time (8 bytes after the magic and the name)
 * left out: the same emission read by two tracefs instances */
static uint64_t body_hash(const uint8_t *blob, size_t len, const char *event)
{
	size_t at = 4 + 1 + strnlen(event, 255);

	if (len < at + 8)
		return fnv(0xcbf29ce484222325ULL, blob, len);
	return fnv(fnv(0xcbf29ce484222325ULL, blob, at), blob + at + 8, len - at - 8);
}

static void device_id(const struct ct_event *e, char *buf, size_t len)
{
	if (e->has_serial)
		snprintf(buf, len, "s%" PRIu64, e->serial);
	else
		snprintf(buf, len, "m%s", e->memdev);
}

static void key_with_body(const struct ct_event *e, uint64_t body, char *buf, size_t len)
{
	char dev[80], uuid[40];

	device_id(e, dev, sizeof(dev));
	/* the common header: a record's handle and the device's time name it
	 * (a device whose clock was never set gives 0: not enough) */
	if (e->has_header && !ct_uuid_is_null(e->uuid) && e->timestamp) {
		ct_uuid_text(e->uuid, uuid, sizeof(uuid));
		snprintf(buf, len, "h|%s|%s|%u|%u|%" PRIu64, dev, uuid, e->log, e->handle, e->timestamp);
	} else {
		snprintf(buf, len, "t|%s|%s|%" PRIu64 "|%016" PRIx64, dev, e->event, e->trace_time, body);
	}
}

/* the key a record read live is stored under, and its fields' hash */
static uint64_t key_of(const struct ct_event *e, char *buf, size_t len)
{
	static uint8_t blob[CT_EVENT_BLOB_MAX];
	size_t n = ct_event_blob_write(e, blob, sizeof(blob));
	uint64_t body = body_hash(blob, n, e->event);

	key_with_body(e, body, buf, len);
	return body;
}

/* ---- opening ---- */

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

/* SQLite's message, with the system's error when there is one */
static const char *why(struct ct_event_store *s, int rc, char *buf, size_t len)
{
	int sys = system_errno(s, rc);

	snprintf(buf, len, "%s%s%s%s", s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc), sys ? " (" : "",
		 sys ? strerror(sys) : "", sys ? ")" : "");
	return buf;
}

/* -errno of a failed SQLite call: the system's when it says, else SQLite's */
static int store_errno(struct ct_event_store *s, int rc)
{
	int sys = system_errno(s, rc);

	return sys ? -sys : sql_errno(rc);
}

int ct_event_store_sql_fail(struct ct_event_store *s, struct ct_error *err, int rc, const char *what)
{
	char buf[512];

	return ct_fail(err, -store_errno(s, rc), "event store %s: %s: %s", s->path, what, why(s, rc, buf, sizeof(buf)));
}

/* the directory: reached with no link, the caller's own, not writable by others */
static int check_dir(const char *path, bool create, struct ct_error *err)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	struct stat st;
	int fd;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	if (create && !strcmp(dir, CT_EVENT_STORE_DIR) && mkdir(dir, 0700) && errno != EEXIST)
		return ct_fail(err, errno, "cannot make the event store's directory %s: %s", dir, strerror(errno));
	fd = ct_dir_nofollow_open(dir);
	if (fd == -ENOENT && !create)
		return -ENOENT;
	if (fd < 0)
		return ct_fail(err, -fd, "the event store's directory %s: %s%s", dir, strerror(-fd),
			       fd == -ELOOP ? " (a symbolic link is on the way: give the real path)" : "");
	if (fstat(fd, &st)) {
		int e = errno;
		close(fd);
		return ct_fail(err, e, "the event store's directory %s: %s", dir, strerror(e));
	}
	close(fd);
	if (st.st_uid != geteuid() || (st.st_mode & 022))
		return ct_fail(err, EPERM, "the event store's directory %s is %s: it must be %s own and writable by "
			       "no one else (chown; chmod go-w)", dir,
			       st.st_uid != geteuid() ? "another user's" : "writable by others",
			       geteuid() ? "your" : "root's");
	return 0;
}

static int exec(struct ct_event_store *s, const char *sql)
{
	return sqlite3_exec(s->db, sql, NULL, NULL, NULL);
}

/* one integer a query gives; *v untouched when it gives no row */
static int query_int(struct ct_event_store *s, const char *sql, int64_t *v)
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

static void close_db(struct ct_event_store *s)
{
	if (s->db)
		sqlite3_close_v2(s->db);
	s->db = NULL;
}

static int open_db(struct ct_event_store *s, struct ct_error *err)
{
	int flags = s->writer ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
	int rc = sqlite3_open_v2(s->path, &s->db, flags | SQLITE_OPEN_NOFOLLOW, NULL);

	if (rc) {
		int e = sql_errno(rc);
		rc = (e == -ENOENT && !s->writer) ? -ENOENT : ct_event_store_sql_fail(s, err, rc, "cannot open it");
		close_db(s);
		return rc;
	}
	sqlite3_busy_timeout(s->db, BUSY_MS);
	return 0;
}

/* what the file is: 0 cxltier's of this schema, 1 empty (a new file), 2
 * cxltier's of schema 1 (upgraded by the writer),
 * -EBADMSG damaged or not a database, -EMEDIUMTYPE another program's,
 * -EPROTONOSUPPORT a newer schema, else an error of SQLite's */
static int identify(struct ct_event_store *s)
{
	int64_t app = 0, ver = 0, objects = 0;
	int rc;

	if ((rc = query_int(s, "PRAGMA application_id", &app)) ||
	    (rc = query_int(s, "SELECT count(*) FROM sqlite_master", &objects)) ||
	    (rc = query_int(s, "PRAGMA user_version", &ver)))
		return sql_errno(rc);
	if (app == 0 && objects == 0)
		return 1;
	if (app != APPLICATION_ID)
		return -EMEDIUMTYPE;
	if (ver > CT_EVENT_STORE_SCHEMA)
		return -EPROTONOSUPPORT;
	if (ver == 1)
		return 2;
	if (ver != CT_EVENT_STORE_SCHEMA)
		return -EBADMSG;	/* ours, yet no schema of ours: cannot be */
	return 0;
}

static int create_schema(struct ct_event_store *s, struct ct_error *err)
{
	char sql[sizeof(schema) + 128];
	int rc;

	snprintf(sql, sizeof(sql), "BEGIN IMMEDIATE; %s PRAGMA application_id = %d; PRAGMA user_version = %d; COMMIT;",
		 schema, APPLICATION_ID, CT_EVENT_STORE_SCHEMA);
	if ((rc = exec(s, sql))) {
		int r = ct_event_store_sql_fail(s, err, rc, "cannot make its tables");
		exec(s, "ROLLBACK");
		return r;
	}
	return 0;
}

/* schema 1 (records and counts) to 2 (retirements added) */
static int upgrade_schema(struct ct_event_store *s, struct ct_error *err)
{
	char sql[1024];
	int rc;

	snprintf(sql, sizeof(sql), "BEGIN IMMEDIATE; %s PRAGMA user_version = %d; COMMIT;", SCHEMA_2,
		 CT_EVENT_STORE_SCHEMA);
	if ((rc = exec(s, sql))) {
		int r = ct_event_store_sql_fail(s, err, rc, "cannot upgrade its tables to this cxltier's schema");
		exec(s, "ROLLBACK");
		return r;
	}
	return 0;
}

/* a damaged or foreign file (with its -wal and -shm) out of the way, named
 * with the time */
static int move_aside(struct ct_event_store *s, struct ct_error *err)
{
	char stamp[32], to[4200], from[4200];
	time_t now = time(NULL);
	struct tm tm;

	close_db(s);
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(to, sizeof(to), "%s.bad-%s", s->path, stamp);
	if (rename(s->path, to))
		return ct_fail(err, errno, "event store %s is damaged or not cxltier's, and cannot be moved aside: %s",
			       s->path, strerror(errno));
	for (size_t i = 0; i < 2; i++) {
		static const char *const sfx[] = { "-wal", "-shm" };
		char t2[4300];
		snprintf(from, sizeof(from), "%s%s", s->path, sfx[i]);
		snprintf(t2, sizeof(t2), "%s%s", to, sfx[i]);
		if (rename(from, t2) && errno != ENOENT)
			return ct_fail(err, errno, "cannot move %s aside: %s", from, strerror(errno));
	}
	snprintf(s->st.moved_aside, sizeof(s->st.moved_aside), "%s", to);
	return 0;
}

static int load_pruned(struct ct_event_store *s)
{
	int64_t v = 0;
	int rc = query_int(s, "SELECT value FROM meta WHERE name = 'pruned'", &v);

	s->st.pruned = (uint64_t)v;
	return rc;
}

static int writer_ready_open(struct ct_event_store *s, struct ct_error *err)
{
	int rc, kind;

	for (int attempt = 0;; attempt++) {
		if ((rc = open_db(s, err)))
			return rc;
		kind = identify(s);
		if (kind >= 0)
			break;
		if (kind == -EPROTONOSUPPORT)
			return ct_fail(err, EPROTONOSUPPORT, "event store %s has a newer schema than this cxltier's "
				       "(%d): left alone; run the newer cxltier, or move the file away", s->path,
				       CT_EVENT_STORE_SCHEMA);
		if ((kind != -EBADMSG && kind != -EMEDIUMTYPE) || attempt)
			return ct_fail(err, -kind, "event store %s: cannot read it: %s", s->path,
				       s->db ? sqlite3_errmsg(s->db) : strerror(-kind));
		if ((rc = move_aside(s, err)))
			return rc;
	}
	/* WAL: readers never block the writer; NORMAL: a commit survives the
	 * process killed (the last ones may be lost with the power) */
	if ((rc = exec(s, "PRAGMA journal_mode = WAL")) || (rc = exec(s, "PRAGMA synchronous = NORMAL")))
		return ct_event_store_sql_fail(s, err, rc, "cannot set its journal");
	if (kind == 1 && (rc = create_schema(s, err)))
		return rc;
	if (kind == 2 && (rc = upgrade_schema(s, err)))
		return rc;
	if ((rc = load_pruned(s)))
		return ct_event_store_sql_fail(s, err, rc, "cannot read its counts");
	return 0;
}

/* the database opened for writing, its schema made, checked or upgraded;
 * closed again when that fails (a later flush opens it afresh: a connection
 * opened while its file system was read-only would stay read-only) */
static int writer_ready(struct ct_event_store *s, struct ct_error *err)
{
	int rc = writer_ready_open(s, err);

	if (rc)
		close_db(s);
	return rc;
}

/* a failure that may pass (a read-only or full file system, a lock, I/O) */
static bool may_pass(int rc)
{
	return rc == -EROFS || rc == -ENOSPC || rc == -EBUSY || rc == -EIO || rc == -EACCES || rc == -ENOENT;
}

int ct_event_store_open_writer(const char *path, const struct ct_event_store_limits *lim,
			       struct ct_event_store **out, struct ct_error *err)
{
	struct ct_event_store *s;
	int rc;

	*out = NULL;
	if (!path)
		path = CT_EVENT_STORE_PATH;
	if ((rc = check_dir(path, true, err)))
		return rc;
	if (!(s = calloc(1, sizeof(*s))))
		return ct_fail(err, ENOMEM, "out of memory");
	snprintf(s->path, sizeof(s->path), "%s", path);
	s->writer = true;
	if (lim)
		s->lim = *lim;
	if ((rc = writer_ready(s, err)) && !may_pass(rc)) {
		ct_event_store_close(s);
		return rc;
	}
	s->st.last_rc = rc;	/* (0, or the database is opened at a later flush) */
	*out = s;
	return 0;
}

int ct_event_store_open_reader(const char *path, struct ct_event_store **out, struct ct_error *err)
{
	struct ct_event_store *s;
	int rc, kind;

	*out = NULL;
	if (!path)
		path = CT_EVENT_STORE_PATH;
	if ((rc = check_dir(path, false, err)))
		return rc;
	if (access(path, F_OK) && errno == ENOENT)
		return -ENOENT;
	if (!(s = calloc(1, sizeof(*s))))
		return ct_fail(err, ENOMEM, "out of memory");
	snprintf(s->path, sizeof(s->path), "%s", path);
	if ((rc = open_db(s, err)))
		goto fail;
	kind = identify(s);
	if (kind == 1) {	/* being made: nothing stored yet */
		rc = -ENOENT;
		goto fail;
	}
	if (kind < 0) {	/* (2, schema 1: read as it is, no retirements) */
		rc = ct_fail(err, -kind, "event store %s: %s", s->path,
			     kind == -EPROTONOSUPPORT ? "a newer schema than this cxltier's: run the newer cxltier" :
			     kind == -EMEDIUMTYPE ? "not cxltier's (another program's database): give the right path" :
			     kind == -EBADMSG ? "damaged or not a database (the follower moves it aside when it starts: "
						"systemctl restart cxltier-events)" : strerror(-kind));
		goto fail;
	}
	if ((rc = load_pruned(s))) {
		rc = ct_event_store_sql_fail(s, err, rc, "cannot read its counts");
		goto fail;
	}
	*out = s;
	return 0;
fail:
	ct_event_store_close(s);
	return rc;
}

void ct_event_store_close(struct ct_event_store *s)
{
	if (!s)
		return;
	close_db(s);
	for (size_t i = 0; i < s->qn; i++)
		free(s->q[i]);
	free(s->q);
	free(s->qlen);
	free(s->qnew);
	free(s);
}

/* ---- writing ---- */

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
		s->qn -= drop;
		s->st.unkept += drop;
	}
	if (s->qn == s->qcap) {
		size_t cap = s->qcap ? 2 * s->qcap : 64;
		uint8_t **q = realloc(s->q, cap * sizeof(*q));
		size_t *ql;
		if (!q)
			return -ENOMEM;
		s->q = q;
		if (!(ql = realloc(s->qlen, cap * sizeof(*ql))))
			return -ENOMEM;
		s->qlen = ql;
		bool *qnew = realloc(s->qnew, cap * sizeof(*qnew));
		if (!qnew)
			return -ENOMEM;
		s->qnew = qnew;
		s->qcap = cap;
	}
	if (!(copy = malloc(n)))
		return -ENOMEM;
	memcpy(copy, blob, n);
	s->q[s->qn] = copy;
	s->qlen[s->qn++] = n;
	s->st.queued = s->qn;
	return 0;
}

static void bind_text_or_null(sqlite3_stmt *st, int i, const char *t)
{
	if (t && *t)
		sqlite3_bind_text(st, i, t, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static bool has_dpa(const struct ct_event *e)
{
	return e->kind == CT_EV_GENERAL_MEDIA || e->kind == CT_EV_DRAM || e->kind == CT_EV_POISON;
}

/* the query of a record without a header emitted within a few ms with the
 * same fields, by the same tracepoint on the same memdev: the same
 * emission, read by another tracefs instance */
#define SAME_SQL "SELECT 1 FROM records WHERE body = ?1 AND emit_ns BETWEEN ?2 AND ?3 AND event = ?4 AND memdev = ?5 LIMIT 1"

static void bind_same(sqlite3_stmt *st, const struct ct_event *e, uint64_t body)
{
	sqlite3_bind_int64(st, 1, (int64_t)body);
	sqlite3_bind_int64(st, 2, (int64_t)(e->trace_time - CT_EVENT_STORE_SAME_MS * 1000000ULL));
	sqlite3_bind_int64(st, 3, (int64_t)(e->trace_time + CT_EVENT_STORE_SAME_MS * 1000000ULL));
	sqlite3_bind_text(st, 4, e->event, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 5, e->memdev, -1, SQLITE_TRANSIENT);
}

/* one queued blob into records (and counts when new; *written says): an
 * SQLite result code */
static int insert_one(struct ct_event_store *s, sqlite3_stmt *ins, sqlite3_stmt *cnt, sqlite3_stmt *same,
		      const uint8_t *blob, size_t len, bool *written)
{
	static struct ct_event e;
	char key[512];
	int sev, rc;
	uint64_t body;

	*written = false;
	if (ct_event_blob_read(blob, len, &e))
		return SQLITE_OK;	/* cannot be: written by ct_event_store_add */
	body = body_hash(blob, len, e.event);
	key_with_body(&e, body, key, sizeof(key));
	if (key[0] == 't') {	/* no header: the same emission read by another instance? */
		sqlite3_reset(same);
		bind_same(same, &e, body);
		if ((rc = sqlite3_step(same)) == SQLITE_ROW)
			return SQLITE_OK;
		if (rc != SQLITE_DONE)
			return rc;
	}
	sev = ct_event_severity(&e);
	sqlite3_reset(ins);
	sqlite3_clear_bindings(ins);
	sqlite3_bind_text(ins, 1, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(ins, 2, (int64_t)body);
	sqlite3_bind_int64(ins, 3, (int64_t)ct_event_time(&e));
	sqlite3_bind_int64(ins, 4, (int64_t)e.trace_time);
	sqlite3_bind_text(ins, 5, e.event, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(ins, 6, ct_event_kind_name(e.kind), -1, SQLITE_STATIC);
	bind_text_or_null(ins, 7, sev >= 0 ? ct_severity_name((uint8_t)sev) : NULL);
	sqlite3_bind_text(ins, 8, e.memdev, -1, SQLITE_TRANSIENT);
	if (e.has_serial)
		sqlite3_bind_int64(ins, 9, (int64_t)e.serial);
	bind_text_or_null(ins, 10, e.region);
	if (has_dpa(&e))
		sqlite3_bind_int64(ins, 11, (int64_t)e.dpa);
	if (e.has_hpa)
		sqlite3_bind_int64(ins, 12, (int64_t)e.hpa);
	sqlite3_bind_blob(ins, 13, blob, (int)len, SQLITE_STATIC);
	if ((rc = sqlite3_step(ins)) != SQLITE_DONE)
		return rc;
	if (sqlite3_changes(s->db) == 0)
		return SQLITE_OK;
	sqlite3_reset(cnt);
	sqlite3_bind_text(cnt, 1, e.memdev, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(cnt, 2, e.has_serial ? (int64_t)e.serial : 0);
	sqlite3_bind_text(cnt, 3, ct_event_kind_name(e.kind), -1, SQLITE_STATIC);
	sqlite3_bind_text(cnt, 4, sev >= 0 ? ct_severity_name((uint8_t)sev) : "unknown", -1, SQLITE_STATIC);
	if ((rc = sqlite3_step(cnt)) != SQLITE_DONE)
		return rc;
	*written = true;
	return SQLITE_OK;
}

static int add_pruned(struct ct_event_store *s, int64_t n)
{
	char sql[96];

	snprintf(sql, sizeof(sql), "UPDATE meta SET value = value + %" PRId64 " WHERE name = 'pruned'", n);
	return exec(s, sql);
}

/* the oldest rows out while the store is older or larger than its limits */
static int prune(struct ct_event_store *s)
{
	int rc = SQLITE_OK;

	if (s->lim.max_age_s) {
		char sql[128];
		struct timespec now;
		clock_gettime(CLOCK_REALTIME, &now);
		int64_t before = ((int64_t)now.tv_sec - (int64_t)s->lim.max_age_s) * 1000000000LL;
		snprintf(sql, sizeof(sql), "DELETE FROM records WHERE time_ns < %" PRId64, before);
		if ((rc = exec(s, "BEGIN IMMEDIATE")) || (rc = exec(s, sql)))
			goto out;
		int64_t n = sqlite3_changes(s->db);
		if (n && (rc = add_pruned(s, n)))
			goto out;
		if ((rc = exec(s, "COMMIT")))
			goto out;
		s->st.pruned += (uint64_t)n;
	}
	while (s->lim.max_bytes) {
		int64_t pages = 0, free_pages = 0, page = 0, rows = 0, n;
		char sql[160];
		if ((rc = query_int(s, "PRAGMA page_count", &pages)) || (rc = query_int(s, "PRAGMA freelist_count", &free_pages)) ||
		    (rc = query_int(s, "PRAGMA page_size", &page)))
			return rc;
		if ((uint64_t)((pages - free_pages) * page) <= s->lim.max_bytes)
			return SQLITE_OK;	/* (the common case: no count of the rows) */
		if ((rc = query_int(s, "SELECT count(*) FROM records", &rows)) || !rows)
			return rc;
		n = rows / 10 > PRUNE_MIN_ROWS ? rows / 10 : PRUNE_MIN_ROWS;
		snprintf(sql, sizeof(sql), "DELETE FROM records WHERE id IN (SELECT id FROM records ORDER BY time_ns, id "
			 "LIMIT %" PRId64 ")", n);
		if ((rc = exec(s, "BEGIN IMMEDIATE")) || (rc = exec(s, sql)))
			goto out;
		n = sqlite3_changes(s->db);
		if ((rc = add_pruned(s, n)) || (rc = exec(s, "COMMIT")))
			goto out;
		s->st.pruned += (uint64_t)n;
	}
out:
	if (rc)
		exec(s, "ROLLBACK");
	return rc;
}

int ct_event_store_flush(struct ct_event_store *s, struct ct_error *err)
{
	sqlite3_stmt *ins = NULL, *cnt = NULL, *same = NULL;
	uint64_t stored = 0, dups = 0;
	int rc;

	if (!s->db) {	/* moved aside at the last flush: a new one */
		if ((rc = writer_ready(s, err)))
			return s->st.last_rc = rc;
	}
	if (!s->qn)
		return s->st.last_rc = 0;
	if ((rc = exec(s, "BEGIN IMMEDIATE")))
		goto fail;
	if ((rc = sqlite3_prepare_v2(s->db, "INSERT OR IGNORE INTO records (key, body, time_ns, emit_ns, event, kind, "
				     "severity, memdev, serial, region, dpa, hpa, fields) VALUES "
				     "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", -1, &ins, NULL)) ||
	    (rc = sqlite3_prepare_v2(s->db, "INSERT INTO counts VALUES (?, ?, ?, ?, 1) ON CONFLICT DO UPDATE SET "
				     "n = n + 1", -1, &cnt, NULL)) ||
	    (rc = sqlite3_prepare_v2(s->db, SAME_SQL, -1, &same, NULL)))
		goto fail;
	for (size_t i = 0; i < s->qn; i++) {
		bool written;
		if ((rc = insert_one(s, ins, cnt, same, s->q[i], s->qlen[i], &written)))
			goto fail;
		written ? stored++ : dups++;
		s->qnew[i] = written;
	}
	sqlite3_finalize(ins);
	sqlite3_finalize(cnt);
	sqlite3_finalize(same);
	ins = cnt = same = NULL;
	if ((rc = exec(s, "COMMIT")))
		goto fail;
	for (size_t i = 0; i < s->qn; i++) {
		static struct ct_event e;
		if (s->on_new && s->qnew[i] && !ct_event_blob_read(s->q[i], s->qlen[i], &e))
			s->on_new(&e, s->on_new_arg);
		free(s->q[i]);
	}
	s->qn = 0;
	s->st.queued = 0;
	s->st.stored += stored;
	s->st.duplicates += dups;
	prune(s);	/* (a limit not met now is met at a later flush) */
	return s->st.last_rc = 0;
fail:
	sqlite3_finalize(ins);
	sqlite3_finalize(cnt);
	sqlite3_finalize(same);
	{
		char buf[512];
		int e = store_errno(s, rc) ? store_errno(s, rc) : -EIO;
		ct_fail(err, -e, "event store %s: %zu records not written yet (kept, tried again): %s", s->path, s->qn,
			why(s, rc, buf, sizeof(buf)));
		exec(s, "ROLLBACK");
		if (e == -EBADMSG) {	/* damaged under us: aside, a new one at the next flush */
			move_aside(s, err);
			close_db(s);
		}
		return s->st.last_rc = e;
	}
}

void ct_event_store_on_new(struct ct_event_store *s, ct_event_store_fn fn, void *arg)
{
	s->on_new = fn;
	s->on_new_arg = arg;
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

/* ---- reading ---- */

int ct_event_store_each(struct ct_event_store *s, uint64_t since_ns, uint64_t until_ns, ct_event_store_fn fn,
			void *arg, struct ct_error *err)
{
	static struct ct_event e;
	sqlite3_stmt *st;
	int rc, stop = 0;

	rc = sqlite3_prepare_v2(s->db, "SELECT fields FROM records WHERE time_ns >= ? AND time_ns < ? "
				"ORDER BY time_ns, id", -1, &st, NULL);
	if (rc)
		return ct_event_store_sql_fail(s, err, rc, "cannot read it");
	sqlite3_bind_int64(st, 1, (int64_t)since_ns);
	sqlite3_bind_int64(st, 2, until_ns && until_ns <= INT64_MAX ? (int64_t)until_ns : INT64_MAX);
	while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const uint8_t *blob = sqlite3_column_blob(st, 0);
		int len = sqlite3_column_bytes(st, 0);
		if (blob && len > 0 && ct_event_blob_read(blob, (size_t)len, &e) == 0)
			stop = fn(&e, arg);
	}
	if (!stop && rc != SQLITE_DONE) {
		rc = ct_event_store_sql_fail(s, err, rc, "cannot read it");
		sqlite3_finalize(st);
		return rc;
	}
	sqlite3_finalize(st);
	return stop < 0 ? stop : 0;
}

bool ct_event_store_has(struct ct_event_store *s, const struct ct_event *e)
{
	char key[512];
	uint64_t body = key_of(e, key, sizeof(key));
	sqlite3_stmt *st;
	bool found;

	if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM records WHERE key = ?", -1, &st, NULL))
		return false;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	if (found || key[0] != 't' || sqlite3_prepare_v2(s->db, SAME_SQL, -1, &st, NULL))
		return found;
	bind_same(st, e, body);
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
	if (rc != SQLITE_DONE) {
		rc = ct_event_store_sql_fail(s, err, rc, "cannot read its counts");
		sqlite3_finalize(st);
		return rc;
	}
	sqlite3_finalize(st);
	return 0;
}

int ct_event_store_totals(struct ct_event_store *s, uint64_t *rows, uint64_t *pruned, struct ct_error *err)
{
	int64_t n = 0;
	int rc;

	if ((rc = query_int(s, "SELECT count(*) FROM records", &n)) || (rc = load_pruned(s)))
		return ct_event_store_sql_fail(s, err, rc, "cannot count it");
	*rows = (uint64_t)n;
	*pruned = s->st.pruned;
	return 0;
}
