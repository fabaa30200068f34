// SPDX-License-Identifier: GPL-2.0-only
/* the record of who owns the DAMON setup: written, read back, refused when cut */
#include "tap.h"
#include "mm/damon-owner.h"
#include "mm/damon.h"
#include <stdlib.h>

int main(void)
{
	struct ct_damon_record r = { .owner = { .pid = 321, .start = 98765 }, .target = 4242, .kdamond = 77, .stat_paused = true }, back;
	char text[256];

	ct_damon_record_format(&r, text, sizeof(text));
	is_int(ct_damon_record_parse(text, &back), 0, "a record reads back");
	ok(back.owner.pid == 321 && back.owner.start == 98765 && back.target == 4242 && back.kdamond == 77 && back.stat_paused,
	   "every field");
	is_int(ct_damon_record_parse("pid 5\nstart 6\ntarget 7\n", &back), 0, "a record written before the kdamond ran");
	ok(back.kdamond == -1 && !back.stat_paused, "no kdamond yet, DAMON_STAT untouched");
	ok(ct_damon_record_parse("pid 5\nstart 6\n", &back) < 0, "a record without its target is refused");
	ok(ct_damon_record_parse("", &back) < 0, "an empty record is refused");
	ok(ct_damon_record_parse("pid 0\nstart 6\ntarget 7\n", &back) < 0, "pid 0 is refused");

	/* two snapshots: a region cold in one and hot in the other is hot; the
	 * boundaries of both are kept; a gap in both stays out */
	struct ct_access_region s1[] = { { 0x3000, 0x5000, 0, 9 }, { 0x1000, 0x3000, 4, 2 }, { 0x8000, 0x9000, 0, 5 } };
	struct ct_access_region s2[] = { { 0x1000, 0x2000, 3, 1 }, { 0x2000, 0x4800, 0, 7 }, { 0x4800, 0x5000, 1, 0 } };
	struct ct_access_region *m;
	size_t nm;
	char got[256] = "";
	is_int(ct_access_regions_merge(s1, 3, s2, 3, &m, &nm), 0, "two snapshots merge");
	for (size_t i = 0; i < nm; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%llx-%llx:%u/%u ", (unsigned long long)m[i].start,
			 (unsigned long long)m[i].end, m[i].nr_accesses, m[i].age);
	is_str(got, "1000-2000:4/1 2000-3000:4/2 3000-4800:0/7 4800-5000:1/0 8000-9000:0/5 ",
	       "most accesses and the younger age per piece; a region only one saw is kept");
	free(m);
	is_int(ct_access_regions_merge(s1, 3, NULL, 0, &m, &nm), 0, "an empty snapshot");
	ok(nm == 3 && m[0].start == 0x1000 && m[2].end == 0x9000, "leaves the other as it was (sorted)");
	free(m);
	return tap_done();
}
