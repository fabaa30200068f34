// SPDX-License-Identifier: GPL-2.0-only
#include "tap.h"
#include "../../cxltier/output.h"

int main(void)
{
	char b[32];

	is_str(out_human_size(0, b, sizeof(b)), "0", "zero");
	is_str(out_human_size(512, b, sizeof(b)), "512", "bytes below 1K");
	is_str(out_human_size(4096, b, sizeof(b)), "4K", "4K");
	is_str(out_human_size(1ULL << 30, b, sizeof(b)), "1G", "1G");
	is_str(out_human_size(3ULL << 29, b, sizeof(b)), "1.5G", "1.5G");
	is_str(out_human_size(128ULL << 20, b, sizeof(b)), "128M", "128M");
	is_str(out_human_size((1ULL << 30) - 1, b, sizeof(b)), "1024M", "rounding up to the next whole");
	is_str(out_human_size(~0ULL, b, sizeof(b)), "16E", "the largest value");
	return tap_done();
}
