// SPDX-License-Identifier: GPL-2.0-only
/* the record of who owns the DAMON setup: written, read back, refused when cut */
#include "tap.h"
#include "damon-owner.h"

int main(void)
{
	struct ct_damon_record r = { .pid = 321, .start = 98765, .target = 4242, .kdamond = 77, .stat_paused = true }, back;
	char text[256];

	ct_damon_record_format(&r, text, sizeof(text));
	is_int(ct_damon_record_parse(text, &back), 0, "a record reads back");
	ok(back.pid == 321 && back.start == 98765 && back.target == 4242 && back.kdamond == 77 && back.stat_paused,
	   "every field");
	is_int(ct_damon_record_parse("pid 5\nstart 6\ntarget 7\n", &back), 0, "a record written before the kdamond ran");
	ok(back.kdamond == -1 && !back.stat_paused, "no kdamond yet, DAMON_STAT untouched");
	ok(ct_damon_record_parse("pid 5\nstart 6\n", &back) < 0, "a record without its target is refused");
	ok(ct_damon_record_parse("", &back) < 0, "an empty record is refused");
	ok(ct_damon_record_parse("pid 0\nstart 6\ntarget 7\n", &back) < 0, "pid 0 is refused");
	return tap_done();
}
