/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * events-conf.h - the [events] section of /etc/cxltier.conf:
 *
 *   [events]
 *   store = /var/lib/cxltier/events.db   the event store (event-store.h)
 *   store-max-age = 0                    records that arrived longer ago are
 *                                        pruned (90d, 52w: core/time-parse.h's
 *                                        spans, at most 100 years; 0: kept)
 *   store-max-size = 256M                the store's pages in use at most; what
 *                                        arrived first goes first (0: no bound)
 *   retire-pages = no                    the follower soft-offlines a page with
 *                                        too many corrected errors (page-retire-conf.h)
 *   retire-threshold = 50                ... this many on one page
 *   retire-window = 24h                  ... arriving within this time
 *   retire-limit = 16                    pages (tries) a device an hour (0: no limit)
 *
 * A [device ...] section (policy.h) may set the retire-* keys for the
 * devices it matches (page-retire-conf.h merges the two).
 *
 * Other sections belong to other commands and are skipped.
 */
#ifndef CXLTIER_EVENTS_CONF_H
#define CXLTIER_EVENTS_CONF_H

#include <stdbool.h>
#include <stdint.h>
#include "core/error.h"
#include "config/page-retire-conf.h"

#define CT_EVENTS_STORE_MAX_SIZE (256ULL << 20)

struct ct_events_conf {
	char store[4096];		/* "": the default path */
	uint64_t store_max_age_s;	/* 0: none */
	uint64_t store_max_bytes;	/* 0: none */
	struct ct_page_retire_conf retire;
};

/* the defaults, then the section's keys; -EINVAL names the line */
int ct_events_conf_parse(const char *text, const char *name, struct ct_events_conf *c, struct ct_error *err);
/* the defaults, then the file's section when it exists (must_exist: a
 * missing file is an error too) */
int ct_events_conf_load(const char *path, bool must_exist, struct ct_events_conf *c, struct ct_error *err);

#endif
