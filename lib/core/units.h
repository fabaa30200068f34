/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* units.h - sizes as people write them (durations: core/time-parse.h). Pure. */
#ifndef CXLTIER_UNITS_H
#define CXLTIER_UNITS_H

#include <stdint.h>

/* as util-linux's strtosize: "2G" and "2GiB" are 2 x 1024^3, "2GB" 2 x 1000^3,
 * "1.5G" a fraction of it, "1073741824" and "0x40000000" bytes; K, M, G, T,
 * P, E in either case: 0, -EINVAL (not a size) or -ERANGE (past 2^64 - 1) */
int ct_parse_size(const char *s, uint64_t *out);

#endif
