/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* units.h - sizes as people write and read them (durations: core/time-parse.h). Pure. */
#ifndef CXLTIER_UNITS_H
#define CXLTIER_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* as util-linux's strtosize: "2G" and "2GiB" are 2 x 1024^3, "2GB" 2 x 1000^3,
 * "1.5G" a fraction of it, "1073741824" and "0x40000000" bytes; K, M, G, T,
 * P, E in either case: 0, -EINVAL (not a size) or -ERANGE (past 2^64 - 1) */
int ct_parse_size(const char *s, uint64_t *out);
/* bytes as people read them, as util-linux prints them: "512", "4K",
 * "1.5G" (one decimal, rounded, dropped when 0); buf returned */
char *ct_size_text(uint64_t bytes, char *buf, size_t len);

#endif
