/* SPDX-License-Identifier: GPL-2.0-only */
/* events-journal.h - CXL event records sent to the systemd journal, one
 * entry each: a priority from the record's severity, a MESSAGE_ID per kind,
 * and fields of their own (CXL_MEMDEV=, CXL_SERIAL=, CXL_DPA=, CXL_KIND=...),
 * so that `journalctl -p warning CXL_MEMDEV=mem0` finds them */
#ifndef CXLTIER_EVENTS_JOURNAL_H
#define CXLTIER_EVENTS_JOURNAL_H

#include <stdbool.h>
#include <json-c/json.h>
#include "events/event.h"

/* stdout and stderr are both the journal's stream (systemd's JOURNAL_STREAM
 * names it: a service with StandardOutput=journal) */
bool events_journal_stream(void);
/* one record (e, o its JSON, detail what happened in words: the DETAIL
 * column) as one journal entry: 0, or -errno */
int events_journal_send(const struct ct_event *e, json_object *o, const char *detail);

#endif
