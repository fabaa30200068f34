/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * event-import.h - rasdaemon's history taken in, as one job: the CXL
 * records of its database (events/rasdaemon-db.h) written into the event
 * store (jobs/event-history.h: the store's path from the configuration, a
 * batch at a time), each once: a record the store holds already (imported
 * before, or read live by the follower: the same device, log, handle and
 * device time to the second) is not written again. Their corrected errors
 * count in page retirement's window by when rasdaemon logged them; nothing
 * is weighed now. What the job has to tell goes to the context's sink.
 */
#ifndef CXLTIER_EVENT_IMPORT_H
#define CXLTIER_EVENT_IMPORT_H

#include <stdint.h>
#include "core/context.h"
#include "events/rasdaemon-db.h"
#include "jobs/job-end.h"

struct ct_event_import_opts {
	const char *path;		/* rasdaemon's database; NULL: CT_RASDAEMON_DB */
	const char *store_path;		/* NULL: `[events] store =` of the configuration, else the default */
	const char *config;		/* the configuration; NULL: /etc/cxltier.conf */
};

struct ct_event_import_table {
	struct ct_rasdaemon_table t;	/* rows read, skipped */
	uint64_t stored, duplicates;	/* records new in the store; held already */
};

struct ct_event_import_report {
	enum ct_job_end end;
	char path[4096], store_path[4096];
	struct ct_event_import_table tables[CT_RASDAEMON_TABLES];
	uint64_t rows, stored, duplicates, skipped;	/* every table's */
};

/* 0 when it ran to its end (CT_JOB_DONE; CT_JOB_PARTIAL: rows skipped, or
 * the store did not take every record), else -errno (said) */
int ct_event_import(struct ct_context *ctx, const struct ct_event_import_opts *o, struct ct_event_import_report *rep);

#endif
