/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * hotplug-service.h - the job of `cxltier hotplug` (cxltier-hotplug.service):
 * the CXL memdevs and dax devices udev's rule tags (change/hotplug-watch.h)
 * taken as they come, those tagged before first, each batch of them given
 * to one run of `cxltier online --policy` (jobs/policy-online.h): one run
 * at a time, each taking every device that came while the one before it
 * ran (at most 64). A dax device whose every block is online movable by
 * the time its turn comes gets no run. Events lost (udev's socket overran):
 * every tagged device looked at again. systemd is told when the devices
 * tagged before the start are done (READY=1), each run's status, and the
 * stop.
 *
 * Each run is a process of its own (core/child.h), cxltier started again,
 * not ct_policy_online() called in this one, for what a resident process
 * cannot give a run by itself:
 * - a run killed at one of its kernel writes (SIGKILL, the OOM killer, a
 *   crash point of the test build: the crash walks of test/vm kill runs
 *   there) leaves the watch listening, and the next run finishes or undoes
 *   what it left (jobs/job-change.h); in this process the watch would die with it;
 * - a state write the kernel blocks in (a block whose pages will not move,
 *   the hotplug lock held by another writer) holds that run alone, not the
 *   reading of udev's socket, which would overrun meanwhile;
 * - a run's signal handlers and its timer (SIGALRM) are the process's,
 *   while the watch reads the same signals from a signalfd: a run stopped
 *   at a step it may end at, and the watch stopping once it has ended, ask
 *   for different handling of one signal;
 * - what libcxl, libdaxctl and libkmod keep (their contexts, the topology
 *   they cached, what a leak of theirs holds) goes with the run's process:
 *   a watch up for months does not grow.
 * The service's sandbox is set up once, at its start, and the runs inherit
 * it: a process per run costs a fork and an exec, not a unit.
 */
#ifndef CXLTIER_HOTPLUG_SERVICE_H
#define CXLTIER_HOTPLUG_SERVICE_H

#include <stdbool.h>
#include "jobs/job-end.h"

struct ct_context;

struct ct_hotplug_service_opts {
	const char *config;	/* the policy file given to each run; NULL: the runs' default */
	unsigned timeout_s;	/* each run's --timeout: how long it waits for another cxltier's change */
	int verbose;		/* each run gets as many -v (at most 3) */
	bool once;		/* the devices tagged now, in one run, and its status returned */
	int stop_fd;		/* a signalfd of the signals that stop the watch (the caller blocked
				 * them; the runs get them back unblocked); -1: none */
};

struct ct_hotplug_service_report {
	/* CT_JOB_DONE: stopped (a signal read from stop_fd, the run under way
	 * ended), or with once, no run needed or its run ended; CT_JOB_FAILED:
	 * the watch failed (said) */
	enum ct_job_end end;
	bool ran;		/* once: a run was made ... */
	int run_status;		/* ... and ended with this exit status (128 + N: killed by signal N) */
};

/* the watch: how it ended (also in r). What it has to tell goes to the
 * context's sink, the runs' own output to this process's stdout and
 * stderr. */
enum ct_job_end ct_hotplug_service(struct ct_context *ctx, const struct ct_hotplug_service_opts *o,
				   struct ct_hotplug_service_report *r);

#endif
