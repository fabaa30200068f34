/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* poll-wait.h - waiting for the kernel to finish something it does on its
 * own (a driver's probe, a device coming): look, nap, look again. The first
 * nap is 1 ms and each one after twice as long, up to a cap, so that what
 * is there at once or soon after costs no more than that, and the time
 * limit bounds the whole wait. A hot-add's every millisecond is spent here
 * (test/bench/hotplug.sh). */
#ifndef CXLTIER_POLL_WAIT_H
#define CXLTIER_POLL_WAIT_H

#include <stdbool.h>
#include <time.h>

struct ct_poll_wait {
	struct timespec start;
	long nap_ns, cap_ns;
	unsigned limit_ms;
};

/* a wait of at most limit_ms, its naps growing to cap_ms */
void ct_poll_wait_begin(struct ct_poll_wait *w, unsigned limit_ms, unsigned cap_ms);
/* the next nap: true after it, false (and no nap) once limit_ms has passed
 * since ct_poll_wait_begin; a signal ends a nap early */
bool ct_poll_wait_next(struct ct_poll_wait *w);

#endif
