/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* units.h - sizes and durations as people write them. Pure. */
#ifndef CXLTIER_UNITS_H
#define CXLTIER_UNITS_H

#include <stdint.h>

/* "2G", "512M", "64KiB", "1073741824", "0x40000000": 0, or -1 */
int ct_parse_size(const char *s, uint64_t *out);
/* "90s", "30m", "12h", "7d", "2w", "3600" (seconds): 0, or -1 */
int ct_parse_duration(const char *s, uint64_t *seconds);

#endif
