// SPDX-License-Identifier: GPL-2.0-only
/* cmd-hotplug.c - `cxltier hotplug`: the resident side of hotplug, which
 * cxltier-hotplug.service runs (the job: lib/jobs/hotplug-service.h, which
 * says why each run of `cxltier online --policy` is a process of its own).
 * The signals that stop it are read from a signalfd (cli/run-signals.h). */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/job-exit.h"
#include "cli/run-signals.h"
#include "core/conf.h"
#include "jobs/hotplug-service.h"

struct hotplug_args {
	const char *config;
	unsigned timeout;
	bool once;
};

static int run(struct cmd_env *env, void *args, int argc, char **argv)
{
	const struct hotplug_args *a = args;
	struct ct_hotplug_service_report r;
	int rc, fd;

	(void)argc, (void)argv;
	if (env->sysroot) {
		cmd_err(env, "hotplug watches the live system only (not with --sysroot)");
		return EXIT_USAGE;
	}
	if (env->out.json || env->out.columns || env->out.noheadings || env->out.bytes) {
		cmd_err(env, "hotplug prints no table or JSON of its own: its runs' output goes to the journal "
			"(for JSON, run `cxltier online --policy -j DEVICE`)");
		return EXIT_USAGE;
	}
	if ((rc = cmd_context(env)))
		return rc;
	/* the ending signals read as input (the runs get them back unblocked) */
	if ((fd = run_signals_fd()) < 0) {
		cmd_err(env, "signalfd: %s", strerror(errno));
		return EXIT_FAIL;
	}
	ct_hotplug_service(env->ctx, &(struct ct_hotplug_service_opts){ .config = a->config,
		.timeout_s = a->timeout, .verbose = env->verbose, .once = a->once, .stop_fd = fd }, &r);
	close(fd);
	return r.ran ? r.run_status : cmd_job_exit(r.end);	/* --once: the run's own status */
}

#define ARG(field) offsetof(struct hotplug_args, field)
static const struct cli_opt opts[] = {
	{ .name = "config", .arg = "FILE", .store = CLI_STRING, .offset = ARG(config), .complete = CLI_C_FILE,
	  .help = "the policy file, given to each run (default " CT_CONF_PATH ")" },
	{ .name = "timeout", .arg = "SEC", .store = CLI_SECONDS, .offset = ARG(timeout), .max = 86400,
	  .help = "how long each run waits for another cxltier's change\n(default 60)" },
	{ .name = "once", .store = CLI_FLAG, .offset = ARG(once),
	  .help = "take the devices marked now, in one run, and exit with\nits status" },
	{ NULL },
};
static const struct hotplug_args defaults = { .timeout = 60 };

const struct cli_command command_hotplug = {
	.name = "hotplug",
	.summary = "wait for CXL devices udev's rule marks and online them per the policy, as they come",
	.synopsis = "[--config FILE] [--timeout SEC] [--once] [-v]",
	.about = "Wait for CXL memdevs and dax devices that udev's rule (90-cxltier.rules)\n"
		 "marks as they come, and run `cxltier online --policy` for them: one run at\n"
		 "a time, each taking every device that came while the one before it ran.\n"
		 "The devices the rule marked before it started are taken first. Runs as\n"
		 "cxltier-hotplug.service, which the rule starts; stops on SIGTERM or SIGINT\n"
		 "once the run under way has ended. -v is said again to each run.",
	.exit_help = "Exit: 0 stopped, 1 failure; with --once the run's own status.",
	.opts = opts,
	.args_size = sizeof(struct hotplug_args),
	.args_init = &defaults,
	.operand_kind = CLI_C_NONE,
	.max_operands = 0,
	.surplus = "hotplug takes no target ('%s'): the devices come from udev's rule",
	.flags = CLI_NO_CONTEXT,
	.run = run,
};
