// SPDX-License-Identifier: GPL-2.0-only
#include "tap.h"
#include "core/nodeset.h"

int main(void)
{
	struct ct_nodeset s;
	int n, sum = 0;

	is_int(ct_nodeset_parse(&s, ""), 0, "empty list parses");
	is_int(ct_nodeset_count(&s), 0, "empty list is empty");
	is_int(ct_nodeset_parse(&s, "0-3,5,7-8\n"), 0, "ranges and singles");
	is_int(ct_nodeset_count(&s), 7, "seven members");
	ok(ct_nodeset_has(&s, 5) && !ct_nodeset_has(&s, 4) && ct_nodeset_has(&s, 8), "membership");
	ct_nodeset_foreach(&s, n)
		sum += n;
	is_int(sum, 0 + 1 + 2 + 3 + 5 + 7 + 8, "iteration visits every member once");
	ok(ct_nodeset_parse(&s, "3-1") < 0, "reversed range is rejected");
	ok(ct_nodeset_parse(&s, "1,,2") < 0, "empty element is rejected");
	ok(ct_nodeset_parse(&s, "a") < 0, "letters are rejected");
	ok(ct_nodeset_parse(&s, "5000") < 0, "node beyond the limit is rejected");
	is_int(ct_nodeset_parse(&s, "1023"), 0, "the last node fits");
	is_int(ct_nodeset_parse(&s, "9,19-29"), 0, "the digit 9 is a digit");
	ok(ct_nodeset_has(&s, 9) && ct_nodeset_has(&s, 29) && ct_nodeset_count(&s) == 12, "9 and 19 to 29 are in it");
	ok(ct_nodeset_parse(&s, "1:") < 0, "a colon (the character after 9) is rejected");
	return tap_done();
}
