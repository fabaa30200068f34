// SPDX-License-Identifier: GPL-2.0-only
/* poison-table.c - the columns of `cxltier poison` (poison-table.h); the
 * rows are render/poison-json.c's */
#include "poison-table.h"

static const char *const levels[] = { "memdevs", "poison", NULL };
static const struct out_column columns[] = {
	{ "NAME", "name", OUT_STR, 0.1, 0, "memdev; under it each poisoned DPA range (first-last)", NULL },
	{ "LENGTH", "length", OUT_SIZE, 0.1, 0, "bytes poisoned (a memdev: all its ranges)", NULL },
	{ "HPA", "hpa", OUT_HEX, 0.1, 0, "host physical address of the range's first byte (when a region maps it)", NULL },
	{ "HPA_ALIAS", "hpa_alias0", OUT_HEX, 0.1, 0, "its address in an extended linear cache's alias range", NULL },
	{ "REGION", "region", OUT_STR, 0.1, 0, "region mapping the range", NULL },
	{ "OFFSET", "region_offset", OUT_HEX, 0.1, 0, "that address's offset in its region", NULL },
	{ "SOURCE", "source", OUT_STR, 0.1, 0, "unknown, external, internal, injected, vendor", NULL },
	{ "FLAGS", "flags", OUT_STR, 0.1, OUT_TRUNC, "more, overflow, scanning (of the device's response)", NULL },
	{ "OVERFLOW", "overflow_time", OUT_STR, 0.1, 0, "when the device's poison list overflowed (UTC)", NULL },
	{ "DPA", "dpa", OUT_HEX, 0.1, 0, "device physical address", NULL },
	{ "SERIAL", "serial", OUT_HEX, 0.1, 0, "memdev serial number", NULL },
	{ "RANGES", "ranges", OUT_NUM, 0.1, 0, "memdev: poisoned ranges", NULL },
	{ "NOTE", "note", OUT_STR, 0.15, OUT_TRUNC, "memdev: clean, what the device said, or why nothing was read", NULL },
};
const struct out_table poison_table = {
	levels, NULL, columns, sizeof(columns) / sizeof(columns[0]), "NAME,LENGTH,HPA,REGION,SOURCE,FLAGS,NOTE",
};
