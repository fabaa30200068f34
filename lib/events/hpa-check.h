/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * hpa-check.h - does the host address a record gave still map that card's
 * DPA? The kernel computed a media record's HPA when it emitted it; a
 * record weighed later (drained at the follower's start, held while the
 * store failed) may describe memory that is no longer that card's: after
 * `offline --remove`, another card as the same memdev, a region made again
 * in the same window. Read now from the live system: the memdev is the
 * same card (its serial and PCI address), a region holds it at a position
 * whose DPA range has the record's DPA, and that DPA's HPA there is the
 * record's (the region's ways and granularity, modulo arithmetic; a root
 * decoder that interleaves host bridges, whose arithmetic sysfs does not
 * say, by the region's range).
 */
#ifndef CXLTIER_HPA_CHECK_H
#define CXLTIER_HPA_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include "core/context.h"
#include "events/event.h"

/* 0 with *maps, and when not why[len] says what is so now; -errno with a
 * message when the topology cannot be read */
int ct_hpa_check(struct ct_context *ctx, const struct ct_event *e, bool *maps, char *why, size_t len);

#endif
