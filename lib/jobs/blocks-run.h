/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * blocks-run.h - private to lib/jobs/: the end of a change of memory
 * blocks, which online, offline and online --policy share. The plan
 * decided for what is wanted and carried out (the lock released), each
 * block that did not go as asked said, the memdevs behind the blocks
 * named, the tally made and the status judged, with what went wrong
 * before the blocks weighed in.
 */
#ifndef CXLTIER_BLOCKS_RUN_H
#define CXLTIER_BLOCKS_RUN_H

#include <stdbool.h>
#include "jobs/blocks-change.h"
#include "jobs/job-session.h"

/* how the run went before its blocks */
struct blocks_before {
	bool regions_failed;	/* online --policy: a region it should have made is not there (said) */
	bool regions_made;	/* ... it made one: a run whose blocks all fail did something */
	bool targets_failed;	/* a target's dax device could not be handled (said) */
};

/* r->plan decided for r->want and carried out unless r->dry_run; r filled,
 * its status set */
void blocks_run_finish(struct job_session *js, struct ct_topology *t, char *const *targets, int n, bool reonline,
		       const struct blocks_before *b, struct ct_blocks_change_report *r);

#endif
