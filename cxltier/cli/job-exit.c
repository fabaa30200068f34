// SPDX-License-Identifier: GPL-2.0-only
/* job-exit.c - a job's end as an exit code (job-exit.h) */
#include "cli/cli.h"
#include "cli/job-exit.h"

int cmd_job_exit(enum ct_job_end end)
{
	static const int code[] = { [CT_JOB_DONE] = EXIT_OK, [CT_JOB_PARTIAL] = EXIT_PARTIAL, [CT_JOB_FAILED] = EXIT_FAIL,
				    [CT_JOB_UNSUPPORTED] = EXIT_UNSUPPORTED, [CT_JOB_BAD_INPUT] = EXIT_USAGE };

	return (unsigned)end < sizeof(code) / sizeof(code[0]) ? code[end] : EXIT_FAIL;
}
