// SPDX-License-Identifier: GPL-2.0-only
/* cmd-events.c - `cxltier events`: CXL event records the kernel drained
 * from the devices' event logs (tracepoints cxl:*), decoded (lib/events/event-source.h
 * reads them from a tracefs instance of cxltier's own) */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli/cli.h"
#include "events-run.h"
#include "events-summary.h"
#include "events-table.h"
#include "cli/filter.h"
#include "cli/json-build.h"
#include "core/context.h"
#include "events/event-source.h"

static void usage(void)
{
	printf("usage: cxltier events [MEMDEV...] [--type T] [--severity S] [--since WHEN] [--until WHEN]\n"
	       "                      [--summary] [--history | --no-store] [-j]\n"
	       "       cxltier events --follow [--store] [filters] [-j]\n"
	       "       cxltier events --stop\n"
	       "       cxltier events --file RECORDS.bin [--store]\n\n"
	       "CXL event records (General Media, DRAM, Memory Module, poison, overflow, AER)\n"
	       "as the kernel drained them from the devices (kernel 6.3+ tracepoints), decoded:\n"
	       "the history the follower stored (cxltier-events.service: " CT_EVENT_STORE_PATH "),\n"
	       "then what is live. cxltier keeps live records in a tracefs instance of its own\n"
	       "('" CT_EVENT_SHARED_INSTANCE "'): the first run creates it; later runs print and consume what\n"
	       "arrived since (what their filters hide is kept for a later run).\n\n"
	       "  -f, --follow        stream events until interrupted (a private instance; one\n"
	       "                      JSON object per line with -j, flushed)\n"
	       "      --store         with --follow: also write every record read into the store\n"
	       "      --store-path P  the store (default: [events] store = of the configuration,\n"
	       "                      else " CT_EVENT_STORE_PATH ")\n"
	       "      --history       the stored history alone (nothing live is read or consumed)\n"
	       "      --no-store      what is live only, not the stored history\n"
	       "      --config FILE   the [events] section of FILE, not /etc/cxltier.conf\n"
	       "      --type LIST     general_media,dram,memory_module,poison,overflow,aer,generic\n"
	       "      --severity LIST informational,warning,failure,fatal\n"
	       "      --since WHEN    only events from WHEN on: 30s, 10m, 2h, 1d (ago), or @EPOCH\n"
	       "      --until WHEN    only events before WHEN (the same forms)\n"
	       "      --summary       the records counted per memdev, kind, severity and day, and the\n"
	       "                      pages with the most corrected errors\n"
	       "      --stop          remove cxltier's instance (stop collecting)\n"
	       "      --file F        decode 128-byte event records (Get Event Records payloads);\n"
	       "                      with --store, also write them into the store\n");
	events_columns_help();
	printf("\nWith --summary, the columns of the memdevs' table:\n");
	events_summary_columns_help();
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

static int parse_filters(struct events_run *run, struct name_filter *sev)
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

/* the options that go together */
static int check_modes(struct events_run *run, bool store_write, bool no_store, const char *store_path, const char *file,
		       bool stop_inst)
{
	const char *bad = NULL;

	if (store_write && !run->follow && !file)
		bad = "--store goes with --follow or --file (what they read is written to the store; a run without "
		      "them reads it)";
	else if (run->history && (run->follow || file || no_store || stop_inst))
		bad = "--history shows the stored history alone: not with --follow, --file, --no-store or --stop";
	else if (run->summary && run->follow)
		bad = "--summary counts the history: not with --follow";
	else if (no_store && (store_write || store_path))
		bad = "--no-store: not with --store or --store-path";
	else if (file && run->summary)
		bad = "--file decodes records from a file: not with --summary";
	else if (stop_inst && (store_write || store_path || run->summary))
		bad = "--stop: not with the store or --summary";
	else if (run->since_ns && run->until_ns && run->until_ns <= run->since_ns)
		bad = "--until is not after --since: no record can be between them";
	if (!bad)
		return EXIT_OK;
	cmd_err(run->env, "%s", bad);
	return EXIT_USAGE;
}

int cmd_events(int argc, char **argv, struct cmd_env *env)
{
	enum { OPT_TYPE = 0x7001, OPT_SEVERITY, OPT_SINCE, OPT_UNTIL, OPT_STOP, OPT_FILE, OPT_STORE, OPT_STORE_PATH,
	       OPT_NO_STORE, OPT_CONFIG, OPT_SUMMARY, OPT_HISTORY };
	static const struct option opts[] = {
		{ "follow", no_argument, NULL, 'f' },
		{ "type", required_argument, NULL, OPT_TYPE },
		{ "severity", required_argument, NULL, OPT_SEVERITY },
		{ "since", required_argument, NULL, OPT_SINCE },
		{ "until", required_argument, NULL, OPT_UNTIL },
		{ "store", no_argument, NULL, OPT_STORE },
		{ "store-path", required_argument, NULL, OPT_STORE_PATH },
		{ "no-store", no_argument, NULL, OPT_NO_STORE },
		{ "config", required_argument, NULL, OPT_CONFIG },
		{ "summary", no_argument, NULL, OPT_SUMMARY },
		{ "history", no_argument, NULL, OPT_HISTORY },
		{ "stop", no_argument, NULL, OPT_STOP },
		{ "file", required_argument, NULL, OPT_FILE },
		COMMON_LONG_OPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct events_run run = { .env = env };
	struct name_filter sev = { 0 };
	const char *file = NULL, *store_path = NULL, *config = NULL;
	bool stop_inst = false, removed, store_write = false, no_store = false;
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
		case OPT_STORE: store_write = true; break;
		case OPT_STORE_PATH: store_path = optarg; break;
		case OPT_NO_STORE: no_store = true; break;
		case OPT_CONFIG: config = optarg; break;
		case OPT_SUMMARY: run.summary = true; break;
		case OPT_HISTORY: run.history = true; break;
		case OPT_SINCE:
		case OPT_UNTIL:
			if ((since_rc = parse_since(optarg, c == OPT_SINCE ? &run.since_ns : &run.until_ns))) {
				cmd_err(env, since_rc == -2 ? "--%s %s: that is before 1970; give a time since then"
					: "--%s %s: give 30s, 10m, 2h, 1d or @EPOCH", c == OPT_SINCE ? "since" : "until",
					optarg);
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
	if ((rc = check_modes(&run, store_write, no_store, store_path, file, stop_inst)))
		goto out;
	for (int i = optind; i < argc; i++)
		filter_add(&run.memdevs, argv[i]);
	root = json_object_new_object();
	run.arr = jb_arr(root, "events");
	env->sysroot = NULL;	/* the tracepoints are the running kernel's */
	if ((rc = cmd_context(env)))
		goto out;
	if (file) {
		if (store_write && (rc = events_store_open(env, &run.store, config, store_path, true)))
			goto out;
		if (store_write && !run.store.s) {
			rc = EXIT_FAIL;	/* said: nothing to write into */
			goto out;
		}
		if ((rc = events_from_file(&run, file)) == EXIT_OK)
			rc = events_print(env, root);
		if (rc == EXIT_OK && run.store.failed)
			rc = EXIT_PARTIAL;
		goto out;
	}
	if (run.history) {
		if (run.summary)
			json_object_object_del(root, "events");
		rc = events_history(&run, config, store_path, root);
		goto out;
	}
	if (stop_inst) {
		if (ct_event_shared_remove(env->ctx, &removed)) {
			cmd_err(env, "%s", ct_context_message(env->ctx));
			rc = EXIT_FAIL;
		}
		else if (removed)
			fprintf(stderr, "cxltier events: removed the '" CT_EVENT_SHARED_INSTANCE "' tracefs instance; "
				"events are no longer kept\n");
		goto out;
	}
	if ((run.follow ? store_write : !no_store) &&
	    (rc = events_store_open(env, &run.store, config, store_path, run.follow)))
		goto out;
	if (run.store.failed && !run.follow)
		cmd_warn(env, "the stored history is not shown: only what is live");
	if (run.follow && run.store.s)
		cmd_info(env, 0, "storing the events in %s", run.store.path);
	if (run.follow)
		events_retire_start(env, &run.retire, &run.store, config);
	rc = events_from_trace(&run);
	if ((rc == EXIT_OK || rc == EXIT_PARTIAL) && !run.follow) {
		int prc;
		if (run.summary) {
			json_object_object_del(root, "events");
			events_summary_retired(events_summary_json(root, &run.sum), &run.store, &run.memdevs);
		} else {
			events_unshown_json(root, &run.unshown);
		}
		events_store_json(root, &run.store);
		prc = run.summary ? events_summary_print(env, root) : events_print(env, root);
		rc = prc ? prc : rc;
	}
out:
	events_store_close(env, &run.store);	/* (its last flush may retire pages) */
	events_retire_stop(&run.retire);
	ct_event_summary_free(&run.sum);
	json_object_put(root);
	filter_free(&run.memdevs);
	filter_free(&run.types);
	filter_free(&sev);
	return rc;
}
