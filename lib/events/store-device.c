// SPDX-License-Identifier: LGPL-2.1-or-later
/* store-device.c - the devices of the event store: one identity a card,
 * whatever serial it reports (see event-store.h, event-store-db.h) */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "events/event-store-db.h"

/* how an identity was chosen, as `devices.how` says it */
#define HOW_SERIAL "serial"
#define HOW_SHARED "serial shared with another card: told apart by PCI address and memdev"
#define HOW_NONE "no serial: told apart by PCI address and memdev (a record of a file: memdev alone)"

static bool same_card(const struct ct_store_device *d, const struct ct_event *e)
{
	bool serial = e->has_serial && e->serial;

	return d->has_serial == serial && (!serial || d->serial == e->serial) && !strcmp(d->host, e->host) &&
	       !strcmp(d->memdev, e->memdev);
}

static void place_of(const char *host, const char *memdev, char *buf, size_t len)
{
	if (*host)
		snprintf(buf, len, "%s/%s", host, memdev);
	else
		snprintf(buf, len, "%s", *memdev ? memdev : "unknown");
}

/* a device with no serial: by its PCI address and memdev, else (a record
 * of a file) its memdev alone */
static void no_serial(const struct ct_event *e, const char *place, char *buf, size_t len)
{
	if (*e->host)
		snprintf(buf, len, "pci:%s", place);
	else
		snprintf(buf, len, "memdev:%s", place);
}

/* the row of identity: its id, made with how when missing */
static int row_of(struct ct_event_store *s, const char *identity, const char *how, const struct ct_event *e,
		  uint64_t host_ns, int64_t *id)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, "INSERT INTO devices (identity, how, serial, host, memdev, first_ns, last_ns) "
				    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6) ON CONFLICT (identity) DO UPDATE SET "
				    "memdev = ?5, host = CASE host WHEN '' THEN ?4 ELSE host END RETURNING id", -1, &st, NULL);

	if (rc)
		return rc;
	sqlite3_bind_text(st, 1, identity, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, how, -1, SQLITE_STATIC);
	if (e->has_serial && e->serial)
		sqlite3_bind_int64(st, 3, (int64_t)e->serial);
	sqlite3_bind_text(st, 4, e->host, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, e->memdev, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, (int64_t)host_ns);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc;
}

/* the card that reported serial first, when another card reports it at
 * another PCI address: its row keeps its history under its own place
 * from now on. 1 when it was so, 0 when the serial is the same card's */
static int shared_serial(struct ct_event_store *s, const struct ct_event *e)
{
	sqlite3_stmt *st;
	char identity[CT_EVENT_IDENTITY_MAX], place[96];
	int rc = sqlite3_prepare_v2(s->db, "SELECT id, host, memdev FROM devices WHERE serial = ? AND how = '"
				    HOW_SERIAL "'", -1, &st, NULL);
	int64_t id;

	if (rc)
		return -rc;
	sqlite3_bind_int64(st, 1, (int64_t)e->serial);
	if ((rc = sqlite3_step(st)) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return rc == SQLITE_DONE ? 0 : -rc;
	}
	id = sqlite3_column_int64(st, 0);
	place_of((const char *)sqlite3_column_text(st, 1), (const char *)sqlite3_column_text(st, 2), place, sizeof(place));
	/* the same card (moved to another memdev number, or a record without
	 * its PCI address) */
	if (!*e->host || !sqlite3_column_bytes(st, 1) || !strcmp((const char *)sqlite3_column_text(st, 1), e->host)) {
		sqlite3_finalize(st);
		return 0;
	}
	sqlite3_finalize(st);
	snprintf(identity, sizeof(identity), "serial:0x%" PRIx64 "@%s", e->serial, place);
	if ((rc = sqlite3_prepare_v2(s->db, "UPDATE devices SET identity = ?, how = '" HOW_SHARED "' WHERE id = ?", -1,
				     &st, NULL)))
		return -rc;
	sqlite3_bind_text(st, 1, identity, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, id);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return -rc;
	/* (its identity is another now: what was met is written, then met anew) */
	if ((rc = ct_store_devices_write(s)))
		return -rc;
	ct_store_devices_forget(s);
	return 1;
}

/* e's identity, and how it was chosen */
static int identity_of(struct ct_event_store *s, const struct ct_event *e, char *buf, size_t len, const char **how)
{
	char place[96];
	int64_t shared = 0;
	int rc;

	place_of(e->host, e->memdev, place, sizeof(place));
	if (!e->has_serial || !e->serial) {
		no_serial(e, place, buf, len);
		*how = HOW_NONE;
		return SQLITE_OK;
	}
	if ((rc = shared_serial(s, e)) < 0)
		return -rc;
	if (!rc) {
		char sql[256];
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM devices WHERE serial = %" PRId64 " AND how = '"
			 HOW_SHARED "'", (int64_t)e->serial);
		if ((rc = ct_store_query_int(s, sql, &shared)))
			return rc;
	}
	if (rc == 1 || shared) {
		snprintf(buf, len, "serial:0x%" PRIx64 "@%s", e->serial, place);
		*how = HOW_SHARED;
	} else {
		snprintf(buf, len, "serial:0x%" PRIx64, e->serial);
		*how = HOW_SERIAL;
	}
	return SQLITE_OK;
}

int ct_store_device_of(struct ct_event_store *s, const struct ct_event *e, uint64_t host_ns,
		       struct ct_store_device **out)
{
	struct ct_store_device *d, one;
	const char *how;
	int rc;

	for (size_t i = 0; i < s->ndevs; i++)
		if (same_card(&s->devs[i], e)) {
			*out = &s->devs[i];
			goto seen;
		}
	memset(&one, 0, sizeof(one));
	one.has_serial = e->has_serial && e->serial;
	one.serial = e->serial;
	snprintf(one.host, sizeof(one.host), "%s", e->host);
	snprintf(one.memdev, sizeof(one.memdev), "%s", e->memdev);
	/* (which may forget the devices met: a serial found shared) */
	if ((rc = identity_of(s, e, one.identity, sizeof(one.identity), &how)) ||
	    (rc = row_of(s, one.identity, how, e, host_ns, &one.id)))
		return rc;
	if (!(d = realloc(s->devs, (s->ndevs + 1) * sizeof(*d))))
		return SQLITE_NOMEM;
	s->devs = d;
	s->devs[s->ndevs] = one;
	*out = &s->devs[s->ndevs++];
seen:
	if (host_ns > (*out)->last_ns) {
		(*out)->last_ns = host_ns;
		(*out)->dirty = true;
	}
	return SQLITE_OK;
}

bool ct_store_device_clock(struct ct_store_device *d, const struct ct_event *e)
{
	int64_t off;

	if (!e->has_header || !e->timestamp || !e->trace_time)
		return false;
	off = (int64_t)(e->timestamp - e->trace_time);
	d->clock_off_ns = off;
	d->has_clock_off = true;
	d->dirty = true;
	if (d->clock_said || (uint64_t)(off < 0 ? -off : off) <= CT_EVENT_STORE_FAR_CLOCK_NS)
		return false;
	d->clock_said = true;
	return true;
}

int ct_store_devices_write(struct ct_event_store *s)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, "UPDATE devices SET last_ns = max(last_ns, ?1), clock_offset_ns = "
				    "ifnull(?2, clock_offset_ns) WHERE id = ?3", -1, &st, NULL);

	for (size_t i = 0; !rc && i < s->ndevs; i++) {
		struct ct_store_device *d = &s->devs[i];
		if (!d->dirty)
			continue;
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, (int64_t)d->last_ns);
		if (d->has_clock_off)
			sqlite3_bind_int64(st, 2, d->clock_off_ns);
		else
			sqlite3_bind_null(st, 2);
		sqlite3_bind_int64(st, 3, d->id);
		rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(s->db);
		d->dirty = false;
	}
	sqlite3_finalize(st);
	return rc;
}

void ct_store_devices_forget(struct ct_event_store *s)
{
	free(s->devs);
	s->devs = NULL;
	s->ndevs = 0;
}

int ct_store_identity_of_id(struct ct_event_store *s, int64_t id, char *buf, size_t len)
{
	sqlite3_stmt *st;
	int rc;

	for (size_t i = 0; i < s->ndevs; i++)
		if (s->devs[i].id == id) {
			snprintf(buf, len, "%s", s->devs[i].identity);
			return SQLITE_OK;
		}
	buf[0] = '\0';
	if ((rc = sqlite3_prepare_v2(s->db, "SELECT identity FROM devices WHERE id = ?", -1, &st, NULL)))
		return rc;
	sqlite3_bind_int64(st, 1, id);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		snprintf(buf, len, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int ct_event_store_identity(struct ct_event_store *s, const struct ct_event *e, char *buf, size_t len,
			    struct ct_error *err)
{
	char place[96], sql[256];
	int64_t shared = 0, other = 0;
	int rc;

	place_of(e->host, e->memdev, place, sizeof(place));
	if (!e->has_serial || !e->serial) {
		no_serial(e, place, buf, len);
		return 0;
	}
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM devices WHERE serial = %" PRId64 " AND how = '" HOW_SHARED "'",
		 (int64_t)e->serial);
	if ((rc = ct_store_query_int(s, sql, &shared)))
		return ct_event_store_sql_fail(s, err, rc, "cannot read its devices");
	if (!shared && *e->host) {	/* (another card reports it: shared at its first record) */
		sqlite3_stmt *st;
		if ((rc = sqlite3_prepare_v2(s->db, "SELECT count(*) FROM devices WHERE serial = ? AND how = '" HOW_SERIAL
					     "' AND host != '' AND host != ?", -1, &st, NULL)))
			return ct_event_store_sql_fail(s, err, rc, "cannot read its devices");
		sqlite3_bind_int64(st, 1, (int64_t)e->serial);
		sqlite3_bind_text(st, 2, e->host, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(st) == SQLITE_ROW)
			other = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	if (shared || other)
		snprintf(buf, len, "serial:0x%" PRIx64 "@%s", e->serial, place);
	else
		snprintf(buf, len, "serial:0x%" PRIx64, e->serial);
	return 0;
}
