/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* private to lib/events/ (unit tests in test/ may include it) */
/*
 * event-store-db.h - the event store's SQLite handle, for the files that
 * keep tables of their own in it (retire-log.c)
 */
#ifndef CXLTIER_EVENT_STORE_DB_H
#define CXLTIER_EVENT_STORE_DB_H

#include <sqlite3.h>
#include "events/event-store.h"

sqlite3 *ct_event_store_sqlite(struct ct_event_store *s);
/* an SQLite result code as -errno, with "event store PATH: what: SQLite's message" */
int ct_event_store_sql_fail(struct ct_event_store *s, struct ct_error *err, int rc, const char *what);

#endif
