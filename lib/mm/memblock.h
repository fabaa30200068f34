/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* memblock.h - memory blocks (/sys/devices/system/memory/memoryN): state,
 * zones, and which blocks back a physical address range */
#ifndef CXLTIER_MEMBLOCK_H
#define CXLTIER_MEMBLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include "core/sysfs.h"

struct ct_context;

/* the states and zones of the blocks backing a range (ct_blocks_count) */
struct ct_blocks {
	uint64_t first;		/* first block id (memoryN) */
	unsigned total, online, offline, movable, normal, other_zone;
};

/* where the kernel shows its memory blocks */
#define CT_MEMORY_DIR "/sys/devices/system/memory"

enum ct_block_state { CT_BLOCK_OFFLINE, CT_BLOCK_ONLINE, CT_BLOCK_GOING_OFFLINE, CT_BLOCK_UNKNOWN };
enum ct_zone { CT_ZONE_NONE, CT_ZONE_MOVABLE, CT_ZONE_NORMAL, CT_ZONE_DMA32, CT_ZONE_DMA, CT_ZONE_DEVICE, CT_ZONE_OTHER };

struct ct_block {
	uint64_t id;
	enum ct_block_state state;
	/* online: the zone it is in; offline: the zones it may go to, default first */
	enum ct_zone zones[4];
	unsigned nzones;
};

enum ct_block_state ct_block_state_parse(const char *s);
const char *ct_block_state_name(enum ct_block_state st);
/* valid_zones: "Movable", "Normal Movable", "none" */
unsigned ct_zones_parse(const char *s, enum ct_zone *zones, unsigned max);
const char *ct_zone_name(enum ct_zone z);

int ct_block_size(struct ct_sysfs *s, uint64_t *bytes);
/* the memory block size, read once per context (kept in ctx->block_size) */
int ct_block_size_cached(struct ct_context *ctx, uint64_t *bytes);
/* state and zones */
int ct_block_read(struct ct_sysfs *s, uint64_t id, struct ct_block *b);
/* state only (zones none); then, when needed, the zones of b->id (none
 * when valid_zones cannot be read) */
int ct_block_read_state(struct ct_sysfs *s, uint64_t id, struct ct_block *b);
void ct_block_read_zones(struct ct_sysfs *s, struct ct_block *b);
/* write STATE ("online_movable", "online_kernel", "offline") to block ID's
 * state file: 0 or -errno (the kernel's answer, EBUSY for pages that could
 * not be moved) with the error set; the one writer of block states */
int ct_block_write_state(struct ct_sysfs *s, uint64_t id, const char *state);
/* does block ID exist (its memory not removed)? */
bool ct_block_exists(struct ct_sysfs *s, uint64_t id);
/* the blocks wholly inside [start, start+size), as kmem hot-plugs them */
void ct_block_range(uint64_t start, uint64_t size, uint64_t block_size,
		    uint64_t *first, unsigned *count);
/* The ids of blocks first .. first + count - 1 to read: every one when the
 * range is short (CT_PROBE_BLOCKS or fewer); for a longer one only those the
 * kernel lists in /sys/devices/system/memory, so that a long, sparse range
 * (a bogus size, or a device kmem added only in part) costs one directory
 * read instead of a failed open per block. */
#define CT_PROBE_BLOCKS 4096u
struct ct_block_walk {
	uint64_t first, next;
	unsigned count;
	uint64_t *ids;		/* the listed ones, sorted (a long range) */
	size_t n, at;
};
int ct_block_walk_begin(struct ct_sysfs *s, uint64_t first, unsigned count, struct ct_block_walk *w);
bool ct_block_walk_next(struct ct_block_walk *w, uint64_t *id);
void ct_block_walk_end(struct ct_block_walk *w);
/* count states and zones of the blocks backing a range */
int ct_blocks_count(struct ct_sysfs *s, uint64_t start, uint64_t size,
		    uint64_t block_size, struct ct_blocks *out);

/* 2^20 blocks: 128 TiB of 128 MiB blocks. A range of more comes from a bogus
 * size or block size (ct_block_range neither wraps past 2^64 nor past
 * UINT_MAX blocks), and walking it block by block would take hours. */
#define CT_MAX_RANGE_BLOCKS (1u << 20)
/* ct_block_range, or -EINVAL with a message naming owner (may be NULL) when
 * the range spans more than CT_MAX_RANGE_BLOCKS */
int ct_block_range_checked(struct ct_sysfs *s, const char *owner, uint64_t start, uint64_t size,
			   uint64_t block_size, uint64_t *first, unsigned *count);

#endif
