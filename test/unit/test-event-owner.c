// SPDX-License-Identifier: GPL-2.0-only
/* the names of private tracefs instances: what they record of their owner,
 * and that nothing else parses as one of ours */
#include <errno.h>
#include "tap.h"
#include "events/event-owner.h"

int main(void)
{
	struct ct_event_owner o = { .role = "follow", .owner = { .pid = 4242, .start = 123456 }, .pidns = 4026531836ULL }, p;
	static const char *const foreign[] = {
		"cxltier", "cxltier-follow-4242", "cxltier-follow-4242-1", "cxltier-follow-4242-1-2-3",
		"cxltier-Follow-1-2-3", "cxltier--1-2-3", "cxltier-follow-0-2-3", "cxltier-follow-01-2-3",
		"cxltier-follow-1-x-3", "cxltier-follow-1-2-", "cxltier-follow-99999999999-2-3", "rasdaemon",
		"cxltier-follow-1-2-3 ", "cxltier-follow-1-99999999999999999999999-3",
	};
	char name[96];

	is_int(ct_event_owner_name(&o, name, sizeof(name)), 0, "a name");
	is_str(name, "cxltier-follow-4242-123456-4026531836", "role, pid, start time, pid namespace");
	is_int(ct_event_owner_parse(name, &p), 0, "parses back");
	ok(!strcmp(p.role, "follow") && p.owner.pid == 4242 && p.owner.start == 123456 && p.pidns == 4026531836ULL,
	   "the same owner");
	is_int(ct_event_owner_name(&o, name, 20), -ENAMETOOLONG, "too small a buffer");
	for (size_t i = 0; i < sizeof(foreign) / sizeof(foreign[0]); i++)
		is_int(ct_event_owner_parse(foreign[i], &p), -EINVAL, "not ours: '%s'", foreign[i]);
	return tap_done();
}
