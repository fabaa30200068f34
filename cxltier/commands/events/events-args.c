// SPDX-License-Identifier: GPL-2.0-only
/* events-args.c - what `cxltier events` is given, read and checked: see
 * events-args.h */
#include <errno.h>
#include <time.h>
#include "events-args.h"
#include "core/time-parse.h"

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

int events_parse_since(struct cmd_env *env, void *args, const char *arg)
{
	return parse_time(env, "since", arg, &((struct events_args *)args)->since_ns);
}

int events_parse_until(struct cmd_env *env, void *args, const char *arg)
{
	return parse_time(env, "until", arg, &((struct events_args *)args)->until_ns);
}

/* the filters as the jobs take them: the operands, kinds and severities */
int events_make_filter(struct cmd_env *env, struct events_args *a, int argc, char **argv)
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

/* --import-rasdaemon: into the store, rasdaemon's database alone */
static const char *import_bad(const struct events_args *a, int argc)
{
	if (a->follow || a->file || a->history || a->summary || a->stop || a->no_store || a->store || a->drain ||
	    a->journal)
		return "--import-rasdaemon takes rasdaemon's history into the store: not with --follow, --file, "
		       "--history, --summary, --stop, --drain, --journal, --no-store or --store";
	if (a->types.count || a->severities.count || a->since_ns || a->until_ns)
		return "--import-rasdaemon takes every CXL record of rasdaemon's: not with --type, --severity, --since "
		       "or --until";
	if (argc > 1)
		return "--import-rasdaemon takes one database (its path), or none: rasdaemon's own";
	return NULL;
}

/* the options that go together */
int events_check_modes(struct cmd_env *env, const struct events_args *a, int argc)
{
	const char *bad = NULL;

	if (a->import_rasdaemon)
		bad = import_bad(a, argc);
	else if (a->store && !a->follow && !a->file)
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

