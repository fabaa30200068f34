// SPDX-License-Identifier: GPL-2.0-only
/* events-read.c - where `events` reads its records: the store, the tracefs
 * instance (shared, or the follower's own), a file of 128-byte records; each
 * record filtered, then shown, counted (--summary) or stored (events-run.h) */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "events-run.h"
#include "events-summary.h"
#include "events-table.h"
#include "cli/json-build.h"
#include "core/context.h"
#include "events/event-source.h"

#define KEEP_LOCK_MS 30000	/* another reader of the shared instance: wait for it */

static bool wanted(struct events_run *run, const struct ct_event *e)
{
	int sev = ct_event_severity(e);

	if (filter_active(&run->memdevs) && !filter_match(&run->memdevs, e->memdev))
		return false;
	if (filter_active(&run->types) && !filter_match(&run->types, ct_event_kind_name(e->kind)))
		return false;
	if (run->severities && (sev < 0 || !(run->severities & (1 << sev))))
		return false;
	if (run->since_ns && ct_event_time(e) < run->since_ns)	/* the device's time, else the kernel's */
		return false;
	if (run->until_ns && ct_event_time(e) >= run->until_ns)
		return false;
	return true;
}

/* a record shown: listed, or counted (--summary) */
static int show(struct events_run *run, const struct ct_event *e)
{
	if (run->summary)
		return ct_event_summary_add(&run->sum, e);
	json_object_array_add(run->arr, events_json(e));
	return 0;
}

/* --store (the follower, --file): every record read goes to the store,
 * shown or not (the filters are the display's) */
static void store_record(struct events_run *run, const struct ct_event *e)
{
	int rc = ct_event_store_add(run->store.s, e);

	if (rc && rc != run->store_add_rc)
		cmd_warn(run->env, "a %s record of %s cannot be queued for the event store: %s", ct_event_kind_name(e->kind),
			 e->memdev[0] ? e->memdev : "no memdev", strerror(-rc));
	if (rc)
		run->store.failed = true;
	run->store_add_rc = rc;
}

static int on_event(const struct ct_event *e, void *arg)
{
	struct events_run *run = arg;
	/* a reading run shows the store's records first: one there is not shown
	 * again, nor kept for a later run */
	bool stored = !run->follow && run->store.s && !run->store.writer && ct_event_store_has(run->store.s, e);

	if (run->store.writer && run->store.s)
		store_record(run, e);
	if (!wanted(run, e))
		return run->follow || stored ? 0 : CT_EVENT_KEEP;	/* read, so kept for a later run */
	if (run->follow)
		return run->out_err = events_print_line(run->env, e);
	return stored ? 0 : show(run, e);
}

static int on_stored(const struct ct_event *e, void *arg)
{
	struct events_run *run = arg;

	if (!wanted(run, e))
		return 0;
	run->store.shown++;
	return show(run, e);
}

/* the store's records (filtered), before what is live */
static int show_stored(struct events_run *run)
{
	struct cmd_env *env = run->env;

	if (!run->store.s || !ct_event_store_each(run->store.s, run->since_ns, run->until_ns, on_stored, run,
						  &env->ctx->err))
		return 0;
	cmd_err(env, "%s", ct_context_message(env->ctx));
	if (!run->history)
		cmd_warn(env, "the stored history is not shown whole: what is live follows");
	run->store.failed = true;
	return -EIO;
}

static int follow_tick(void *arg)
{
	struct events_run *run = arg;

	events_store_tick(run->env, &run->store, false);
	return 0;
}

int events_from_file(struct events_run *run, const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t rec[CT_EVENT_RECORD_LEN];
	struct ct_event e;
	size_t n, i = 0;

	if (!f) {
		cmd_err(run->env, "cannot open %s: %s", path, strerror(errno));
		return EXIT_FAIL;
	}
	while ((n = fread(rec, 1, sizeof(rec), f)) > 0) {
		if (n < sizeof(rec) || ct_event_decode(rec, n, &e)) {
			cmd_err(run->env, "%s: record %zu at byte %zu is not a 128-byte event record", path, i, i * sizeof(rec));
			fclose(f);
			return EXIT_FAIL;
		}
		on_event(&e, run);
		i++;
	}
	fclose(f);
	if (run->store.s) {
		const struct ct_event_store_stats *st;
		events_store_tick(run->env, &run->store, true);
		st = ct_event_store_stats(run->store.s);
		if (!st->queued)
			cmd_info(run->env, 0, "%s: %zu records, %" PRIu64 " of them new in the store %s", path, i, st->stored,
				 run->store.path);
	}
	return EXIT_OK;
}

static volatile sig_atomic_t stop;
static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

static int exit_for(struct cmd_env *env, int rc)
{
	cmd_err(env, "%s", ct_context_message(env->ctx));
	return rc == -EOPNOTSUPP ? EXIT_UNSUPPORTED : EXIT_FAIL;
}

/* every signal that ends a follower and lets it run code removes its
 * instance: interrupt, terminate, hang-up, quit, and a reader gone (SIGPIPE) */
static void catch_stop_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

/* the shared instance: what the filters hide is kept for a later run */
static int read_shared(struct events_run *run, struct ct_event_source *s)
{
	struct ct_event_keep_report rep;
	int rc = ct_event_source_read_shared(s, on_event, run, KEEP_LOCK_MS, &rep);

	events_unshown_report(run->env, &rep, &run->unshown);
	return rc;
}

/* the follower with --store: every record of the shared instance (and
 * those a filtered run kept) into the store, consumed; what arrived while
 * no follower ran is there. The shared instance is made when missing: from
 * now on it keeps what arrives while the follower is down (a restart). Run
 * once the follower's own instance records, so that nothing falls between
 * them; a record emitted since then is in both and left to the follower's
 * own (it prints it, with its own emit time: the store keeps that copy) */
struct drain {
	struct events_run *run;
	uint64_t since_ns;	/* the follower's own instance records from then on */
};

static int drain_one(const struct ct_event *e, void *arg)
{
	struct drain *d = arg;

	if (!e->trace_time || e->trace_time < d->since_ns)
		store_record(d->run, e);
	return 0;
}

static void drain_shared(struct events_run *run, uint64_t since_ns)
{
	struct drain d = { run, since_ns };
	struct cmd_env *env = run->env;
	struct ct_event_source_opts o = { .shared = true };
	struct ct_event_keep_report rep;
	struct ct_event_source *s;
	uint64_t before = ct_event_store_stats(run->store.s)->stored;
	int rc = ct_event_source_open(env->ctx, &o, &s);

	if (!rc) {
		rc = ct_event_source_read_shared(s, drain_one, &d, KEEP_LOCK_MS, &rep);
		rc = ct_event_source_close(s) ? -EIO : rc;
	}
	if (rc) {
		cmd_warn(env, "the '" CT_EVENT_SHARED_INSTANCE "' tracefs instance could not be read into the store: %s; "
			 "what arrived while no follower ran is not stored", ct_context_message(env->ctx));
		return;
	}
	events_store_tick(env, &run->store, true);
	cmd_info(env, 0, "%" PRIu64 " records that arrived while no follower ran stored from the '"
		 CT_EVENT_SHARED_INSTANCE "' tracefs instance", ct_event_store_stats(run->store.s)->stored - before);
}

int events_from_trace(struct events_run *run)
{
	struct cmd_env *env = run->env;
	struct ct_event_source_opts o = { .shared = !run->follow, .role = "follow" };
	struct ct_event_source *s;
	const char *const *stale;
	size_t nstale;
	int rc, crc;

	if (run->follow)
		catch_stop_signals();
	if ((rc = ct_event_source_open(env->ctx, &o, &s))) {
		if (run->follow || !run->store.s)
			return exit_for(env, rc);
		cmd_warn(env, "what is live cannot be read (%s): the stored history alone", ct_context_message(env->ctx));
		return show_stored(run) ? EXIT_FAIL : EXIT_OK;
	}
	nstale = ct_event_source_stale_removed(s, &stale);
	for (size_t i = 0; i < nstale; i++)
		cmd_info(env, 0, "removed the tracefs instance %s: the cxltier that owned it is gone", stale[i]);
	cmd_info(env, 1, "reading the kernel's tracepoints from tracefs instance %s: the kernel drains the device "
		 "event logs itself (raw Get Event Records would race with it, and raw mailbox commands are off in "
		 "distribution kernels)", ct_event_source_instance(s));
	if (!run->follow && ct_event_source_created(s) && !env->out.json)
		fprintf(stderr, "cxltier events: started keeping CXL events in the '" CT_EVENT_SHARED_INSTANCE "' tracefs "
			"instance; events from now on show here ('cxltier events --stop' ends it)\n");
	if (ct_event_source_reenabled(s))
		cmd_warn(env, "the '" CT_EVENT_SHARED_INSTANCE "' tracefs instance was not recording (its cxl events "
			 "or its tracing were off: cxl_core reloaded, or an 'events --stop' that could not remove it); "
			 "turned it on again: events from before now may be missing");
	if (run->follow && run->store.s)
		drain_shared(run, ct_event_source_recording_since(s));
	if (run->follow) {
		rc = ct_event_source_follow(s, on_event, follow_tick, run, &stop, 100, STDOUT_FILENO);
		events_store_close(env, &run->store);	/* what the last read gave, written */
	} else {
		show_stored(run);
		rc = read_shared(run, s);
	}
	if (rc == -EPIPE && !run->out_err)
		run->out_err = rc;	/* seen before a write failed */
	if (run->out_err && run->out_err != -EPIPE)	/* EPIPE: the reader went away, a normal end */
		cmd_err(env, "cannot write the events to stdout: %s", strerror(-run->out_err));
	else if (rc && !run->out_err)
		cmd_err(env, "%s", ct_context_message(env->ctx));
	run->unshown.overwritten = ct_event_source_lost(s);
	if (run->unshown.overwritten)
		cmd_warn(env, "%lu records were lost in the trace buffer of %s (they came faster than they were read)",
			 run->unshown.overwritten, ct_event_source_instance(s));
	crc = ct_event_source_close(s);
	if (crc)
		cmd_err(env, "%s", ct_context_message(env->ctx));
	if ((rc && run->out_err != -EPIPE) || crc)
		return EXIT_FAIL;
	/* shown, and the rest lost, or the store in trouble: said above */
	return run->unshown.failed || run->store.failed ? EXIT_PARTIAL : EXIT_OK;
}

/* --history: the store alone, no tracefs (nothing live is read or consumed) */
int events_history(struct events_run *run, const char *config, const char *store_path, json_object *root)
{
	struct cmd_env *env = run->env;
	int rc;

	if ((rc = events_store_open(env, &run->store, config, store_path, false)))
		return rc;
	if (!run->store.s) {
		if (run->store.failed)
			return EXIT_FAIL;	/* said */
		cmd_info(env, 0, "no event store at %s yet: cxltier-events.service (events --follow --store) makes it",
			 run->store.path);
	}
	if (show_stored(run))
		return EXIT_FAIL;
	if (run->summary)
		events_summary_retired(events_summary_json(root, &run->sum), &run->store, &run->memdevs);
	events_store_json(root, &run->store);
	return run->summary ? events_summary_print(env, root) : events_print(env, root);
}
