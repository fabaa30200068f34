// SPDX-License-Identifier: GPL-2.0-only
/* migrate-json.c - `cxltier migrate`'s per-process records and columns */
#include <stdio.h>
#include <string.h>
#include "cli/json-build.h"
#include "migrate-json.h"

static void fmt_before(json_object *rec, char *buf, size_t len);
static void fmt_after(json_object *rec, char *buf, size_t len);
static void fmt_failed(json_object *rec, char *buf, size_t len);
static void fmt_target(json_object *rec, char *buf, size_t len);
static const char *const levels[] = { "processes", NULL };
static const struct out_column columns[] = {
	{ "PID", "pid", OUT_NUM, 0.1, 0, "process", NULL },
	{ "COMM", "comm", OUT_STR, 0.1, 0, "its name", NULL },
	{ "HOW", "mechanism", OUT_STR, 0.1, 0, "migrate_pages (whole process) or move_pages (page by page)", NULL },
	{ "BEFORE", "before", OUT_STR, 0.1, 0, "bytes per node before", fmt_before },
	{ "AFTER", "after", OUT_STR, 0.1, 0, "bytes per node after", fmt_after },
	{ "TARGET", "target", OUT_STR, 0.1, 0, "--spread: bytes per node aimed at", fmt_target },
	{ "MOVED", "bytes_moved", OUT_SIZE, 0.1, 0, "bytes moved", NULL },
	{ "TO-MOVE", "bytes_to_move", OUT_SIZE, 0.1, 0, "bytes selected (dry run: would move)", NULL },
	{ "FAILED", "failed_by", OUT_STR, 0.1, 0, "pages that did not move, by errno", fmt_failed },
	{ "SECONDS", "seconds", OUT_NUM, 0.1, 0, "time taken", NULL },
	{ "MB/S", "throughput_mbps", OUT_NUM, 0.1, 0, "throughput", NULL },
	{ "NOTE", "note", OUT_STR, 0.1, 0, "exited, error", NULL },
};
const struct out_table migrate_table = {
	levels, NULL, columns, sizeof(columns) / sizeof(columns[0]), "PID,COMM,HOW,BEFORE,AFTER,MOVED,FAILED,SECONDS,MB/S,NOTE",
};
const struct out_table migrate_spread_table = {
	levels, NULL, columns, sizeof(columns) / sizeof(columns[0]), "PID,COMM,BEFORE,AFTER,TARGET,MOVED,FAILED,NOTE",
};

/* node:size, and for a spread each node's share of the whole: 0:192M(75%) */
static void fmt_nodes(json_object *o, json_object *pct, char *buf, size_t len)
{
	size_t off = 0;
	char hs[32];

	buf[0] = '\0';
	if (!o)
		return;
	json_object_object_foreach(o, k, v) {
		uint64_t b = json_object_get_uint64(v);
		json_object *p = pct ? json_object_object_get(pct, k) : NULL;
		if (b && off < len)
			off += snprintf(buf + off, len - off, "%s%s:%s", off ? "," : "", k + 4, out_human_size(b, hs, sizeof(hs)));
		if (b && p && off < len)
			off += snprintf(buf + off, len - off, "(%.0f%%)", json_object_get_double(p));
	}
}

static void fmt_before(json_object *rec, char *buf, size_t len)
{
	fmt_nodes(out_lookup(rec, "before"), out_lookup(rec, "before_pct"), buf, len);
}

static void fmt_after(json_object *rec, char *buf, size_t len)
{
	fmt_nodes(out_lookup(rec, "after"), out_lookup(rec, "after_pct"), buf, len);
}

static void fmt_target(json_object *rec, char *buf, size_t len)
{
	fmt_nodes(out_lookup(rec, "target"), out_lookup(rec, "target_pct"), buf, len);
}

static void fmt_failed(json_object *rec, char *buf, size_t len)
{
	json_object *o = out_lookup(rec, "failed_by");
	size_t off = 0;

	buf[0] = '\0';
	if (o) {
		json_object_object_foreach(o, k, v) {
			if (off < len)
				off += snprintf(buf + off, len - off, "%s%s:%d", off ? "," : "", k, json_object_get_int(v));
		}
	}
	if (!off)
		snprintf(buf, len, "0");
}

static json_object *nodes_json(const uint64_t *b)
{
	json_object *o = json_object_new_object();
	char k[16];

	for (int n = 0; n < CT_MIG_MAX_NODES; n++)
		if (b[n]) {
			snprintf(k, sizeof(k), "node%d", n);
			jb_u64(o, k, b[n]);
		}
	return o;
}

/* each node's share of all of b, in percent to a tenth */
static json_object *pct_json(const uint64_t *b)
{
	json_object *o = json_object_new_object();
	uint64_t sum = 0;
	char k[16];

	for (int n = 0; n < CT_MIG_MAX_NODES; n++)
		sum += b[n];
	for (int n = 0; sum && n < CT_MIG_MAX_NODES; n++)
		if (b[n]) {
			snprintf(k, sizeof(k), "node%d", n);
			jb_double(o, k, (double)(int64_t)(b[n] * 1000.0 / sum + 0.5) / 10);
		}
	return o;
}

void migrate_record_error(json_object *o, int pid, const char *comm, const char *msg)
{
	jb_int(o, "pid", pid);
	jb_str(o, "comm", comm);
	jb_str(o, "error", msg);
	jb_str(o, "note", msg);
}

static double round3(double v)
{
	return (double)(int64_t)(v * 1000 + 0.5) / 1000;
}

/* bytes per tier from bytes per node: {"tier4": ..., "tier8": ...} */
static json_object *tiers_json(const uint64_t *b, const struct ct_tiers *t)
{
	json_object *o = json_object_new_object();
	uint64_t sum[64] = { 0 };
	char k[24];

	for (int n = 0; n < CT_MIG_MAX_NODES; n++) {
		int tier = ct_tiers_of_node(t, n);
		for (size_t i = 0; b[n] && tier >= 0 && i < t->count && i < 64; i++)
			if (t->tier[i].id == tier)
				sum[i] += b[n];
	}
	for (size_t i = 0; i < t->count && i < 64; i++)
		if (sum[i]) {
			snprintf(k, sizeof(k), "tier%d", t->tier[i].id);
			jb_u64(o, k, sum[i]);
		}
	return o;
}

void migrate_record_result(json_object *o, const struct ct_migrate_result *r, bool dry_run, const struct ct_tiers *t)
{
	json_object *fb;

	jb_int(o, "pid", r->pid);
	jb_str(o, "comm", r->comm);
	jb_str(o, "mechanism", r->mechanism);
	json_object_object_add(o, "before", nodes_json(r->before));
	json_object_object_add(o, "after", nodes_json(r->after));
	if (r->spread) {
		json_object_object_add(o, "target", nodes_json(r->target));
		json_object_object_add(o, "before_pct", pct_json(r->before));
		json_object_object_add(o, "after_pct", pct_json(r->after));
		json_object_object_add(o, "target_pct", pct_json(r->target));
	}
	if (r->after_from)
		jb_str(o, "after_from", r->after_from);
	if (t && t->count) {
		json_object_object_add(o, "before_tiers", tiers_json(r->before, t));
		json_object_object_add(o, "after_tiers", tiers_json(r->after, t));
	}
	if (!strcmp(r->mechanism, "move_pages"))
		jb_u64(o, "bytes_to_move", r->bytes_to_move);
	jb_u64(o, "pages_moved", r->pages_moved);
	jb_u64(o, "bytes_moved", r->bytes_moved);
	jb_u64(o, "pages_failed", r->pages_failed);
	fb = jb_obj(o, "failed_by");
	for (int e = 0; e < CT_MIG_NERR; e++)
		if (r->failed_by[e])
			jb_u64(fb, ct_migrate_err_name(e), r->failed_by[e]);
	jb_double(o, "seconds", round3(r->seconds));
	jb_double(o, "scan_seconds", round3(r->scan_seconds));
	jb_double(o, "move_seconds", round3(r->move_seconds));
	if (r->seconds > 0 && r->bytes_moved)
		jb_double(o, "throughput_mbps", (double)(int64_t)(r->bytes_moved / 1e6 / r->seconds * 10 + 0.5) / 10);
	jb_bool(o, "exited", r->exited);
	if (r->replaced)
		jb_bool(o, "replaced", true);
	jb_bool(o, "dry_run", dry_run);
	if (r->replaced)
		jb_str(o, "note", r->note);
	else if (r->exited)
		jb_str(o, "note", "exited during the run");
	else if (dry_run)
		jb_str(o, "note", "dry run: nothing moved");
}

void migrate_record_selection(json_object *o, int select, unsigned interval_ms, const struct ct_access_region *reg,
			      size_t n)
{
	json_object *sel = jb_obj(o, "selection"), *ra;
	uint64_t bytes = 0;

	jb_str(sel, "pages", select > 0 ? "hot" : "cold");
	jb_str(sel, "source", "damon");
	jb_int(sel, "interval_ms", interval_ms);
	ra = jb_arr(sel, "ranges");
	for (size_t k = 0; k < n; k++) {
		json_object *x;
		if ((select > 0) != (reg[k].nr_accesses > 0))
			continue;
		bytes += reg[k].end - reg[k].start;
		x = json_object_new_object();
		jb_u64(x, "start", reg[k].start);
		jb_u64(x, "end", reg[k].end);
		jb_int(x, "nr_accesses", reg[k].nr_accesses);
		json_object_array_add(ra, x);
	}
	jb_u64(sel, "bytes", bytes);
}

/* milliseconds per GiB of bytes (absent when nothing moved) */
static void per_gib(json_object *o, const char *k, double seconds, uint64_t bytes)
{
	if (bytes)
		jb_double(o, k, (double)(int64_t)(seconds * 1e3 * (1u << 30) / bytes * 10 + 0.5) / 10);
}

void migrate_record_run(json_object *root, const struct ct_migrate_totals *t, const struct cmd_env *env)
{
	json_object *o = json_object_new_object();

	jb_int(o, "jobs", t->jobs);
	jb_double(o, "seconds", round3(t->seconds));
	jb_double(o, "scan_seconds", round3(t->scan_seconds));
	jb_double(o, "move_seconds", round3(t->move_seconds));
	jb_u64(o, "bytes_moved", t->bytes_moved);
	per_gib(o, "scan_ms_per_gib", t->scan_seconds, t->bytes_moved);
	per_gib(o, "move_ms_per_gib", t->move_seconds, t->bytes_moved);
	json_object_array_add(jb_arr(root, "run"), o);
	cmd_info(env, 1, "%u job%s, %.3f s: scan %.3f s, move %.3f s for %llu bytes moved", t->jobs,
		 t->jobs == 1 ? "" : "s", t->seconds, t->scan_seconds, t->move_seconds,
		 (unsigned long long)t->bytes_moved);
	if (t->bytes_moved)
		cmd_info(env, 1, "per GiB moved: scan %.1f ms, move %.1f ms (scan %.1f %% of move)",
			 t->scan_seconds * 1e3 * (1u << 30) / t->bytes_moved, t->move_seconds * 1e3 * (1u << 30) / t->bytes_moved,
			 t->move_seconds > 0 ? 100 * t->scan_seconds / t->move_seconds : 0);
}

void migrate_record_spread(json_object *root, const unsigned *weight, bool kernel, double tolerance_pct)
{
	json_object *o = jb_obj(root, "spread"), *w;
	char k[16];

	jb_str(o, "spread", "weighted");
	jb_str(o, "weights_from", kernel ? "kernel" : "option");
	w = jb_obj(o, "weights");
	for (int n = 0; n < CT_MIG_MAX_NODES; n++)
		if (weight[n]) {
			snprintf(k, sizeof(k), "node%d", n);
			jb_int(w, k, (int)weight[n]);
		}
	jb_double(o, "tolerance_pct", tolerance_pct);
}
