// SPDX-License-Identifier: LGPL-2.1-or-later
/* hotplug-service.c - the resident side of hotplug: udev's tagged devices
 * in batches, a run of `cxltier online --policy` per batch (see
 * hotplug-service.h for why each run is a process of its own) */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>
#include "jobs/hotplug-service.h"
#include "change/hotplug-watch.h"
#include "core/child.h"
#include "core/context.h"
#include "core/say.h"

#define HP_NAME 32		/* memN, daxN.M (ct_hotplug_watch_name_ok) */
#define HP_BATCH 64		/* devices given to one run */
#define HP_PENDING 4096		/* devices waiting; past it, all present are looked at again */
/* a run's exit status (cxltier(1)): everything as asked, or some done and some not */
#define RUN_DONE 0
#define RUN_PARTIAL 64

struct hotplug {
	struct ct_context *ctx;
	const struct ct_hotplug_service_opts *o;
	char timeout[16];	/* each run's --timeout */
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
		ct_say(&h->ctx->say, CT_SAY_WARNING, "cannot tell systemd '%s': %s", msg, strerror(-r));
}

/* the pending dax devices with nothing left to do dropped (a run made
 * their region and onlined them while their event waited) */
static void drop_done(struct hotplug *h)
{
	size_t k = 0;

	for (size_t i = 0; i < h->npending; i++) {
		if (ct_hotplug_watch_done(&h->ctx->sys, h->pending[i]))
			ct_say(&h->ctx->say, 0, "%s: every block online movable already: no run for it", h->pending[i]);
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
	if (h->o->config) {
		argv[n++] = "--config";
		argv[n++] = h->o->config;
	}
	for (int v = 0; v < h->o->verbose && v < 3; v++)
		argv[n++] = "-v";
	argv[n++] = "--";
	h->batch[0] = 0;
	for (size_t i = 0; i < take; i++) {
		argv[n++] = h->pending[i];
		used += (size_t)snprintf(h->batch + used, sizeof(h->batch) - used, "%s%s", i ? " " : "", h->pending[i]);
	}
	argv[n] = NULL;
	if ((r = ct_child_start_self(&h->run, (char *const *)argv, &err)) < 0) {
		ct_say(&h->ctx->say, CT_SAY_ERROR, "online --policy %s: %s", h->batch, err.msg);
		return r;
	}
	memmove(h->pending, h->pending + take, (h->npending - take) * sizeof(h->pending[0]));
	h->npending -= take;
	ct_say(&h->ctx->say, 0, "online --policy %s: started (pid %d)", h->batch, (int)h->run.pid);
	return 0;
}

/* the run ended: reaped and said; its exit code */
static int run_end(struct hotplug *h)
{
	char status[64 + sizeof(h->batch)];
	int st = ct_child_reap(&h->run), code;

	if (WIFEXITED(st)) {
		code = WEXITSTATUS(st);
		if (code == RUN_DONE)
			ct_say(&h->ctx->say, 0, "online --policy %s: done", h->batch);
		else
			ct_say(&h->ctx->say, CT_SAY_ERROR, "online --policy %s: exit %d%s", h->batch, code,
			       code == RUN_PARTIAL ? " (some done, some not: named above)" : " (said above)");
	} else {
		code = 128 + WTERMSIG(st);
		ct_say(&h->ctx->say, CT_SAY_ERROR, "online --policy %s: killed by signal %d: the next run finishes or "
		       "undoes what it left", h->batch, WTERMSIG(st));
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
		ct_say(&h->ctx->say, CT_SAY_ERROR, "%s", err.msg);
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
			ct_say(&h->ctx->say, CT_SAY_WARNING, "%s: every marked device is looked at again", err.msg);
			h->lost = true;
		} else if (r < 0) {
			ct_say(&h->ctx->say, CT_SAY_ERROR, "%s", err.msg);
			return r;
		}
	}
}

/* a signal read from stop_fd: the watch stops once the run under way has
 * ended. Not passed on: systemd (and a terminal's ^C) signal the run
 * themselves, and a second signal would end it at once, not at a step it
 * may end at; a run nobody signalled ends on its own, in bounded time */
static void take_stop(struct hotplug *h, bool *stopping)
{
	struct signalfd_siginfo si;

	if (read(h->o->stop_fd, &si, sizeof(si)) != (ssize_t)sizeof(si))
		return;
	if (!*stopping)
		ct_say(&h->ctx->say, 0, "stopping (signal %u)%s", si.ssi_signo,
		       h->run.pid ? ": once the run under way has ended" : "");
	*stopping = true;
	notify(h, "STOPPING=1");
}

/* with no run under way: the next one started, READY=1 once the devices
 * tagged before the start are done; <0 when the watch failed */
static int between_runs(struct hotplug *h, struct ct_hotplug_watch *w, bool *ready)
{
	if (h->lost) {
		h->lost = false;
		if (take_present(h, w) < 0)
			return -1;
	}
	if (h->npending && run_start(h) < 0)
		return -1;
	if (!h->run.pid && !*ready) {
		notify(h, "READY=1\nSTATUS=waiting for CXL devices");
		*ready = true;
	}
	return 0;
}

static enum ct_job_end watch_loop(struct hotplug *h, struct ct_hotplug_watch *w)
{
	bool stopping = false, ready = false;

	for (;;) {
		struct pollfd p[3] = { { .fd = h->o->stop_fd, .events = POLLIN }, { .fd = -1 }, { .fd = -1 } };

		if (!h->run.pid && !stopping && between_runs(h, w, &ready) < 0)
			return CT_JOB_FAILED;
		if (stopping && !h->run.pid)
			return CT_JOB_DONE;
		if (!stopping)
			p[1] = (struct pollfd){ .fd = ct_hotplug_watch_fd(w), .events = POLLIN };
		if (h->run.pid)
			p[2] = (struct pollfd){ .fd = h->run.pidfd, .events = POLLIN };
		if (poll(p, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			ct_say(&h->ctx->say, CT_SAY_ERROR, "poll: %s", strerror(errno));
			return CT_JOB_FAILED;
		}
		if (p[0].revents & POLLIN)
			take_stop(h, &stopping);
		if (p[1].revents & (POLLIN | POLLERR) && take_events(h, w) < 0)
			return CT_JOB_FAILED;
		if (h->run.pid && p[2].revents & (POLLIN | POLLHUP))
			run_end(h);
	}
}

/* --once: the devices tagged now, in one run */
static enum ct_job_end once(struct hotplug *h, struct ct_hotplug_service_report *r)
{
	if (!h->npending) {
		ct_say(&h->ctx->say, 0, "no device marked by udev's rule");
		return CT_JOB_DONE;
	}
	if (run_start(h) < 0)
		return CT_JOB_FAILED;
	if (!h->run.pid) {
		ct_say(&h->ctx->say, 0, "nothing to do: the devices marked are online movable already");
		return CT_JOB_DONE;
	}
	r->ran = true;
	r->run_status = run_end(h);
	return CT_JOB_DONE;
}

enum ct_job_end ct_hotplug_service(struct ct_context *ctx, const struct ct_hotplug_service_opts *o,
				   struct ct_hotplug_service_report *r)
{
	struct hotplug h = { .ctx = ctx, .o = o, .run = { 0, -1 } };
	struct ct_hotplug_watch *w = NULL;
	struct ct_error err = { 0 };

	*r = (struct ct_hotplug_service_report){ .end = CT_JOB_FAILED };

	snprintf(h.timeout, sizeof(h.timeout), "%u", o->timeout_s);
	if (!(h.pending = calloc(HP_PENDING, sizeof(h.pending[0])))) {
		ct_say(&ctx->say, CT_SAY_ERROR, "no memory");
		return r->end;
	}
	/* the notification socket is ours, not the runs' */
	ct_notify_take(h.notify, sizeof(h.notify));
	/* listening before the devices present are listed: none falls between */
	if (ct_hotplug_watch_open(&w, &err) < 0)
		ct_say(&ctx->say, CT_SAY_ERROR, "%s", err.msg);
	else if (take_present(&h, w) >= 0) {
		/* listening: udev need not start the service at each memdev now */
		if (o->once)
			r->end = once(&h, r);
		else if (ct_hotplug_watch_mark(w, &ctx->sys, &ctx->err) < 0)
			ct_say(&ctx->say, CT_SAY_ERROR, "%s", ct_context_message(ctx));
		else {
			ct_say(&ctx->say, 1, "watching udev for CXL memdevs and dax devices tagged %s", CT_HOTPLUG_WATCH_TAG);
			r->end = watch_loop(&h, w);
		}
	}
	ct_hotplug_watch_close(w);
	free(h.pending);
	return r->end;
}
