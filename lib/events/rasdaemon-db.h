/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rasdaemon-db.h - the CXL records rasdaemon (0.8.x) kept in its database
 * (ras-mc_event.db: cxl_general_media_event, cxl_dram_event,
 * cxl_memory_module_event, cxl_poison_event, cxl_aer_ue_event,
 * cxl_aer_ce_event, cxl_overflow_event, cxl_generic_event), each row made
 * again into the record the kernel's tracepoint gave (its fields under the
 * kernel's names, then decoded: events/event.h), so that the event store
 * takes them as its own. rasdaemon keeps less: times to the second (the
 * device's, and when it logged the record, which stands for the kernel's
 * emit time), no fields it did not parse; its columns are read by name, so
 * that each 0.8.x release's tables are read alike. The database is opened
 * read-only, rasdaemon may run on.
 */
#ifndef CXLTIER_RASDAEMON_DB_H
#define CXLTIER_RASDAEMON_DB_H

#include <stdint.h>
#include "core/error.h"
#include "core/sysfs.h"
#include "events/event.h"

#define CT_RASDAEMON_DB "/var/lib/rasdaemon/ras-mc_event.db"
#define CT_RASDAEMON_TABLES 8

/* what a table gave */
struct ct_rasdaemon_table {
	const char *name;	/* rasdaemon's table */
	bool present;		/* the database has it */
	uint64_t rows;		/* rows read */
	uint64_t skipped;	/* rows that make no record (no memdev, a time that does not read) */
};

/* fn told of each record, table by table (tab: its table's counts so far);
 * a non-zero return stops. end told when a table is read whole */
typedef int (*ct_rasdaemon_fn)(const struct ct_event *e, const struct ct_rasdaemon_table *tab, void *arg);
typedef int (*ct_rasdaemon_end_fn)(const struct ct_rasdaemon_table *tab, void *arg);

/* 0 with tables[CT_RASDAEMON_TABLES] filled (a table the database lacks:
 * not present); -ENOENT no such file, -EMEDIUMTYPE a database without any
 * CXL table of rasdaemon's, else -errno; each with a message; or what fn or
 * end returned */
int ct_rasdaemon_read(const char *path, ct_rasdaemon_fn fn, ct_rasdaemon_end_fn end, void *arg,
		      struct ct_rasdaemon_table tables[CT_RASDAEMON_TABLES], struct ct_error *err);
/* A DRAM record's correction mask as the running kernel's cxl_dram
 * tracepoint gives it (rasdaemon keeps its 32 bytes whatever the kernel):
 * four u64 (before 7.x), or 32 bytes; the tracepoint's format read from s,
 * four u64 when it cannot be. What ct_rasdaemon_read makes of the next
 * rows' cor_mask: 8 or 1 (the size of an element) */
void ct_rasdaemon_cor_mask_like(struct ct_sysfs *s);

#endif
