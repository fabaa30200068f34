// SPDX-License-Identifier: LGPL-2.1-or-later
/* poll-wait.c - look, nap, look again: naps from 1 ms, doubling to a cap,
 * within a time limit (poll-wait.h) */
#include "core/poll-wait.h"

void ct_poll_wait_begin(struct ct_poll_wait *w, unsigned limit_ms, unsigned cap_ms)
{
	clock_gettime(CLOCK_MONOTONIC, &w->start);
	w->nap_ns = 1000 * 1000;
	w->cap_ns = (long)(cap_ms ? cap_ms : 1) * 1000 * 1000;
	w->limit_ms = limit_ms;
}

bool ct_poll_wait_next(struct ct_poll_wait *w)
{
	struct timespec now, nap;
	long long waited_ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	waited_ms = (long long)(now.tv_sec - w->start.tv_sec) * 1000 + (now.tv_nsec - w->start.tv_nsec) / 1000000;
	if (waited_ms >= w->limit_ms)
		return false;
	nap.tv_sec = w->nap_ns / 1000000000L;
	nap.tv_nsec = w->nap_ns % 1000000000L;
	nanosleep(&nap, NULL);
	if (w->nap_ns < w->cap_ns)
		w->nap_ns = w->nap_ns * 2 < w->cap_ns ? w->nap_ns * 2 : w->cap_ns;
	return true;
}
