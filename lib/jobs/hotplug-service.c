// SPDX-License-Identifier: GPL-2.0-only
/* cmd-hotplug.c - `cxltier hotplug`: the resident side of hotplug. It
 * watches udev for the CXL memdevs and dax devices that 90-cxltier.rules
 * tags (lib/change/hotplug-watch.c), and runs `cxltier online --policy`
 * for them: one run at a time, each run taking every device that came
 * while the one before it ran. cxltier-hotplug.service runs it, started by
 * the rule itself; its sandbox is set up once, at that start, and the runs
 * inherit it, where a unit per device paid for it at every device (the
 * dearest part of a hot-add under emulation: test/bench/hotplug.sh). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>
#include "blocks-change.h"
#include "cli/cli.h"
#include "online-policy.h"
#include "core/child.h"
#include "core/context.h"
#include "core/ending-signals.h"
#include "change/hotplug-watch.h"

#define HP_NAME 32		/* memN, daxN.M (ct_hotplug_watch_name_ok) */
#define HP_BATCH 64		/* devices given to one run */
#define HP_PENDING 4096		/* devices waiting; past it, all present are looked at again */

static void usage(void)
{
	printf("usage: cxltier hotplug [--config FILE] [--timeout SEC] [--once] [-v]\n\n"
	       "Wait for CXL memdevs and dax devices that udev's rule (90-cxltier.rules)\n"
	       "marks as they come, and run `cxltier online --policy` for them: one run at\n"
	       "a time, each taking every device that came while the one before it ran.\n"
	       "The devices the rule marked before it started are taken first. Runs as\n"
	       "cxltier-hotplug.service, which the rule starts; stops on SIGTERM or SIGINT\n"
	       "once the run under way has ended.\n\n"
	       "      --config FILE  the policy file, given to each run (default " DEFAULT_CONFIG ")\n"
	       "      --timeout SEC  how long each run waits for another cxltier's change\n"
	       "                     (default 60)\n"
	       "      --once         take the devices marked now, in one run, and exit with\n"
	       "                     its status\n"
	       "  -v                 said again to each run\n"
	       "Exit: 0 stopped, 1 failure; with --once the run's own status.\n");
}

struct hotplug {
	struct cmd_env *env;
	const char *config, *timeout;
	char (*pending)[HP_NAME];
	size_t npending;
	bool lost;		/* events lost or not kept: look at what is present again */
	struct ct_child run;	/* the run under way (pid 0 when none) */
	char batch[HP_BATCH * (HP_NAME + 1)];	/* its devices, for messages */
	char notify[128];	/* systemd's socket, "" when none */
};

static void pending_add(const char *name, void *arg)
{
	struct hotplug *h = arg;

	for (size_t i = 0; i < h->npending; i++)
		if (!strcmp(h->pending[i], name))
			return;
	if (h->npending == HP_PENDING) {
		h->lost = true;
		return;
	}
	snprintf(h->pending[h->npending++], HP_NAME, "%s", name);
}

static void notify(const struct hotplug *h, const char *msg)
{
	int r = ct_notify(h->notify, msg);

	if (r < 0)
		cmd_warn(h->env, "cannot tell systemd '%s': %s", msg, strerror(-r));
}

/* the pending dax devices with nothing left to do dropped (a run made
 * their region and onlined them while their event waited) */
static void drop_done(struct hotplug *h)
{
	size_t k = 0;

	for (size_t i = 0; i < h->npending; i++) {
		if (ct_hotplug_watch_done(&h->env->ctx->sys, h->pending[i]))
			cmd_info(h->env, 0, "%s: every block online movable already: no run for it", h->pending[i]);
		else if (k++ != i)
			memcpy(h->pending[k - 1], h->pending[i], sizeof(h->pending[0]));
	}
	h->npending = k;
}

/* a run of `cxltier online --policy` over the first HP_BATCH pending
 * devices, with the signals that end it as they end any run (none when
 * none of them has anything left to do) */
static int run_start(struct hotplug *h)
{
	const char *argv[16 + HP_BATCH] = { "cxltier", "online", "--policy", "--timeout", h->timeout };
	size_t n = 5, take, used = 0;
	struct ct_error err = { 0 };
	int r;

	drop_done(h);
	if (!h->npending)
		return 0;
	take = h->npending < HP_BATCH ? h->npending : HP_BATCH;
	if (h->config) {
		argv[n++] = "--config";
		argv[n++] = h->config;
	}
	for (int v = 0; v < h->env->verbose && v < 3; v++)
		argv[n++] = "-v";
	argv[n++] = "--";
	h->batch[0] = 0;
	for (size_t i = 0; i < take; i++) {
		argv[n++] = h->pending[i];
		used += (size_t)snprintf(h->batch + used, sizeof(h->batch) - used, "%s%s", i ? " " : "", h->pending[i]);
	}
	argv[n] = NULL;
	if ((r = ct_child_start_self(&h->run, (char *const *)argv, &err)) < 0) {
		cmd_err(h->env, "online --policy %s: %s", h->batch, err.msg);
		return r;
	}
	memmove(h->pending, h->pending + take, (h->npending - take) * sizeof(h->pending[0]));
	h->npending -= take;
	cmd_info(h->env, 0, "online --policy %s: started (pid %d)", h->batch, (int)h->run.pid);
	return 0;
}

/* the run ended: reaped and said; its exit code */
static int run_end(struct hotplug *h)
{
	char status[64 + sizeof(h->batch)];
	int st = ct_child_reap(&h->run), code;

	if (WIFEXITED(st)) {
		code = WEXITSTATUS(st);
		if (code == EXIT_OK)
			cmd_info(h->env, 0, "online --policy %s: done", h->batch);
		else
			cmd_err(h->env, "online --policy %s: exit %d%s", h->batch, code,
				code == EXIT_PARTIAL ? " (some done, some not: named above)" : " (said above)");
	} else {
		code = 128 + WTERMSIG(st);
		cmd_err(h->env, "online --policy %s: killed by signal %d: the next run finishes or undoes what it "
			"left", h->batch, WTERMSIG(st));
	}
	snprintf(status, sizeof(status), "STATUS=last run: online --policy %s: exit %d", h->batch, code);
	notify(h, status);
	return code;
}

static int take_present(struct hotplug *h, struct ct_hotplug_watch *w)
{
	struct ct_error err = { 0 };
	int r = ct_hotplug_watch_present(w, pending_add, h, &err);

	if (r < 0)
		cmd_err(h->env, "%s", err.msg);
	return r;
}

/* every waiting event read; <0 when the watch failed */
static int take_events(struct hotplug *h, struct ct_hotplug_watch *w)
{
	char name[HP_NAME];

	for (;;) {
		struct ct_error err = { 0 };
		int r = ct_hotplug_watch_next(w, name, sizeof(name), &err);

		if (r == 1)
			pending_add(name, h);
		else if (r == -EAGAIN)
			return 0;
		else if (r == -ENOBUFS) {
			cmd_warn(h->env, "%s: every marked device is looked at again", err.msg);
			h->lost = true;
		} else if (r < 0) {
			cmd_err(h->env, "%s", err.msg);
			return r;
		}
	}
}

static int watch_loop(struct hotplug *h, struct ct_hotplug_watch *w, int sigfd)
{
	bool stopping = false, ready = false;
	int rc = EXIT_OK;

	for (;;) {
		struct pollfd p[3] = { { .fd = sigfd, .events = POLLIN }, { .fd = -1 }, { .fd = -1 } };

		if (!h->run.pid && !stopping) {
			if (h->lost) {
				h->lost = false;
				if (take_present(h, w) < 0)
					return EXIT_FAIL;
			}
			if (h->npending && run_start(h) < 0)
				return EXIT_FAIL;
			if (!h->run.pid && !ready) {
				/* the devices marked before the start are done */
				notify(h, "READY=1\nSTATUS=waiting for CXL devices");
				ready = true;
			}
		}
		if (stopping && !h->run.pid)
			return rc;
		if (!stopping)
			p[1] = (struct pollfd){ .fd = ct_hotplug_watch_fd(w), .events = POLLIN };
		if (h->run.pid)
			p[2] = (struct pollfd){ .fd = h->run.pidfd, .events = POLLIN };
		if (poll(p, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			cmd_err(h->env, "poll: %s", strerror(errno));
			return EXIT_FAIL;
		}
		if (p[0].revents & POLLIN) {
			struct signalfd_siginfo si;

			if (read(sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
				if (!stopping)
					cmd_info(h->env, 0, "stopping (signal %u)%s", si.ssi_signo,
						 h->run.pid ? ": once the run under way has ended" : "");
				stopping = true;
				notify(h, "STOPPING=1");
				/* not passed on: systemd (and a terminal's ^C)
				 * signal the run themselves, and a second
				 * signal would end it at once, not at a step it
				 * may end at; a run nobody signalled ends on
				 * its own, in bounded time */
			}
		}
		if (p[1].revents & (POLLIN | POLLERR) && take_events(h, w) < 0)
			return EXIT_FAIL;
		if (h->run.pid && p[2].revents & (POLLIN | POLLHUP))
			run_end(h);
	}
}

int cmd_hotplug(int argc, char **argv, struct cmd_env *env)
{
	enum { OPT_CONFIG = 0x4001, OPT_TIMEOUT, OPT_ONCE };
	static const struct option opts[] = {
		{ "config", required_argument, NULL, OPT_CONFIG },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "once", no_argument, NULL, OPT_ONCE },
		COMMON_LONG_OPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct hotplug h = { .env = env, .timeout = "60", .run = { 0, -1 } };
	struct ct_hotplug_watch *w = NULL;
	struct ct_error err = { 0 };
	bool once = false;
	sigset_t ending;
	int c, rc, sigfd = -1;

	env->opts = opts;
	opterr = 0;
	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTS, opts, NULL)) != -1) {
		switch (c) {
		case OPT_CONFIG: h.config = optarg; break;
		case OPT_TIMEOUT:
			/* checked as the runs check it (online's --timeout) */
			if ((rc = change_parse_timeout(env, optarg, &(struct change_opts){ 0 })))
				return rc;
			h.timeout = optarg;
			break;
		case OPT_ONCE: once = true; break;
		default:
			if ((rc = cmd_common_opt(env, c, optarg, argc, argv, usage)))
				return cmd_exit_code(rc);
		}
	}
	if (optind < argc) {
		cmd_err(env, "hotplug takes no target ('%s'): the devices come from udev's rule", argv[optind]);
		return EXIT_USAGE;
	}
	if (env->sysroot) {
		cmd_err(env, "hotplug watches the live system only (not with --sysroot)");
		return EXIT_USAGE;
	}
	if (env->out.json || env->out.columns || env->out.noheadings || env->out.bytes) {
		cmd_err(env, "hotplug prints no table or JSON of its own: its runs' output goes to the journal "
			"(for JSON, run `cxltier online --policy -j DEVICE`)");
		return EXIT_USAGE;
	}
	if (!(h.pending = calloc(HP_PENDING, sizeof(h.pending[0])))) {
		cmd_err(env, "no memory");
		return EXIT_FAIL;
	}
	/* the notification socket is ours, not the runs' */
	ct_notify_take(h.notify, sizeof(h.notify));
	/* the ending signals read as input (the runs get them back unblocked) */
	ct_ending_signals(&ending);
	sigprocmask(SIG_BLOCK, &ending, NULL);
	if ((sigfd = signalfd(-1, &ending, SFD_CLOEXEC | SFD_NONBLOCK)) < 0) {
		cmd_err(env, "signalfd: %s", strerror(errno));
		rc = EXIT_FAIL;
		goto out;
	}
	/* listening before the devices present are listed: none falls between */
	if (ct_hotplug_watch_open(&w, &err) < 0) {
		cmd_err(env, "%s", err.msg);
		rc = EXIT_FAIL;
		goto out;
	}
	if (take_present(&h, w) < 0) {
		rc = EXIT_FAIL;
		goto out;
	}
	/* listening: udev need not start the service at each memdev now */
	if ((rc = cmd_context(env)) || (!once && ct_hotplug_watch_mark(w, &env->ctx->sys, &env->ctx->err) < 0)) {
		if (!rc)
			cmd_err(env, "%s", ct_context_message(env->ctx));
		rc = EXIT_FAIL;
		goto out;
	}
	if (once) {
		if (!h.npending) {
			cmd_info(env, 0, "no device marked by udev's rule");
			rc = EXIT_OK;
		} else if (run_start(&h) < 0)
			rc = EXIT_FAIL;
		else if (!h.run.pid) {
			cmd_info(env, 0, "nothing to do: the devices marked are online movable already");
			rc = EXIT_OK;
		} else
			rc = run_end(&h);
		goto out;
	}
	cmd_info(env, 1, "watching udev for CXL memdevs and dax devices tagged %s", CT_HOTPLUG_WATCH_TAG);
	rc = watch_loop(&h, w, sigfd);
out:
	ct_hotplug_watch_close(w);
	if (sigfd >= 0)
		close(sigfd);
	free(h.pending);
	return rc;
}
