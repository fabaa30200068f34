// SPDX-License-Identifier: LGPL-2.1-or-later
/* event-filter.c - which records a reader wants: see event-filter.h */
#include <string.h>
#include "events/event-filter.h"

bool ct_event_filter_memdev(const struct ct_event_filter *f, const char *memdev)
{
	if (!f->nmemdevs)
		return true;
	for (size_t i = 0; i < f->nmemdevs; i++)
		if (!strcmp(f->memdevs[i], memdev))
			return true;
	return false;
}

bool ct_event_filter_match(const struct ct_event_filter *f, const struct ct_event *e)
{
	int sev = ct_event_severity(e);

	if (!ct_event_filter_memdev(f, e->memdev))
		return false;
	if (f->kinds && !(f->kinds & (1u << e->kind)))
		return false;
	if (f->severities && (sev < 0 || !(f->severities & (1u << sev))))
		return false;
	if (f->since_ns && ct_event_time(e) < f->since_ns)
		return false;
	if (f->until_ns && ct_event_time(e) >= f->until_ns)
		return false;
	return true;
}
