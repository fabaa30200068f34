// SPDX-License-Identifier: GPL-2.0-only
/* cmd-events.c - `cxltier events`: CXL event records the kernel drained
 * from the devices' event logs (tracepoints cxl:*), decoded: the follower
 * (lib/jobs/event-follow.h) or a reading run (lib/jobs/event-read.h), its
 * records shown by events-json.c and events-table.c, its summary by
 * events-overview.c */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/filter.h"
#include "cli/job-exit.h"
#include "cli/json-build.h"
#include "cli/run-signals.h"
#include "events-journal.h"
#include "events-json.h"
#include "events-overview.h"
#include "events-table.h"
#include "events-unshown.h"
#include "core/context.h"
#include "core/time-parse.h"
#include "events/event-store.h"
#include "jobs/event-follow.h"
#include "jobs/event-read.h"

struct events_args {
	bool follow, store, no_store, summary, history, stop, drain, journal;
	const char *store_path, *config, *file;
	struct name_filter types, severities, memdevs;
	uint64_t since_ns, until_ns;
	struct ct_event_filter filter;	/* the above, as the jobs take it */
};

/* --since, --until: a point in time as systemd.time(7) writes it (what
 * journalctl takes, and what the TIME column and the JSON print); a bare
 * span means that long ago */
static int parse_when(const char *s, uint64_t *ns)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	return ct_parse_time(s, (uint64_t)now.tv_sec * CT_NS_PER_SEC + (uint64_t)now.tv_nsec, ns);
}

static int parse_time(struct cmd_env *env, const char *opt, const char *arg, uint64_t *ns)
{
	int rc = parse_when(arg, ns);

	if (!rc)
		return EXIT_OK;
	if (rc == -ERANGE)
		cmd_err(env, "--%s %s: that is before 1970 or after 2262; give a time between them", opt, arg);
	else
		cmd_err(env, "--%s %s: not a time; give one as systemd.time(7) writes it: a span ago (30s, 5min, 2h, "
			"1w), -1h, yesterday, today, now, 2026-12-01 10:00, 2026-12-01T10:00:00Z (as TIME prints), "
			"or @EPOCH", opt, arg);
	return EXIT_USAGE;
}

static int parse_since(struct cmd_env *env, void *args, const char *arg)
{
	return parse_time(env, "since", arg, &((struct events_args *)args)->since_ns);
}

static int parse_until(struct cmd_env *env, void *args, const char *arg)
{
	return parse_time(env, "until", arg, &((struct events_args *)args)->until_ns);
}

/* the filters as the jobs take them: the operands, kinds and severities */
static int make_filter(struct cmd_env *env, struct events_args *a, int argc, char **argv)
{
	struct ct_event_filter *f = &a->filter;

	for (size_t i = 0; i < a->severities.count; i++) {
		int s = ct_severity_parse(a->severities.names[i]);
		if (s < 0) {
			cmd_err(env, "--severity %s: informational, warning, failure or fatal", a->severities.names[i]);
			return EXIT_USAGE;
		}
		f->severities |= 1u << s;
	}
	for (size_t i = 0; i < a->types.count; i++) {
		int k = ct_event_kind_parse(a->types.names[i]);
		if (k < 0) {
			cmd_err(env, "--type %s: general_media, dram, memory_module, poison, overflow, aer or generic",
				a->types.names[i]);
			return EXIT_USAGE;
		}
		f->kinds |= 1u << k;
	}
	for (int i = 0; i < argc; i++)
		if (filter_add(&a->memdevs, argv[i])) {
			cmd_err(env, "out of memory");
			return EXIT_FAIL;
		}
	f->memdevs = (const char *const *)a->memdevs.names;
	f->nmemdevs = a->memdevs.count;
	f->since_ns = a->since_ns;
	f->until_ns = a->until_ns;
	return EXIT_OK;
}

/* the options that go together */
static int check_modes(struct cmd_env *env, const struct events_args *a)
{
	const char *bad = NULL;

	if (a->store && !a->follow && !a->file)
		bad = "--store goes with --follow or --file (what they read is written to the store; a run without "
		      "them reads it)";
	else if (a->history && (a->follow || a->file || a->no_store || a->stop))
		bad = "--history shows the stored history alone: not with --follow, --file, --no-store or --stop";
	else if (a->summary && a->follow)
		bad = "--summary counts the history: not with --follow";
	else if (a->no_store && (a->store || a->store_path))
		bad = "--no-store: not with --store or --store-path";
	else if (a->file && a->summary)
		bad = "--file decodes records from a file: not with --summary";
	else if (a->stop && (a->store || a->store_path || a->summary))
		bad = "--stop: not with the store or --summary";
	else if (a->drain && (a->follow || a->history || a->file || a->stop))
		bad = "--drain reads the shared instance once, consuming what it shows: not with --follow, --history, "
		      "--file or --stop";
	else if (a->journal && !a->follow)
		bad = "--journal sends what --follow reads to the journal: not without --follow";
	else if (a->since_ns && a->until_ns && a->until_ns <= a->since_ns)
		bad = "--until is not after --since: no record can be between them";
	if (!bad)
		return EXIT_OK;
	cmd_err(env, "%s", bad);
	return EXIT_USAGE;
}

/* ---- the follower ---- */

/* a record the follower shows: one line, flushed */
static int show_line(const struct ct_event *e, void *arg)
{
	json_object *o = events_json(e);
	int rc = events_print_line(arg, e, o);

	json_object_put(o);
	return rc;
}

/* a record the follower shows, as a journal entry of its own */
static int show_journal(const struct ct_event *e, void *arg)
{
	json_object *o = events_json(e);
	char detail[256];
	int rc;

	(void)arg;
	events_detail(o, detail, sizeof(detail));
	rc = events_journal_send(e, o, detail);
	json_object_put(o);
	return rc;
}

static int follow(struct cmd_env *env, const struct events_args *a)
{
	bool journal = a->journal || events_journal_stream();
	struct ct_event_follow_opts o = {
		.store = a->store, .store_path = a->store_path, .config = a->config, .filter = a->filter,
		.show = journal ? show_journal : show_line, .show_arg = env, .stop = run_signals_stop_flag(),
		.watch_fd = journal ? -1 : STDOUT_FILENO, .say_made = journal,
	};
	struct ct_event_follow_report rep;

	ct_event_follow(env->ctx, &o, &rep);
	if (rep.show_rc && rep.show_rc != -EPIPE)	/* EPIPE: the reader went away, a normal end */
		cmd_err(env, "cannot write the events to %s: %s", journal ? "the journal" : "stdout",
			strerror(-rep.show_rc));
	return cmd_job_exit(rep.end);
}

/* ---- a reading run ---- */

static int collect(const struct ct_event *e, void *arr)
{
	json_object_array_add(arr, events_json(e));
	return 0;
}

/* what the run read, shown: the records or their summary, with what the
 * shared read did not show and the store's figures */
static int show_read(struct cmd_env *env, const struct ct_event_read_opts *o, const struct ct_event_read_report *rep,
		     json_object *root)
{
	json_object *store;

	if (o->summary) {
		json_object *summary;
		json_object_object_del(root, "events");
		summary = events_overview_json(root, &rep->summary);
		if (rep->have_retired)
			events_overview_retired(summary, rep->retired, rep->nretired);
	} else if (o->from == CT_EVENT_READ_LIVE) {
		events_unshown_json(root, rep);
	}
	if (rep->have_store) {
		store = jb_obj(root, "store");
		jb_str(store, "path", rep->store_path);
		jb_u64(store, "shown", rep->shown);
		if (rep->have_totals) {
			jb_u64(store, "records", rep->records);
			jb_u64(store, "pruned", rep->pruned);
		}
	}
	return o->summary ? events_overview_print(env, root) : events_print(env, root);
}

static int read_records(struct cmd_env *env, const struct events_args *a)
{
	struct ct_event_read_opts o = {
		.from = a->file ? CT_EVENT_READ_FILE : a->history ? CT_EVENT_READ_HISTORY
			: a->stop ? CT_EVENT_READ_STOP : CT_EVENT_READ_LIVE,
		.no_store = a->no_store, .consume = a->drain, .store = a->store, .file = a->file, .store_path = a->store_path,
		.config = a->config, .filter = a->filter, .summary = a->summary, .say_made = true,
		.show = collect,
	};
	struct ct_event_read_report rep;
	json_object *root = json_object_new_object();
	int rc;

	o.show_arg = jb_arr(root, "events");
	ct_event_read(env->ctx, &o, &rep);
	rc = cmd_job_exit(rep.end);
	if ((rep.end == CT_JOB_DONE || rep.end == CT_JOB_PARTIAL) && o.from != CT_EVENT_READ_STOP) {
		int prc = show_read(env, &o, &rep, root);
		rc = prc ? prc : rc;
	}
	ct_event_read_report_free(&rep);
	json_object_put(root);
	return rc;
}

static int run(struct cmd_env *env, void *args, int argc, char **argv)
{
	struct events_args *a = args;
	int rc;

	if (!(rc = make_filter(env, a, argc, argv)) && !(rc = check_modes(env, a))) {
		if (!(rc = cmd_context(env)))
			rc = a->follow && !a->file && !a->history && !a->stop ? follow(env, a) : read_records(env, a);
	}
	filter_free(&a->memdevs);
	return rc;
}

#define ARG(field) offsetof(struct events_args, field)
static const struct cli_opt opts[] = {
	{ .name = "follow", .key = 'f', .store = CLI_FLAG, .offset = ARG(follow),
	  .help = "stream events until interrupted (a private instance; one\nJSON object per line with -j, flushed)" },
	{ .name = "store", .store = CLI_FLAG, .offset = ARG(store),
	  .help = "with --follow: also write every record read into the store;\nwith --file: write the file's records into it" },
	{ .name = "store-path", .arg = "PATH", .store = CLI_STRING, .offset = ARG(store_path), .complete = CLI_C_FILE,
	  .help = "the store (default: [events] store = of the configuration,\nelse " CT_EVENT_STORE_PATH ")" },
	{ .name = "drain", .store = CLI_FLAG, .offset = ARG(drain),
	  .help = "read the shared instance once and consume what is shown (it\nis made when missing, and then keeps events from now on)" },
	{ .name = "journal", .store = CLI_FLAG, .offset = ARG(journal),
	  .help = "with --follow: each record a journal entry of its own (the\ndefault when stdout and stderr are the journal)" },
	{ .name = "history", .store = CLI_FLAG, .offset = ARG(history),
	  .help = "the stored history alone (nothing live is read or consumed)" },
	{ .name = "no-store", .store = CLI_FLAG, .offset = ARG(no_store),
	  .help = "what is live only, not the stored history" },
	{ .name = "config", .arg = "FILE", .store = CLI_STRING, .offset = ARG(config), .complete = CLI_C_FILE,
	  .help = "the [events] section of FILE, not /etc/cxltier.conf" },
	{ .name = "type", .arg = "LIST", .store = CLI_LIST, .offset = ARG(types), .complete = CLI_C_WORDS,
	  .words = "general_media dram memory_module poison overflow aer generic",
	  .help = "general_media,dram,memory_module,poison,overflow,aer,generic" },
	{ .name = "severity", .arg = "LIST", .store = CLI_LIST, .offset = ARG(severities), .complete = CLI_C_WORDS,
	  .words = "informational warning failure fatal", .help = "informational,warning,failure,fatal" },
	{ .name = "since", .arg = "WHEN", .store = CLI_PARSE, .parse = parse_since,
	  .help = "only events from WHEN on: 30s, 5min, 1w (ago), -1h, yesterday,\nISO 8601 (as TIME prints it), @EPOCH (systemd.time(7))" },
	{ .name = "until", .arg = "WHEN", .store = CLI_PARSE, .parse = parse_until,
	  .help = "only events before WHEN (the same forms)" },
	{ .name = "summary", .store = CLI_FLAG, .offset = ARG(summary),
	  .help = "the records counted per memdev, kind, severity and day, and the\npages with the most corrected errors" },
	{ .name = "stop", .store = CLI_FLAG, .offset = ARG(stop), .help = "remove cxltier's instance (stop collecting)" },
	{ .name = "file", .arg = "RECORDS.bin", .store = CLI_STRING, .offset = ARG(file), .complete = CLI_C_FILE,
	  .help = "decode 128-byte event records (Get Event Records payloads)" },
	{ NULL },
};
static const struct out_table *const tables[] = { &events_table, NULL };

const struct cli_command command_events = {
	.name = "events",
	.summary = "CXL event records (media, DRAM, module, poison) drained by the kernel, decoded",
	.synopsis = "[MEMDEV...] [filters] [--summary] [--history | --no-store] [--store-path PATH] [-j]\n"
		    "--drain [MEMDEV...] [filters] [-j]\n"
		    "--follow [--store] [--journal] [MEMDEV...] [filters] [-j]\n"
		    "--stop\n"
		    "--file RECORDS.bin [--store] [-j]",
	.about = "CXL event records (General Media, DRAM, Memory Module, poison, overflow, AER)\n"
		 "as the kernel drained them from the devices (kernel 6.3+ tracepoints), decoded:\n"
		 "the history the follower stored (cxltier-events.service: " CT_EVENT_STORE_PATH "),\n"
		 "then what the tracefs instance '" CT_EVENT_SHARED_INSTANCE "' holds. A plain run makes nothing and\n"
		 "consumes nothing: what it reads stays for the next run. --drain makes the instance\n"
		 "when missing (it then keeps events from now on) and consumes what it shows;\n"
		 "--follow streams them. The filters: --type, --severity, --since and --until.",
	.notes = "-o also takes any_key: any other key of the JSON (lower case, 'a.b' descends), or\n"
		 "any field of the tracepoint under the kernel's name (the keys of \"fields\").\n"
		 "With --summary, -o picks among the memdevs' table's columns: MEMDEV, SERIAL, RECORDS,\n"
		 "GENERAL_MEDIA, DRAM, MEMORY_MODULE, POISON, AER, OTHER, INFO, WARN, FAIL, FATAL.",
	.opts = opts,
	.tables = tables,
	.args_size = sizeof(struct events_args),
	.operands = "MEMDEV",
	.operand_kind = CLI_C_MEMDEV,
	.max_operands = -1,
	.flags = CLI_NO_CONTEXT,
	.run = run,
};
