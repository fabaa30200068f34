/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* private to lib/events/ (unit tests in test/ may include it) */
/*
 * event-store-db.h - the event store's handle as the files that keep it
 * share it: its SQLite connection, its queue, the devices a writer has met;
 * SQLite's results as -errno and messages (store-sql.c), the keys records
 * are stored under (store-key.c), the devices' identities (store-device.c),
 * the schema (store-schema.c).
 */
#ifndef CXLTIER_EVENT_STORE_DB_H
#define CXLTIER_EVENT_STORE_DB_H

#include <sqlite3.h>
#include "events/event-store.h"

#define CT_STORE_APPLICATION_ID 0x43584c54	/* "CXLT" */
#define CT_STORE_KEY_MAX 512
#define CT_STORE_DAY_NS (86400ULL * 1000000000ULL)

/* a device a writer has met: its row in `devices` */
struct ct_store_device {
	int64_t id;
	bool has_serial;
	uint64_t serial;
	char host[64];
	char memdev[32];
	char identity[CT_EVENT_IDENTITY_MAX];
	uint64_t last_ns;	/* the newest host time of its records, written at the commit */
	int64_t clock_off_ns;	/* its clock less the host's, at its last record with both */
	bool has_clock_off;
	bool dirty;		/* last_ns or the clock to write */
	bool clock_said;	/* a clock far off told (once a handle) */
};

struct ct_event_store {
	sqlite3 *db;
	char path[4096];
	bool writer;
	struct ct_event_store_limits lim;
	struct ct_event_store_stats st;
	/* the queue: blobs, oldest first, each with its host time */
	uint8_t **q;
	size_t *qlen;
	uint64_t *qhost;
	int64_t *qdev;			/* flush: the device each was written for */
	size_t qn, qcap;
	bool *qnew;			/* flush: which of the queue were written */
	ct_event_store_fn on_new;	/* told of each record written, after the commit */
	void *on_new_arg;
	ct_event_store_clock_fn on_clock;
	void *on_clock_arg;
	struct ct_store_device *devs;	/* the devices met, by their serial, host and memdev */
	size_t ndevs;
	uint64_t rows;			/* records, as counted at the open and kept since (an estimate
					 * when another writer writes too: it sizes a pruning's steps) */
	bool decided;			/* retire-log.c wrote a decision: its table's bound is looked at */
};

/* ---- event-store.c ---- */
void ct_store_close_db(struct ct_event_store *s);
/* a damaged or foreign file (with its -wal and -shm) out of the way, named
 * with the time (stats.moved_aside) */
int ct_store_move_aside(struct ct_event_store *s, struct ct_error *err);
/* the database opened for writing, its schema made, checked or upgraded */
int ct_store_writer_ready(struct ct_event_store *s, struct ct_error *err);

/* ---- store-sql.c ---- */
sqlite3 *ct_event_store_sqlite(struct ct_event_store *s);
/* an SQLite result code as -errno, with "event store PATH: what: SQLite's message" */
int ct_event_store_sql_fail(struct ct_event_store *s, struct ct_error *err, int rc, const char *what);
/* an SQLite result code as -errno: the system's when it says, else SQLite's */
int ct_store_errno(struct ct_event_store *s, int rc);
/* SQLite's message, with the system's error when there is one */
const char *ct_store_why(struct ct_event_store *s, int rc, char *buf, size_t len);
int ct_store_exec(struct ct_event_store *s, const char *sql);
/* one integer a query gives; *v untouched when it gives no row: an SQLite code */
int ct_store_query_int(struct ct_event_store *s, const char *sql, int64_t *v);
/* the bytes the database's pages in use take */
int ct_store_used_bytes(struct ct_event_store *s, uint64_t *bytes);
/* pruned rows counted in the store (meta) */
int ct_store_add_pruned(struct ct_event_store *s, int64_t n);
int ct_store_load_pruned(struct ct_event_store *s);
/* a statement of fmt, its "%s" the filter's WHERE of records r (its
 * bindings made): an SQLite code */
int ct_store_prepare_filtered(struct ct_event_store *s, const char *fmt, const struct ct_event_filter *f,
			      sqlite3_stmt **st);
/* text or NULL when empty */
void ct_store_bind_text(sqlite3_stmt *st, int i, const char *t);

/* ---- store-key.c ---- */
/* the fields' hash, the emit time left out (the same emission read by two
 * tracefs instances hashes the same) */
uint64_t ct_store_body_hash(const uint8_t *blob, size_t len, const char *event);
/* the key a record is stored under: the device's serial, PCI address and
 * memdev, then its header (record UUID, log, handle, device time to the
 * second: rasdaemon keeps no more) when it has one, else its tracepoint,
 * emit time and fields */
void ct_store_key(const struct ct_event *e, uint64_t body, char *buf, size_t len);
/* the host's time of a record: when it reached the host (the kernel's emit
 * time), else its device's time (a record of a file says no more), else now */
uint64_t ct_store_host_time(const struct ct_event *e, uint64_t now_ns);
/* a corrected General Media or DRAM error: its 4 KiB page of DPA, else -1 */
int64_t ct_store_page(const struct ct_event *e);
uint64_t ct_store_now_ns(void);

/* ---- store-device.c ---- */
/* the device of e (its row made when new, a serial two cards report told
 * apart by PCI address and memdev from then on): 0 and *out, or an SQLite
 * code */
int ct_store_device_of(struct ct_event_store *s, const struct ct_event *e, uint64_t host_ns,
		       struct ct_store_device **out);
/* e's clock against the host's noted; true once when it is far off */
bool ct_store_device_clock(struct ct_store_device *d, const struct ct_event *e);
/* the devices' last times and clocks written (in the flush's transaction) */
int ct_store_devices_write(struct ct_event_store *s);
void ct_store_devices_forget(struct ct_event_store *s);
/* the identity of the device of row id: 0, or an SQLite code */
int ct_store_identity_of_id(struct ct_event_store *s, int64_t id, char *buf, size_t len);

/* ---- store-schema.c ---- */
/* what the file is: 0 cxltier's of this schema, 1 empty (a new file), 2
 * cxltier's of an older schema (1 or 2: the writer upgrades it),
 * -EBADMSG damaged or not a database, -EMEDIUMTYPE another program's,
 * -EPROTONOSUPPORT a newer schema, else an error of SQLite's */
int ct_store_identify(struct ct_event_store *s);
int ct_store_create(struct ct_event_store *s, struct ct_error *err);
/* schema 1 or 2 to this one, in one transaction: every record keyed,
 * timed and owned anew, the retirements folded one a page */
int ct_store_upgrade(struct ct_event_store *s, struct ct_error *err);

#endif
