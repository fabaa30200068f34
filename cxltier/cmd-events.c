// SPDX-License-Identifier: GPL-2.0-only
/* cmd-events.c - `cxltier events`: CXL event records the kernel drained
 * from the devices' event logs (tracepoints cxl:*), decoded (lib/events/event-source.h
 * reads them from a tracefs instance of cxltier's own) */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cmd.h"
#include "events-table.h"
#include "filter.h"
#include "json-build.h"
#include "core/context.h"
#include "events/event-source.h"

struct run {
	struct cmd_env *env;
	struct name_filter memdevs, types;
	int severities;		/* bitmask of wanted severities, 0: all */
	uint64_t since_ns;
	bool follow;
	json_object *arr;	/* collected (not follow) */
	int out_err;		/* -errno of the first failed write (--follow) */
	struct events_unshown unshown;	/* what the run read and did not show */
};

#define KEEP_LOCK_MS 30000	/* another reader of the shared instance: wait for it */

static void usage(void)
{
	printf("usage: cxltier events [MEMDEV...] [--follow] [--type T] [--severity S] [--since WHEN] [-j]\n"
	       "       cxltier events --stop\n"
	       "       cxltier events --file RECORDS.bin\n\n"
	       "CXL event records (General Media, DRAM, Memory Module, poison, overflow, AER)\n"
	       "as the kernel drained them from the devices (kernel 6.3+ tracepoints), decoded.\n"
	       "cxltier keeps them in a tracefs instance of its own ('" CT_EVENT_SHARED_INSTANCE "'): the first\n"
	       "run creates it; later runs print and consume what arrived since (what their\n"
	       "filters hide is kept for a later run).\n\n"
	       "  -f, --follow        stream events until interrupted (a private instance; one\n"
	       "                      JSON object per line with -j, flushed)\n"
	       "      --type LIST     general_media,dram,memory_module,poison,overflow,aer,generic\n"
	       "      --severity LIST informational,warning,failure,fatal\n"
	       "      --since WHEN    only events newer than WHEN: 30s, 10m, 2h, 1d, or @EPOCH\n"
	       "      --stop          remove cxltier's instance (stop collecting)\n"
	       "      --file F        decode 128-byte event records (Get Event Records payloads)\n");
	events_columns_help();
}

static bool wanted(struct run *run, const struct ct_event *e)
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
	return true;
}

static int on_event(const struct ct_event *e, void *arg)
{
	struct run *run = arg;

	if (!wanted(run, e))
		return run->follow ? 0 : CT_EVENT_KEEP;	/* read, so kept for a later run */
	if (run->follow)
		return run->out_err = events_print_line(run->env, e);
	json_object_array_add(run->arr, events_json(e));
	return 0;
}

static int parse_since(const char *s, uint64_t *ns)
{
	char *end;
	double v;
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	if (s[0] == '@') {
		v = strtod(s + 1, &end);
		if (end == s + 1 || *end || !(v >= 0) || v > 1e10)	/* after the year 2286: a typo */
			return -1;
		*ns = (uint64_t)(v * 1e9);
		return 0;
	}
	v = strtod(s, &end);
	if (end == s || !(v >= 0))
		return -1;
	switch (*end) {
	case 's': case '\0': break;
	case 'm': v *= 60; break;
	case 'h': v *= 3600; break;
	case 'd': v *= 86400; break;
	default: return -1;
	}
	if (*end && end[1])
		return -1;
	if (v * 1e9 > (double)now.tv_sec * 1e9 + now.tv_nsec)
		return -2;	/* before 1970 */
	*ns = (uint64_t)now.tv_sec * 1000000000ULL + now.tv_nsec - (uint64_t)(v * 1e9);
	return 0;
}

static int from_file(struct run *run, const char *path)
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
static int read_shared(struct run *run, struct ct_event_source *s)
{
	struct ct_event_keep_report rep;
	int rc = ct_event_source_read_shared(s, on_event, run, KEEP_LOCK_MS, &rep);

	events_unshown_report(run->env, &rep, &run->unshown);
	return rc;
}

static int from_trace(struct run *run)
{
	struct cmd_env *env = run->env;
	struct ct_event_source_opts o = { .shared = !run->follow, .role = "follow" };
	struct ct_event_source *s;
	const char *const *stale;
	size_t nstale;
	int rc, crc;

	if (run->follow)
		catch_stop_signals();
	if ((rc = ct_event_source_open(env->ctx, &o, &s)))
		return exit_for(env, rc);
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
	if (run->follow)
		rc = ct_event_source_follow(s, on_event, run, &stop, 100, STDOUT_FILENO);
	else
		rc = read_shared(run, s);
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
	return run->unshown.failed ? EXIT_PARTIAL : EXIT_OK;	/* shown, and the rest lost: said above */
}

static int parse_filters(struct run *run, struct name_filter *sev)
{
	struct cmd_env *env = run->env;

	for (size_t i = 0; i < sev->count; i++) {
		int s = ct_severity_parse(sev->names[i]);
		if (s < 0) {
			cmd_err(env, "--severity %s: informational, warning, failure or fatal", sev->names[i]);
			return EXIT_USAGE;
		}
		run->severities |= 1 << s;
	}
	for (size_t i = 0; i < run->types.count; i++)
		if (ct_event_kind_parse(run->types.names[i]) < 0) {
			cmd_err(env, "--type %s: general_media, dram, memory_module, poison, overflow, aer or generic",
				run->types.names[i]);
			return EXIT_USAGE;
		}
	return EXIT_OK;
}

int cmd_events(int argc, char **argv, struct cmd_env *env)
{
	enum { OPT_TYPE = 0x7001, OPT_SEVERITY, OPT_SINCE, OPT_STOP, OPT_FILE };
	static const struct option opts[] = {
		{ "follow", no_argument, NULL, 'f' },
		{ "type", required_argument, NULL, OPT_TYPE },
		{ "severity", required_argument, NULL, OPT_SEVERITY },
		{ "since", required_argument, NULL, OPT_SINCE },
		{ "stop", no_argument, NULL, OPT_STOP },
		{ "file", required_argument, NULL, OPT_FILE },
		COMMON_LONG_OPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct run run = { .env = env };
	struct name_filter sev = { 0 };
	const char *file = NULL;
	bool stop_inst = false, removed;
	json_object *root = NULL;
	int c, since_rc, rc = EXIT_OK;

	env->opts = opts;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "f" COMMON_SHORT_OPTS, opts, NULL)) != -1) {
		switch (c) {
		case 'f': run.follow = true; break;
		case OPT_TYPE: filter_add(&run.types, optarg); break;
		case OPT_SEVERITY: filter_add(&sev, optarg); break;
		case OPT_STOP: stop_inst = true; break;
		case OPT_FILE: file = optarg; break;
		case OPT_SINCE:
			if ((since_rc = parse_since(optarg, &run.since_ns))) {
				cmd_err(env, since_rc == -2 ? "--since %s: that is before 1970; give a time since then"
					: "--since %s: give 30s, 10m, 2h, 1d or @EPOCH", optarg);
				rc = EXIT_USAGE;
				goto out;
			}
			break;
		default:
			if ((rc = cmd_common_opt(env, c, optarg, argc, argv, usage))) {
				rc = cmd_exit_code(rc);
				goto out;
			}
		}
	}
	if ((rc = parse_filters(&run, &sev)))
		goto out;
	for (int i = optind; i < argc; i++)
		filter_add(&run.memdevs, argv[i]);
	root = json_object_new_object();
	run.arr = jb_arr(root, "events");
	if (file) {
		if ((rc = from_file(&run, file)) == EXIT_OK)
			rc = events_print(env, root);
		goto out;
	}
	env->sysroot = NULL;	/* the tracepoints are the running kernel's */
	if ((rc = cmd_context(env)))
		goto out;
	if (stop_inst) {
		if (ct_event_shared_remove(env->ctx, &removed))
			rc = exit_for(env, -EIO);
		else if (removed)
			fprintf(stderr, "cxltier events: removed the '" CT_EVENT_SHARED_INSTANCE "' tracefs instance; "
				"events are no longer kept\n");
		goto out;
	}
	rc = from_trace(&run);
	if ((rc == EXIT_OK || rc == EXIT_PARTIAL) && !run.follow) {
		int prc;
		events_unshown_json(root, &run.unshown);
		prc = events_print(env, root);
		rc = prc ? prc : rc;
	}
out:
	json_object_put(root);
	filter_free(&run.memdevs);
	filter_free(&run.types);
	filter_free(&sev);
	return rc;
}
