// SPDX-License-Identifier: LGPL-2.1-or-later
/* store-schema.c - the event store's tables: made, recognized, and an older
 * schema's upgraded (see event-store-db.h) */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "events/event-blob.h"
#include "events/event-store-db.h"

/* what schema 3 adds to the records of 1 and 2, and what it no longer indexes */
#define RECORDS_3 \
	"CREATE INDEX records_host ON records(host_ns);" \
	"CREATE INDEX records_page ON records(device, page, host_ns) WHERE page IS NOT NULL;"

/* the tables of schema 3 besides the records and their counters */
#define TABLES_3 \
	"CREATE TABLE devices (id INTEGER PRIMARY KEY, identity TEXT NOT NULL UNIQUE, how TEXT NOT NULL," \
	" serial INTEGER, host TEXT NOT NULL, memdev TEXT NOT NULL, first_ns INTEGER NOT NULL," \
	" last_ns INTEGER NOT NULL, clock_offset_ns INTEGER);" \
	"CREATE INDEX devices_serial ON devices(serial) WHERE serial IS NOT NULL;" \
	"CREATE INDEX devices_last ON devices(last_ns);" \
	"CREATE TABLE retirements (id INTEGER PRIMARY KEY, time_ns INTEGER NOT NULL, first_ns INTEGER NOT NULL," \
	" tried_ns INTEGER, next_ns INTEGER NOT NULL DEFAULT 0, tries INTEGER NOT NULL DEFAULT 0," \
	" memdev TEXT NOT NULL, serial INTEGER, device TEXT NOT NULL, dpa INTEGER NOT NULL, hpa INTEGER," \
	" action TEXT NOT NULL, errors INTEGER NOT NULL, reason TEXT NOT NULL, message TEXT, UNIQUE (device, dpa));" \
	"CREATE INDEX retirements_tried ON retirements(device, tried_ns) WHERE tried_ns IS NOT NULL;" \
	"CREATE INDEX retirements_time ON retirements(time_ns);" \
	"CREATE TABLE retire_counts (memdev TEXT NOT NULL, serial INTEGER NOT NULL, action TEXT NOT NULL," \
	" n INTEGER NOT NULL, last_ns INTEGER NOT NULL, PRIMARY KEY (memdev, serial, action)) WITHOUT ROWID;" \
	"CREATE INDEX counts_last ON counts(last_ns);"

static const char schema[] =
	"CREATE TABLE records ("
	" id INTEGER PRIMARY KEY,"
	" key TEXT NOT NULL UNIQUE,"		/* store-key.c */
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
	" fields BLOB NOT NULL,"		/* event-blob.h */
	" host_ns INTEGER NOT NULL DEFAULT 0,"	/* the host's time: when it arrived */
	" device INTEGER NOT NULL DEFAULT 0,"	/* its device (devices.id) */
	" page INTEGER);"			/* a corrected media error: its 4 KiB page of DPA */
	"CREATE INDEX records_time ON records(time_ns);"
	"CREATE INDEX records_memdev ON records(memdev, time_ns);"
	"CREATE INDEX records_body ON records(body, emit_ns);"
	RECORDS_3
	"CREATE TABLE counts (memdev TEXT NOT NULL, serial INTEGER NOT NULL, kind TEXT NOT NULL,"
	" severity TEXT NOT NULL, n INTEGER NOT NULL, last_ns INTEGER NOT NULL DEFAULT 0,"
	" PRIMARY KEY (memdev, serial, kind, severity)) WITHOUT ROWID;"
	"CREATE TABLE meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;"
	"INSERT INTO meta VALUES ('pruned', 0);"
	TABLES_3;

int ct_store_identify(struct ct_event_store *s)
{
	int64_t app = 0, ver = 0, objects = 0;
	int rc;

	if ((rc = ct_store_query_int(s, "PRAGMA application_id", &app)) ||
	    (rc = ct_store_query_int(s, "SELECT count(*) FROM sqlite_master", &objects)) ||
	    (rc = ct_store_query_int(s, "PRAGMA user_version", &ver)))
		return ct_store_errno(s, rc);
	if (app == 0 && objects == 0)
		return 1;
	if (app != CT_STORE_APPLICATION_ID)
		return -EMEDIUMTYPE;
	if (ver > CT_EVENT_STORE_SCHEMA)
		return -EPROTONOSUPPORT;
	if (ver == 1 || ver == 2)
		return 2;
	if (ver != CT_EVENT_STORE_SCHEMA)
		return -EBADMSG;	/* ours, yet no schema of ours: cannot be */
	return 0;
}

static int failed(struct ct_event_store *s, struct ct_error *err, int rc, const char *what)
{
	int r = ct_event_store_sql_fail(s, err, rc, what);

	ct_store_exec(s, "ROLLBACK");
	return r;
}

int ct_store_create(struct ct_event_store *s, struct ct_error *err)
{
	char sql[sizeof(schema) + 160];
	int rc;

	snprintf(sql, sizeof(sql), "BEGIN IMMEDIATE; %s PRAGMA application_id = %d; "
		 "PRAGMA user_version = %d; COMMIT;", schema, CT_STORE_APPLICATION_ID, CT_EVENT_STORE_SCHEMA);
	if ((rc = ct_store_exec(s, sql)))
		return failed(s, err, rc, "cannot make its tables");
	return 0;
}

/* every record of an older schema keyed, timed and owned as this one does */
static int rekey(struct ct_event_store *s)
{
	static struct ct_event e;
	sqlite3_stmt *rows, *upd;
	int rc = sqlite3_prepare_v2(s->db, "SELECT id, fields FROM records ORDER BY id", -1, &rows, NULL);

	if (rc)
		return rc;
	if ((rc = sqlite3_prepare_v2(s->db, "UPDATE OR REPLACE records SET key = ?, host_ns = ?, device = ?, page = ? "
				     "WHERE id = ?", -1, &upd, NULL))) {
		sqlite3_finalize(rows);
		return rc;
	}
	while ((rc = sqlite3_step(rows)) == SQLITE_ROW) {
		const uint8_t *blob = sqlite3_column_blob(rows, 1);
		int len = sqlite3_column_bytes(rows, 1);
		struct ct_store_device *d;
		char key[CT_STORE_KEY_MAX];
		uint64_t host;
		int64_t page;
		if (!blob || len <= 0 || ct_event_blob_read(blob, (size_t)len, &e))
			continue;	/* (kept as it was: never read back) */
		host = ct_store_host_time(&e, ct_store_now_ns());
		ct_store_key(&e, ct_store_body_hash(blob, (size_t)len, e.event), key, sizeof(key));
		if ((rc = ct_store_device_of(s, &e, host, &d)))
			break;
		page = ct_store_page(&e);
		sqlite3_reset(upd);
		sqlite3_bind_text(upd, 1, key, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(upd, 2, (int64_t)host);
		sqlite3_bind_int64(upd, 3, d->id);
		if (page >= 0)
			sqlite3_bind_int64(upd, 4, page);
		else
			sqlite3_bind_null(upd, 4);
		sqlite3_bind_int64(upd, 5, sqlite3_column_int64(rows, 0));
		if ((rc = sqlite3_step(upd)) != SQLITE_DONE)
			break;
	}
	sqlite3_finalize(rows);
	sqlite3_finalize(upd);
	return rc == SQLITE_DONE ? ct_store_devices_write(s) : rc;
}

/* schema 2's retirements (one row a decision): each page's last decision,
 * its tries, and the decisions counted; schema 1 has none */
#define FOLD_2 \
	"INSERT INTO retire_counts SELECT memdev, ifnull(serial, 0), action, count(*), max(time_ns)" \
	" FROM retirements_2 GROUP BY 1, 2, 3;" \
	"INSERT OR IGNORE INTO retirements (time_ns, first_ns, tried_ns, tries, memdev, serial, device, dpa, hpa," \
	" action, errors, reason, message)" \
	" SELECT r.time_ns, (SELECT min(time_ns) FROM retirements_2 WHERE device = r.device AND dpa = r.dpa)," \
	" (SELECT max(time_ns) FROM retirements_2 WHERE device = r.device AND dpa = r.dpa AND action IN ('retired', 'failed'))," \
	" (SELECT count(*) FROM retirements_2 WHERE device = r.device AND dpa = r.dpa AND action IN ('retired', 'failed'))," \
	" r.memdev, r.serial, CASE WHEN r.serial IS NULL THEN 'pci:' || r.memdev ELSE 'serial:' || r.device END," \
	" r.dpa, r.hpa, r.action, r.errors, r.reason, r.message FROM retirements_2 r" \
	" WHERE r.id = (SELECT max(id) FROM retirements_2 WHERE device = r.device AND dpa = r.dpa);" \
	"DROP TABLE retirements_2;"

int ct_store_upgrade(struct ct_event_store *s, struct ct_error *err)
{
	int64_t ver = 0;
	char sql[4096];
	int rc;

	if ((rc = ct_store_exec(s, "BEGIN IMMEDIATE")) || (rc = ct_store_query_int(s, "PRAGMA user_version", &ver)))
		return failed(s, err, rc, "cannot upgrade its tables to this cxltier's schema");
	snprintf(sql, sizeof(sql), "%s"
		 "ALTER TABLE records ADD COLUMN host_ns INTEGER NOT NULL DEFAULT 0;"
		 "ALTER TABLE records ADD COLUMN device INTEGER NOT NULL DEFAULT 0;"
		 "ALTER TABLE records ADD COLUMN page INTEGER;"
		 "ALTER TABLE counts ADD COLUMN last_ns INTEGER NOT NULL DEFAULT 0;"
		 "DROP INDEX IF EXISTS records_serial; DROP INDEX IF EXISTS records_kind;"
		 "DROP INDEX IF EXISTS records_region; DROP INDEX IF EXISTS records_dpa; DROP INDEX IF EXISTS records_hpa;"
		 TABLES_3, ver == 2 ? "ALTER TABLE retirements RENAME TO retirements_2;" : "");
	if ((rc = ct_store_exec(s, sql)) || (rc = rekey(s)))
		return failed(s, err, rc, "cannot upgrade its tables to this cxltier's schema");
	snprintf(sql, sizeof(sql), "%s %s PRAGMA user_version = %d; COMMIT;", ver == 2 ? FOLD_2 : "", RECORDS_3,
		 CT_EVENT_STORE_SCHEMA);
	if ((rc = ct_store_exec(s, sql)))
		return failed(s, err, rc, "cannot upgrade its tables to this cxltier's schema");
	return 0;
}
