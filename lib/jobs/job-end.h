/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * job-end.h - how a job ended, in its report: the caller's exit code
 * follows from it. What went wrong was said through the context's sink as
 * it happened (core/say.h); the end only sums it up.
 */
#ifndef CXLTIER_JOB_END_H
#define CXLTIER_JOB_END_H

enum ct_job_end {
	CT_JOB_DONE,		/* everything done */
	CT_JOB_PARTIAL,		/* done, and something was not (said) */
	CT_JOB_FAILED,		/* not done (said) */
	CT_JOB_UNSUPPORTED,	/* this kernel or device cannot do it (said) */
	CT_JOB_BAD_INPUT,	/* what the caller named cannot be used (a configuration file): nothing done (said) */
};

#endif
