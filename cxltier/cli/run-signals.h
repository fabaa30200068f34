/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * run-signals.h - the signal handlers and the timer of a run that changes
 * memory blocks or regions, the signals the hotplug watch reads instead,
 * and the stop flag of a run that reads. Signal dispositions are the process's, so they are the CLI's:
 * lib/ installs none, and a job gets the flags and the timer in its
 * options (jobs/job-change.h: struct ct_job_signals).
 */
#ifndef CXLTIER_RUN_SIGNALS_H
#define CXLTIER_RUN_SIGNALS_H

#include <stdbool.h>
#include "jobs/job-change.h"

/* sig: the flags (cleared) and the timer a job is given; with handle, the
 * handlers installed until run_signals_end(): SIGINT, SIGTERM, SIGHUP and
 * SIGQUIT set the stop flag (a second one ends the process as if no
 * handler were there), SIGALRM the timer's (a dry run, which writes
 * nothing, takes the signals as they come) */
void run_signals_begin(struct ct_job_signals *sig, bool handle);
/* the timer disarmed, the handlers put back to the defaults */
void run_signals_end(void);
/* SIGINT, SIGTERM, SIGHUP and SIGQUIT blocked and read from a descriptor
 * instead (signalfd; a child started with core/child.h gets them back
 * unblocked): it, or -1 with errno */
int run_signals_fd(void);
/* the stop flag (cleared) of a run that reads and takes down what it set
 * up (events --follow's tracefs instance, migrate's DAMON contexts):
 * SIGINT, SIGTERM, SIGHUP, SIGQUIT and a reader gone (SIGPIPE) set it,
 * every one of them, until the process ends */
volatile sig_atomic_t *run_signals_stop_flag(void);

#endif
