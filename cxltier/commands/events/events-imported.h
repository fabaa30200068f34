/* SPDX-License-Identifier: GPL-2.0-only */
/* events-imported.h - `events --import-rasdaemon`: what rasdaemon's history
 * gave the store, as JSON and as a table */
#ifndef CXLTIER_EVENTS_IMPORTED_H
#define CXLTIER_EVENTS_IMPORTED_H

#include "cli/cli.h"
#include "jobs/event-import.h"

/* {"import": {...}} printed, as JSON or a table of rasdaemon's tables; an
 * exit code (0, or a usage error said: an unknown column) */
int events_import_print(struct cmd_env *env, const struct ct_event_import_report *rep);

#endif
