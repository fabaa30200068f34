// SPDX-License-Identifier: GPL-2.0-only
/* cmd-events.c - `cxltier events`: CXL event records the kernel drained
 * from the devices' event logs (tracepoints cxl:*), decoded: the follower
 * (lib/jobs/event-follow.h) or a reading run (lib/jobs/event-read.h), its
 * records shown by events-json.c and events-table.c, its summary by
 * events-overview.c */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/filter.h"
#include "cli/job-exit.h"
#include "cli/json-build.h"
#include "cli/run-signals.h"
#include "events-args.h"
#include "events-imported.h"
#include "events-journal.h"
#include "events-json.h"
#include "events-overview.h"
#include "events-table.h"
#include "events-unshown.h"
#include "core/context.h"
#include "events/event-store.h"
#include "jobs/event-follow.h"
#include "jobs/event-import.h"
#include "jobs/event-read.h"

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

/* the records shown: the job's rows (the store's, or a file's), each made
 * as it is printed, then what is live, collected */
struct shown {
	struct ct_event_rows *rows;
	uint64_t nrows, next;	/* the row the rows give next */
	json_object *live;
	int rc;			/* the rows could not be read */
};

static int collect(const struct ct_event *e, void *arr)
{
	json_object_array_add(arr, events_json(e));
	return 0;
}

static json_object *row(void *arg, size_t i)
{
	static struct ct_event e;
	struct shown *s = arg;
	int rc = 1;

	if (i >= s->nrows)
		return json_object_get(json_object_array_get_idx(s->live, i - s->nrows));
	if (i < s->next) {	/* (a table's second pass) */
		ct_event_rows_rewind(s->rows);
		s->next = 0;
	}
	while (s->next <= i && (rc = ct_event_rows_next(s->rows, &e)) == 1)
		s->next++;
	if (rc != 1) {
		s->rc = rc ? rc : -ENODATA;
		return json_object_new_object();
	}
	return events_json(&e);
}

/* what the run read, shown: the records or their summary, with what the
 * shared read did not show and the store's figures */
static int show_read(struct cmd_env *env, const struct ct_event_read_opts *o, const struct ct_event_read_report *rep,
		     json_object *root, struct shown *s)
{
	json_object *store;
	int rc;

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
	if (o->summary)
		return events_overview_print(env, root);
	rc = events_print(env, root, s->nrows + json_object_array_length(s->live), row, s);
	if (!rc && s->rc) {
		cmd_err(env, "the records stopped short: %s", s->rc == -ENODATA ? "fewer than counted" :
			ct_context_message(env->ctx));
		rc = EXIT_FAIL;
	}
	return rc;
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
	struct shown s = { .live = json_object_new_array() };
	int rc;

	jb_arr(root, "events");
	o.show_arg = s.live;
	ct_event_read(env->ctx, &o, &rep);
	s.rows = rep.rows;
	s.nrows = rep.nrows;
	rc = cmd_job_exit(rep.end);
	if ((rep.end == CT_JOB_DONE || rep.end == CT_JOB_PARTIAL) && o.from != CT_EVENT_READ_STOP) {
		int prc = show_read(env, &o, &rep, root, &s);
		rc = prc ? prc : rc;
	}
	ct_event_read_report_free(&rep);
	json_object_put(s.live);
	json_object_put(root);
	return rc;
}

/* ---- rasdaemon's history ---- */

static int import_rasdaemon(struct cmd_env *env, const struct events_args *a, const char *path)
{
	struct ct_event_import_opts o = { .path = path, .store_path = a->store_path, .config = a->config };
	struct ct_event_import_report rep;
	int rc;

	ct_event_import(env->ctx, &o, &rep);
	rc = cmd_job_exit(rep.end);
	if (rep.end == CT_JOB_DONE || rep.end == CT_JOB_PARTIAL) {
		int prc = events_import_print(env, &rep);
		rc = prc ? prc : rc;
	}
	return rc;
}

static int run(struct cmd_env *env, void *args, int argc, char **argv)
{
	struct events_args *a = args;
	int rc;

	/* (with --import-rasdaemon the operand is rasdaemon's database) */
	if (!a->import_rasdaemon && (rc = events_make_filter(env, a, argc, argv)))
		goto out;
	if ((rc = events_check_modes(env, a, argc)))
		goto out;
	if ((rc = cmd_context(env)))
		goto out;
	if (a->import_rasdaemon)
		rc = import_rasdaemon(env, a, argc ? argv[0] : NULL);
	else if (a->follow && !a->file && !a->history && !a->stop)
		rc = follow(env, a);
	else
		rc = read_records(env, a);
out:
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
	{ .name = "since", .arg = "WHEN", .store = CLI_PARSE, .parse = events_parse_since,
	  .help = "only events from WHEN on: 30s, 5min, 1w (ago), -1h, yesterday,\nISO 8601 (as TIME prints it), @EPOCH (systemd.time(7))" },
	{ .name = "until", .arg = "WHEN", .store = CLI_PARSE, .parse = events_parse_until,
	  .help = "only events before WHEN (the same forms)" },
	{ .name = "summary", .store = CLI_FLAG, .offset = ARG(summary),
	  .help = "the records counted per memdev, kind, severity and day, and the\npages with the most corrected errors" },
	{ .name = "stop", .store = CLI_FLAG, .offset = ARG(stop), .help = "remove cxltier's instance (stop collecting)" },
	{ .name = "file", .arg = "RECORDS.bin", .store = CLI_STRING, .offset = ARG(file), .complete = CLI_C_FILE,
	  .help = "decode 128-byte event records (Get Event Records payloads)" },
	{ .name = "import-rasdaemon", .store = CLI_FLAG, .offset = ARG(import_rasdaemon),
	  .help = "take rasdaemon's CXL records into the store, each once: from the\ndatabase given as the operand, else " CT_RASDAEMON_DB },
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
		    "--file RECORDS.bin [--store] [-j]\n"
		    "--import-rasdaemon [PATH] [--store-path PATH] [-j]",
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
