/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * metrics-state.h - what `cxltier metrics` counts across its runs: CXL
 * event records by memdev, kind and severity, the records the trace buffer
 * lost, and each memdev's last poison list, since counting started in this
 * boot (the kernel's boot_id says which boot). A text file, one record a
 * line; parsing and formatting only (the counting: metrics-events.h).
 */
#ifndef CXLTIER_METRICS_STATE_H
#define CXLTIER_METRICS_STATE_H

#include <stddef.h>
#include <stdint.h>
#include "error.h"

#define CT_METRICS_TOKEN 40	/* a memdev, kind or severity name */

struct ct_metrics_count {
	char memdev[CT_METRICS_TOKEN];	/* "" when the record names none */
	char kind[CT_METRICS_TOKEN];
	char severity[CT_METRICS_TOKEN];	/* "" when the record has none */
	uint64_t n;
};

/* a memdev's last poison list: the List records read in one run */
struct ct_metrics_poison {
	char memdev[CT_METRICS_TOKEN];
	uint64_t at;			/* when (s since 1970): its latest record */
	uint64_t records, bytes;
};

struct ct_metrics_state {
	char boot_id[CT_METRICS_TOKEN];
	uint64_t since;			/* s since 1970: counting started */
	uint64_t lost;			/* records the trace buffer dropped */
	struct ct_metrics_count *counts;
	size_t ncounts;
	struct ct_metrics_poison *poison;
	size_t npoison;
};

/* 0, or -EBADMSG naming the line (the state is then empty) */
int ct_metrics_state_parse(const char *text, struct ct_metrics_state *st, struct ct_error *err);
/* the text of the state (malloc'd), NULL when out of memory */
char *ct_metrics_state_format(const struct ct_metrics_state *st);
/* add n records of (memdev, kind, severity); names that are not tokens
 * ([A-Za-z0-9_.:-], shorter than CT_METRICS_TOKEN) count as "" */
int ct_metrics_state_count(struct ct_metrics_state *st, const char *memdev, const char *kind,
			   const char *severity, uint64_t n);
/* the memdev's poison list as read now (replaces the last one) */
int ct_metrics_state_poison(struct ct_metrics_state *st, const char *memdev, uint64_t at,
			    uint64_t records, uint64_t bytes);
void ct_metrics_state_reset(struct ct_metrics_state *st);	/* empty it, keep nothing */
void ct_metrics_state_free(struct ct_metrics_state *st);

#endif
