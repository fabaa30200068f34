// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <limits.h>
#include <string.h>
#include "tap.h"
#include "memblock.h"

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
	return tap_done();
}
