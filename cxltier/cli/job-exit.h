/* SPDX-License-Identifier: GPL-2.0-only */
/* job-exit.h - the exit code that a library job's end means (cxltier(1)) */
#ifndef CXLTIER_JOB_EXIT_H
#define CXLTIER_JOB_EXIT_H

#include "jobs/job-end.h"

/* done 0, partial 64, failed 1, unsupported 77, bad input 2 (usage) */
int cmd_job_exit(enum ct_job_end end);

#endif
