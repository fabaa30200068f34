// SPDX-License-Identifier: GPL-2.0-only
/* Which records a reader wants (lib/events/event-filter.c): memdevs,
 * kinds and severities, each empty part taking every record; the time
 * range, the device's timestamp first, else the kernel's emit time, from
 * since (taken) to until (not). */
#include <string.h>
#include "tap.h"
#include "events/event-filter.h"

#define S 1000000000ULL

static struct ct_event e;

/* a record of memdev, kind and log (severity, 0xff: none), its device
 * time (0: none) and its emit time */
static const struct ct_event *rec(const char *memdev, enum ct_event_kind kind, uint8_t log, uint64_t ts,
				  uint64_t trace_time)
{
	memset(&e, 0, sizeof(e));
	snprintf(e.memdev, sizeof(e.memdev), "%s", memdev);
	e.kind = kind;
	e.log = log;
	e.timestamp = ts;
	e.trace_time = trace_time;
	return &e;
}

int main(void)
{
	static const char *const mems[] = { "mem1", "mem3" };
	struct ct_event_filter all = { 0 }, f = { 0 };

	ok(ct_event_filter_match(&all, rec("mem0", CT_EV_GENERIC, 0xff, 0, 0)), "an empty filter takes every record");
	ok(ct_event_filter_memdev(&all, "mem9"), "... of every memdev");

	f.memdevs = mems;
	f.nmemdevs = 2;
	ok(ct_event_filter_match(&f, rec("mem3", CT_EV_DRAM, 1, 5 * S, 0)), "a memdev named is taken");
	ok(!ct_event_filter_match(&f, rec("mem2", CT_EV_DRAM, 1, 5 * S, 0)), "one not named is not");
	ok(!ct_event_filter_memdev(&f, "mem13") && ct_event_filter_memdev(&f, "mem1"), "names match whole");

	f = (struct ct_event_filter){ .kinds = 1u << CT_EV_DRAM | 1u << CT_EV_POISON };
	ok(ct_event_filter_match(&f, rec("mem0", CT_EV_DRAM, 0, 0, 0)), "a kind asked for is taken");
	ok(!ct_event_filter_match(&f, rec("mem0", CT_EV_GENERAL_MEDIA, 0, 0, 0)), "another is not");

	f = (struct ct_event_filter){ .severities = 1u << 2 | 1u << 3 };
	ok(ct_event_filter_match(&f, rec("mem0", CT_EV_DRAM, 2, 0, 0)), "a severity asked for is taken");
	ok(!ct_event_filter_match(&f, rec("mem0", CT_EV_DRAM, 1, 0, 0)), "another is not");
	ok(!ct_event_filter_match(&f, rec("mem0", CT_EV_GENERIC, 0xff, 0, 0)),
	   "a record whose severity nothing says is not, when severities are asked for");

	f = (struct ct_event_filter){ .since_ns = 10 * S, .until_ns = 20 * S };
	ok(ct_event_filter_match(&f, rec("mem0", CT_EV_DRAM, 0, 10 * S, 0)), "since is taken");
	ok(!ct_event_filter_match(&f, rec("mem0", CT_EV_DRAM, 0, 20 * S, 0)), "until is not");
	ok(!ct_event_filter_match(&f, rec("mem0", CT_EV_DRAM, 0, 10 * S - 1, 0)), "before since is not");
	ok(!ct_event_filter_match(&f, rec("mem0", CT_EV_DRAM, 0, 25 * S, 15 * S)),
	   "the device's time decides, not the emit time");
	ok(ct_event_filter_match(&f, rec("mem0", CT_EV_POISON, 0, 0, 15 * S)),
	   "without a device time, the emit time decides");
	f.until_ns = 0;
	ok(ct_event_filter_match(&f, rec("mem0", CT_EV_DRAM, 0, 99 * S, 0)), "no until: open");
	return tap_done();
}
