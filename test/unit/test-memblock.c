// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "mm/memblock.h"
#include "tree.h"

/* a block size a fuzzed tree gave (2 KiB), and long sparse ranges: each
 * made fuzz-sysfs spend 22 s of CPU on one input, probing a million
 * blocks that did not exist (found by test/fuzz/fuzz-sysfs) */
static void sysfs_geometry(void)
{
	char root[512];
	struct ct_error err = { 0 };
	struct ct_sysfs s;
	struct ct_block_walk w;
	struct ct_blocks counts;
	uint64_t bs = 0, id, ids[8];
	size_t n = 0;

	if (!mkdtemp(tap_tmp_template(root, sizeof(root), "cxltier-test-memblock")) || ct_sysfs_open(&s, root, &err)) {
		ok(0, "a tree for the block geometry tests");
		return;
	}
	tree_put(root, "/sys/devices/system/memory/block_size_bytes", "800\n");
	is_int(ct_block_size(&s, &bs), -EINVAL, "a 2 KiB block size is refused");
	ok(strstr(err.msg, "smaller than any kernel's memory section") != NULL, "saying why: %s", err.msg);
	ok(bs == 0, "and not handed back (a context caches what it gets)");
	is_int(ct_block_size(&s, &bs), -EINVAL, "refused again on a second reading");
	tree_put(root, "/sys/devices/system/memory/block_size_bytes", "c000000\n");
	is_int(ct_block_size(&s, &bs), -EINVAL, "192 MiB, no power of two, is refused");
	ok(strstr(err.msg, "not a power of two") != NULL && bs == 0, "saying why: %s", err.msg);
	tree_put(root, "/sys/devices/system/memory/block_size_bytes", "1000000\n");
	is_int(ct_block_size(&s, &bs), 0, "16 MiB (powerpc's memory section) is a block size");
	ok(bs == 16ULL << 20, "read as 16 MiB");

	tree_put(root, "/sys/devices/system/memory/memory5/state", "online\n");
	tree_put(root, "/sys/devices/system/memory/memory5/valid_zones", "Movable\n");
	tree_put(root, "/sys/devices/system/memory/memory700000/state", "offline\n");
	tree_put(root, "/sys/devices/system/memory/memory1048576/state", "offline\n");	/* past the range */
	tree_put(root, "/sys/devices/system/memory/memoryx/state", "offline\n");
	tree_put(root, "/sys/devices/system/memory/memory0700000/state", "offline\n");	/* the same id again */

	is_int(ct_block_walk_begin(&s, 3, 4, &w), 0, "a short range: walked by probing");
	while (n < 8 && ct_block_walk_next(&w, &id))
		ids[n++] = id;
	ct_block_walk_end(&w);
	ok(n == 4 && ids[0] == 3 && ids[3] == 6, "every id of the range (%zu)", n);

	n = 0;
	is_int(ct_block_walk_begin(&s, 0, 1u << 20, &w), 0, "a range of 2^20 blocks: walked by the listing");
	while (n < 8 && ct_block_walk_next(&w, &id))
		ids[n++] = id;
	ct_block_walk_end(&w);
	ok(n == 2 && ids[0] == 5 && ids[1] == 700000, "only the blocks that exist in it, in order, once each (%zu)", n);

	is_int(ct_blocks_count(&s, 0, (1ULL << 20) * bs, bs, &counts), 0, "counting 16 TiB of blocks, two of them there");
	ok(counts.total == 2 && counts.online == 1 && counts.movable == 1 && counts.offline == 1,
	   "two blocks: one online movable, one offline");

	ct_sysfs_close(&s);
	tap_rm_tree(root);
}

int main(void)
{
	enum ct_zone z[4];
	uint64_t first;
	unsigned count;

	is_int(ct_zones_parse("Normal Movable\n", z, 4), 2, "offline block: two candidate zones");
	ok(z[0] == CT_ZONE_NORMAL && z[1] == CT_ZONE_MOVABLE, "default zone first");
	is_int(ct_zones_parse("Movable", z, 4), 1, "online movable block: one zone");
	ok(z[0] == CT_ZONE_MOVABLE, "Movable");
	is_int(ct_zones_parse("none\n", z, 4), 1, "block spanning zones reads none");
	ok(z[0] == CT_ZONE_NONE, "none");
	is_int(ct_zones_parse("DMA32 Normal", z, 4), 2, "DMA32 then Normal");
	ok(z[0] == CT_ZONE_DMA32, "DMA32 recognised");
	is_int(ct_zones_parse("Weird", z, 4), 1, "an unknown zone is kept");
	ok(z[0] == CT_ZONE_OTHER, "as other");
	is_int(ct_zones_parse("", z, 4), 0, "empty");

	ok(ct_block_state_parse("online") == CT_BLOCK_ONLINE, "online");
	ok(ct_block_state_parse("offline") == CT_BLOCK_OFFLINE, "offline");
	ok(ct_block_state_parse("going-offline") == CT_BLOCK_GOING_OFFLINE, "going-offline");
	ok(ct_block_state_parse("bogus") == CT_BLOCK_UNKNOWN, "unknown state");

	/* the lab's region: 1 GiB at 0x110000000, 128 MiB blocks: memory34..41 */
	ct_block_range(0x110000000ULL, 1ULL << 30, 128ULL << 20, &first, &count);
	is_int(first, 34, "first block of the lab region");
	is_int(count, 8, "eight blocks");
	/* an unaligned head and tail are not hot-plugged */
	ct_block_range(0x110000000ULL + 4096, 1ULL << 30, 128ULL << 20, &first, &count);
	is_int(first, 35, "unaligned start skips the partial block");
	is_int(count, 7, "and the partial tail");
	ct_block_range(0, 64ULL << 20, 128ULL << 20, &first, &count);
	is_int(count, 0, "a range smaller than a block holds none");

	/* hostile geometry (found by test/fuzz/fuzz-sysfs) */
	ct_block_range(UINT64_MAX, 1ULL << 30, 128ULL << 20, &first, &count);
	is_int(count, 0, "a resource of -1 holds no block (it wrapped to memory0-6)");
	ct_block_range(0, (1ULL << 59) + (5ULL << 27), 128ULL << 20, &first, &count);
	ok(count == UINT_MAX, "2^32 + 5 blocks do not wrap to 5");
	{
		struct ct_error err = { 0 };
		struct ct_sysfs s = { .rootfd = -1, .root = "", .err = &err };
		is_int(ct_block_range_checked(&s, "dax0.0", 0x110000000ULL, 1ULL << 30, 128ULL << 20, &first, &count), 0,
		       "a real range passes the check");
		is_int(count, 8, "with its eight blocks");
		is_int(ct_block_range_checked(&s, "dax0.0", 0x110000000ULL, 1ULL << 30, 0x7e, &first, &count), -EINVAL,
		       "8.5 million blocks of 126 bytes are refused (the walk took hours)");
		ok(strstr(err.msg, "dax0.0") && strstr(err.msg, "block_size_bytes"), "naming the device and what to check");
		is_int(ct_block_range_checked(&s, NULL, 0, CT_MAX_RANGE_BLOCKS * (128ULL << 20), 128ULL << 20, &first, &count), 0,
		       "128 TiB of 128 MiB blocks still pass");
	}
	sysfs_geometry();
	return tap_done();
}
