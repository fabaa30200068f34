/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * progress.h - long work shown as it goes. On a terminal (stderr a tty),
 * one line on stderr: done/total, the size done, the rate, the time gone
 * ("online: 1536/4096 blocks, 192G of 512G, 1.2G/s, 0:42"), redrawn in
 * place at most ten times a second, cut to the terminal's width, and
 * erased at the end, so that nothing of it stays in the scrollback; none
 * when stderr is not a terminal. While the line is up, every message of
 * the run (the library's, through the context's sink) erases it first.
 * Memory blocks (online, offline, region destroy --offline) and processes
 * (migrate) are counted into it as the jobs tell them. With -v, each memory block a job tells is said as it is done, as
 * chmem -v says it ("memory block 34 (0x110000000-0x117ffffff) onlined
 * movable").
 */
#ifndef CXLTIER_PROGRESS_H
#define CXLTIER_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include "cli/cli.h"
#include "core/say.h"
#include "jobs/job-change.h"

struct progress {
	struct cmd_env *env;
	const char *what;		/* the line's first word: "online" */
	bool tty;			/* stderr is a terminal: the line is drawn */
	bool shown;			/* the line is on the screen now */
	bool ever;			/* it was drawn once: drawn holds when */
	struct timespec start, drawn;	/* CLOCK_MONOTONIC */
	struct ct_say saved;		/* the context's sink, wrapped while the line may be up */
	uint64_t block_size;		/* the blocks' (0 until the first is told) */
	size_t blocks_total;
};

/* begin showing the run of env's command (its context opened); what: the
 * line's first word */
void progress_begin(struct progress *p, struct cmd_env *env, const char *what);
/* done of total UNIT, bytes done of bytes_total (0: not counted), drawn
 * when the line was last drawn a tenth of a second ago or more */
void progress_step(struct progress *p, const char *unit, size_t done, size_t total, uint64_t bytes,
		   uint64_t bytes_total);
/* what a job is given to tell each block and each region step through
 * (jobs/job-change.h); with -v a step is said as "step 3/12: WHAT" */
struct ct_job_progress progress_tell(struct progress *p);
/* a process reached, reached of n (mm/migrate.h: ct_migrate_opts.on_process;
 * arg: the struct progress) */
void progress_process(void *arg, size_t reached, size_t n);
/* the line erased, the context's sink put back */
void progress_end(struct progress *p);

#endif
