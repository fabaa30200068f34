// SPDX-License-Identifier: GPL-2.0-only
/* list-table.c - the columns of `cxltier list` (list-table.h) */
#include "list-table.h"

static const char *const levels[] = { "rows", "children", NULL };
static const struct out_column columns[] = {
	{ "NAME", "name", OUT_STR, 0.1, 0, "region, memdev or dax device", NULL },
	{ "TYPE", "type", OUT_STR, 0.1, 0, "region, memdev or dax", NULL },
	{ "SIZE", "size", OUT_SIZE, 0.1, 0, "size (a region's memdev: its share, the decoder's DPA size)", NULL },
	{ "PMEM", "pmem_size", OUT_SIZE, 0.1, 0, "memdev persistent capacity", NULL },
	{ "MODE", "mode", OUT_STR, 0.1, 0, "region mode (ram, pmem) or dax mode (system-ram, devdax)", NULL },
	{ "SERIAL", "serial", OUT_HEX, 0.1, 0, "memdev serial number", NULL },
	{ "HOST", "host", OUT_STR, 0.1, 0, "memdev PCI device", NULL },
	{ "POS", "position", OUT_NUM, 0.1, 0, "memdev's position in the region interleave", NULL },
	{ "DECODER", "decoder", OUT_STR, 0.1, 0, "memdev's endpoint decoder for the region", NULL },
	{ "FIRMWARE", "firmware_version", OUT_STR, 0.1, OUT_TRUNC, "memdev firmware version", NULL },
	{ "ENDPOINT", "endpoint", OUT_STR, 0.1, 0, "memdev endpoint port", NULL },
	{ "DEVNODE", "numa_node", OUT_NUM, 0.1, 0, "NUMA node of the memdev's PCI device (CPU affinity)", NULL },
	{ "RESOURCE", "resource", OUT_HEX, 0.1, 0, "host physical address", NULL },
	{ "WAYS", "interleave_ways", OUT_NUM, 0.1, 0, "region interleave ways", NULL },
	{ "GRANULARITY", "interleave_granularity", OUT_NUM, 0.1, 0, "region interleave granularity", NULL },
	{ "ROOT", "root_decoder", OUT_STR, 0.1, 0, "region root decoder", NULL },
	{ "STATE", "state", OUT_STR, 0.1, 0, "memdev enabled/disabled; region active/committed/disabled", NULL },
	{ "NODE", "target_node", OUT_NUM, 0.1, 0, "NUMA node the dax memory becomes", NULL },
	{ "TIER", "memory_tier", OUT_NUM, 0.1, 0, "memory tier of that node", NULL },
	{ "BLOCKS", "memory_blocks.total", OUT_NUM, 0.1, 0, "memory blocks of the dax device", NULL },
	{ "ONLINE", "memory_blocks.online", OUT_NUM, 0.1, 0, "blocks online", NULL },
	{ "MOVABLE", "memory_blocks.movable", OUT_NUM, 0.1, 0, "blocks online in ZONE_MOVABLE", NULL },
	{ "NORMAL", "memory_blocks.normal", OUT_NUM, 0.1, 0, "blocks online in ZONE_NORMAL", NULL },
};
const struct out_table list_table = {
	levels, NULL, columns, sizeof(columns) / sizeof(columns[0]),
	"NAME,TYPE,SIZE,MODE,STATE,HOST,NODE,ONLINE,MOVABLE",
};
