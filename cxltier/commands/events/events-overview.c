// SPDX-License-Identifier: GPL-2.0-only
/* events-overview.c - `events --summary`: the records counted
 * (lib/events/event-summary.h) and the pages retired (lib/events/retire-log.h)
 * as JSON through the one JSON builder, and as tables through the one output
 * layer */
#include <stdio.h>
#include <string.h>
#include "events-overview.h"
#include "cli/json-build.h"
#include "render/time-json.h"

#define TOP_PAGES 10

static const char *const severity_keys[CT_SUMMARY_SEVERITIES] = {
	"informational", "warning", "failure", "fatal", "unknown",
};

static void counts_json(json_object *o, const struct ct_summary_counts *c)
{
	json_object *k = jb_obj(o, "by_kind"), *s = jb_obj(o, "by_severity");

	jb_u64(o, "records", c->records);
	jb_u64(o, "corrected", c->corrected);
	for (int i = 0; i < CT_SUMMARY_KINDS; i++)
		jb_u64(k, ct_event_kind_name((enum ct_event_kind)i), c->by_kind[i]);
	for (int i = 0; i < CT_SUMMARY_SEVERITIES; i++)
		jb_u64(s, severity_keys[i], c->by_severity[i]);
}

static void iso_key(json_object *o, const char *key, uint64_t ns)
{
	char t[64];

	if (!ns)
		return;
	iso_time(ns, t, sizeof(t));
	jb_str(o, key, t);
}

static void device_json(json_object *o, const char *memdev, bool has_serial, uint64_t serial)
{
	jb_str(o, "memdev", memdev);
	if (has_serial)
		jb_u64(o, "serial", serial);
}

json_object *events_overview_json(json_object *root, const struct ct_event_summary *s)
{
	json_object *o = jb_obj(root, "summary"), *a;

	counts_json(o, &s->all);
	iso_key(o, "first", s->first_ns);
	iso_key(o, "last", s->last_ns);
	a = jb_arr(o, "memdevs");
	for (size_t i = 0; i < s->nmemdevs; i++) {
		json_object *m = json_object_new_object();
		device_json(m, s->memdevs[i].memdev, s->memdevs[i].has_serial, s->memdevs[i].serial);
		counts_json(m, &s->memdevs[i].c);
		json_object_array_add(a, m);
	}
	a = jb_arr(o, "days");
	for (size_t i = 0; i < s->ndays; i++) {
		json_object *d = json_object_new_object();
		char t[64];
		iso_time((uint64_t)s->days[i].day * 86400ULL * 1000000000ULL, t, sizeof(t));
		t[10] = '\0';	/* the date */
		jb_str(d, "day", t);
		jb_u64(d, "records", s->days[i].records);
		json_object_array_add(a, d);
	}
	jb_u64(o, "corrected_pages_total", s->pages_total);
	a = jb_arr(o, "corrected_pages");
	for (size_t i = 0; i < s->npages && i < TOP_PAGES; i++) {
		const struct ct_summary_page *p = &s->pages[i];
		json_object *g = json_object_new_object();
		device_json(g, p->memdev, p->has_serial, p->serial);
		jb_u64(g, "dpa", p->dpa);
		if (p->has_hpa)
			jb_u64(g, "hpa", p->hpa);
		jb_u64(g, "records", p->records);
		iso_key(g, "first", p->first_ns);
		iso_key(g, "last", p->last_ns);
		json_object_array_add(a, g);
	}
	return o;
}

static json_object *retired_json(const struct ct_retirement *r)
{
	json_object *o = json_object_new_object();

	iso_key(o, "time", r->time_ns);
	device_json(o, r->memdev, r->has_serial, r->serial);
	jb_u64(o, "dpa", r->dpa);
	if (r->hpa != UINT64_MAX)
		jb_u64(o, "hpa", r->hpa);
	jb_str(o, "action", ct_retire_log_action_name(r->action));
	if (r->tries)
		jb_u64(o, "tries", r->tries);
	jb_u64(o, "errors", r->errors);
	jb_str(o, "reason", r->reason);
	if (r->message[0])
		jb_str(o, "message", r->message);
	return o;
}

void events_overview_retired(json_object *summary, const struct ct_retirement *r, size_t n)
{
	json_object *arr = jb_arr(summary, "retired");

	for (size_t i = 0; i < n; i++)
		json_object_array_add(arr, retired_json(&r[i]));
}

static const char *const memdev_levels[] = { "summary.memdevs", NULL };
static const struct out_column memdev_columns[] = {
	{ "MEMDEV", "memdev", OUT_STR, 0.1, 0, "memdev", NULL },
	{ "SERIAL", "serial", OUT_HEX, 0.1, 0, "its serial number", NULL },
	{ "RECORDS", "records", OUT_NUM, 0.1, 0, "records of it", NULL },
	{ "GENERAL_MEDIA", "by_kind.general_media", OUT_NUM, 0.1, 0, "General Media records", NULL },
	{ "DRAM", "by_kind.dram", OUT_NUM, 0.1, 0, "DRAM records", NULL },
	{ "MEMORY_MODULE", "by_kind.memory_module", OUT_NUM, 0.1, 0, "Memory Module records", NULL },
	{ "POISON", "by_kind.poison", OUT_NUM, 0.1, 0, "poison records", NULL },
	{ "AER", "by_kind.aer", OUT_NUM, 0.1, 0, "AER records", NULL },
	{ "OTHER", "by_kind.generic", OUT_NUM, 0.1, 0, "records of another format", NULL },
	{ "INFO", "by_severity.informational", OUT_NUM, 0.1, 0, "informational", NULL },
	{ "WARN", "by_severity.warning", OUT_NUM, 0.1, 0, "warning", NULL },
	{ "FAIL", "by_severity.failure", OUT_NUM, 0.1, 0, "failure", NULL },
	{ "FATAL", "by_severity.fatal", OUT_NUM, 0.1, 0, "fatal", NULL },
};
static const struct out_table memdev_table = {
	memdev_levels, NULL, memdev_columns, sizeof(memdev_columns) / sizeof(memdev_columns[0]),
	"MEMDEV,SERIAL,RECORDS,GENERAL_MEDIA,DRAM,MEMORY_MODULE,POISON,INFO,WARN,FAIL,FATAL",
};

static const char *const page_levels[] = { "summary.corrected_pages", NULL };
static const struct out_column page_columns[] = {
	{ "MEMDEV", "memdev", OUT_STR, 0.1, 0, "memdev", NULL },
	{ "DPA", "dpa", OUT_HEX, 0.1, 0, "the page (4 KiB) of device physical address", NULL },
	{ "HPA", "hpa", OUT_HEX, 0.1, 0, "its host physical address, when a record said", NULL },
	{ "CORRECTED", "records", OUT_NUM, 0.1, 0, "corrected-error records on it", NULL },
	{ "FIRST", "first", OUT_STR, 0.1, 0, "the first of them", NULL },
	{ "LAST", "last", OUT_STR, 0.1, 0, "the last of them", NULL },
};
static const char *const retired_levels[] = { "summary.retired", NULL };
static const struct out_column retired_columns[] = {
	{ "TIME", "time", OUT_STR, 0.1, 0, "when the follower last decided on it", NULL },
	{ "MEMDEV", "memdev", OUT_STR, 0.1, 0, "memdev", NULL },
	{ "DPA", "dpa", OUT_HEX, 0.1, 0, "the page's device physical address", NULL },
	{ "HPA", "hpa", OUT_HEX, 0.1, 0, "its host physical address", NULL },
	{ "ACTION", "action", OUT_STR, 0.1, 0, "retired, already_poisoned, failed, limited, stale", NULL },
	{ "ERRORS", "errors", OUT_NUM, 0.1, 0, "corrected errors on it within the window", NULL },
	{ "WHY", "message", OUT_STR, 0.3, 0, "why it was not retired", NULL },
};
static const struct out_table retired_table = {
	retired_levels, NULL, retired_columns, sizeof(retired_columns) / sizeof(retired_columns[0]),
	"TIME,MEMDEV,DPA,HPA,ACTION,ERRORS,WHY",
};

static const struct out_table page_table = {
	page_levels, NULL, page_columns, sizeof(page_columns) / sizeof(page_columns[0]),
	"MEMDEV,DPA,HPA,CORRECTED,FIRST,LAST",
};

int events_overview_print(struct cmd_env *env, json_object *root)
{
	struct out_opts pages = env->out;
	json_object *s = out_lookup(root, "summary");
	char err[256];

	if (env->out.json)
		return out_print(&env->out, &memdev_table, root, err, sizeof(err)) ? EXIT_FAIL : EXIT_OK;
	if (out_print(&env->out, &memdev_table, root, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		return EXIT_USAGE;
	}
	if (json_object_array_length(out_lookup(s, "corrected_pages"))) {
		printf("\n%s pages with corrected errors, the most first:\n",
		       json_object_get_string(out_lookup(s, "corrected_pages_total")));
		pages.columns = NULL;
		if (out_print(&pages, &page_table, root, err, sizeof(err))) {
			cmd_err(env, "%s", err);
			return EXIT_FAIL;
		}
	}
	if (json_object_array_length(out_lookup(s, "retired"))) {
		printf("\nPages retired, or due and left in use:\n");
		pages.columns = NULL;
		if (out_print(&pages, &retired_table, root, err, sizeof(err))) {
			cmd_err(env, "%s", err);
			return EXIT_FAIL;
		}
	}
	return EXIT_OK;
}
