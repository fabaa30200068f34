// SPDX-License-Identifier: GPL-2.0-only
/* cmd-events.c - `cxltier events`: CXL event records the kernel drained
 * from the devices' event logs (tracepoints cxl:*), decoded, read from a
 * tracefs instance of cxltier's own so the global buffer and other tools'
 * instances (rasdaemon) are never disturbed */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <tracefs.h>
#include <event-parse.h>
#include "cmd.h"
#include "filter.h"
#include "health-json.h"
#include "json-build.h"
#include "../lib/event.h"

#define INSTANCE "cxltier"

static const char *const levels[] = { "events", NULL };
static void fmt_detail(json_object *rec, char *buf, size_t len);
static const struct out_column columns[] = {
	{ "TIME", "time", OUT_STR, 0.1, 0, "when the device logged it (UTC)", NULL },
	{ "MEMDEV", "memdev", OUT_STR, 0.1, 0, "memdev", NULL },
	{ "KIND", "kind", OUT_STR, 0.1, 0, "general_media, dram, memory_module, poison, overflow, aer, generic", NULL },
	{ "SEVERITY", "severity", OUT_STR, 0.1, 0, "the log: informational, warning, failure, fatal", NULL },
	{ "DPA", "dpa", OUT_HEX, 0.1, 0, "device physical address", NULL },
	{ "HPA", "hpa", OUT_HEX, 0.1, 0, "host physical address (when in a region)", NULL },
	{ "REGION", "region", OUT_STR, 0.1, 0, "region", NULL },
	{ "DETAIL", "type", OUT_STR, 0.1, 0, "what happened", fmt_detail },
};
static const struct out_table table = {
	levels, NULL, columns, sizeof(columns) / sizeof(columns[0]), "TIME,MEMDEV,KIND,SEVERITY,DPA,HPA,REGION,DETAIL",
};

static void usage(void)
{
	printf("usage: cxltier events [MEMDEV...] [--follow] [--type T] [--severity S] [--since WHEN] [-j]\n"
	       "       cxltier events --stop\n"
	       "       cxltier events --file RECORDS.bin\n\n"
	       "CXL event records (General Media, DRAM, Memory Module, poison, overflow, AER)\n"
	       "as the kernel drained them from the devices (kernel 6.3+ tracepoints), decoded.\n"
	       "cxltier keeps them in a tracefs instance of its own ('" INSTANCE "'): the first\n"
	       "run creates it; later runs print and consume what arrived since.\n\n"
	       "  -f, --follow        stream events until interrupted (a private instance; one\n"
	       "                      JSON object per line with -j, flushed)\n"
	       "      --type LIST     general_media,dram,memory_module,poison,overflow,aer,generic\n"
	       "      --severity LIST informational,warning,failure,fatal\n"
	       "      --since WHEN    only events newer than WHEN: 30s, 10m, 2h, 1d, or @EPOCH\n"
	       "      --stop          remove cxltier's instance (stop collecting)\n"
	       "      --file F        decode 128-byte event records (Get Event Records payloads)\n");
	out_columns_help(&table);
}

static void fmt_detail(json_object *rec, char *buf, size_t len)
{
	const char *kind = json_object_get_string(out_lookup(rec, "kind"));
	json_object *v;

	buf[0] = '\0';
	if (!kind)
		return;
	if (!strcmp(kind, "general_media") || !strcmp(kind, "dram")) {
		json_object *d = out_lookup(rec, "descriptor");
		snprintf(buf, len, "%s on %s", json_object_get_string(out_lookup(rec, "memory_event_type")),
			 json_object_get_string(out_lookup(rec, "transaction_type")));
		for (size_t i = 0; d && i < json_object_array_length(d); i++)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? "," : " (",
				 json_object_get_string(json_object_array_get_idx(d, i)));
		if (d && json_object_array_length(d))
			snprintf(buf + strlen(buf), len - strlen(buf), ")");
	} else if (!strcmp(kind, "memory_module")) {
		snprintf(buf, len, "%s: media %s", json_object_get_string(out_lookup(rec, "device_event_type")),
			 json_object_get_string(out_lookup(rec, "health.media_status")));
		if ((v = out_lookup(rec, "health.temperature_celsius")))
			snprintf(buf + strlen(buf), len - strlen(buf), ", %d C", json_object_get_int(v));
		if ((v = out_lookup(rec, "health.life_used_percent")))
			snprintf(buf + strlen(buf), len - strlen(buf), ", life used %d%%", json_object_get_int(v));
	} else if (!strcmp(kind, "poison")) {
		snprintf(buf, len, "%s, source %s, %" PRIu64 " bytes", json_object_get_string(out_lookup(rec, "trace_type")),
			 json_object_get_string(out_lookup(rec, "source")), json_object_get_uint64(out_lookup(rec, "dpa_length")));
	} else if (!strcmp(kind, "overflow")) {
		snprintf(buf, len, "%" PRIu64 " records lost", json_object_get_uint64(out_lookup(rec, "count")));
	} else if ((v = out_lookup(rec, "event"))) {
		snprintf(buf, len, "%s", json_object_get_string(v));
	}
}

/* ---- one decoded event to JSON ---- */

static void iso_time(uint64_t ns, char *buf, size_t len)
{
	time_t s = (time_t)(ns / 1000000000ULL);
	struct tm tm;

	if (!ns || !gmtime_r(&s, &tm)) {
		buf[0] = '\0';
		return;
	}
	snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%09" PRIu64 "Z", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
		 tm.tm_hour, tm.tm_min, tm.tm_sec, (uint64_t)(ns % 1000000000ULL));
}

static json_object *event_json(const struct ct_event *e, json_object *o)
{
	char t[64];
	const char *names[8];
	size_t n;
	json_object *a;

	jb_str(o, "kind", ct_event_kind_name(e->kind));
	jb_str(o, "memdev", e->memdev);
	if (e->has_serial)
		jb_u64(o, "serial", e->serial);
	if (e->log <= 3)
		jb_str(o, "severity", ct_severity_name(e->log));
	else if (e->kind <= CT_EV_MEMORY_MODULE || e->kind == CT_EV_GENERIC)
		jb_str(o, "severity", ct_severity_name(e->flags & 3));
	if (e->timestamp) {
		jb_u64(o, "timestamp", e->timestamp);
		iso_time(e->timestamp, t, sizeof(t));
		jb_str(o, "time", t);
	}
	if (e->kind <= CT_EV_MEMORY_MODULE || e->kind == CT_EV_GENERIC) {
		jb_int(o, "flags", e->flags);
		jb_bool(o, "permanent", e->flags & (1u << 2));
		jb_bool(o, "maintenance_needed", e->flags & (1u << 3));
		jb_int(o, "handle", e->handle);
	}
	if (e->kind == CT_EV_GENERAL_MEDIA || e->kind == CT_EV_DRAM) {
		jb_u64(o, "dpa", e->dpa);
		a = jb_arr(o, "dpa_flags");
		if (e->dpa_flags & 1)
			json_object_array_add(a, json_object_new_string("volatile"));
		if (e->dpa_flags & 2)
			json_object_array_add(a, json_object_new_string("not_repairable"));
		a = jb_arr(o, "descriptor");
		n = ct_descriptor_names(e->descriptor, names, 8);
		for (size_t i = 0; i < n; i++)
			json_object_array_add(a, json_object_new_string(names[i]));
		jb_int(o, "memory_event_type_id", e->type);
		jb_str(o, "memory_event_type", e->kind == CT_EV_DRAM ? ct_dram_event_type_name(e->type) : ct_gm_event_type_name(e->type));
		jb_int(o, "transaction_type_id", e->transaction_type);
		jb_str(o, "transaction_type", ct_transaction_type_name(e->transaction_type));
		jb_int(o, "validity_flags", e->validity);
		if (e->validity & 1)
			jb_int(o, "channel", e->channel);
		if (e->validity & 2)
			jb_int(o, "rank", e->rank);
		if (e->kind == CT_EV_GENERAL_MEDIA && (e->validity & 4))
			jb_int(o, "device", e->device);
		if (e->kind == CT_EV_DRAM) {
			if (e->validity & 4)
				jb_int(o, "nibble_mask", e->nibble_mask);
			if (e->validity & 8)
				jb_int(o, "bank_group", e->bank_group);
			if (e->validity & 16)
				jb_int(o, "bank", e->bank);
			if (e->validity & 32)
				jb_int(o, "row", e->row);
			if (e->validity & 64)
				jb_int(o, "column", e->column);
		}
	}
	if (e->kind == CT_EV_MEMORY_MODULE) {
		jb_int(o, "device_event_type_id", e->device_event_type);
		jb_str(o, "device_event_type", ct_module_event_type_name(e->device_event_type));
		json_object_object_add(o, "health", health_json(&e->health));
	}
	if (e->has_hpa)
		jb_u64(o, "hpa", e->hpa);
	jb_str(o, "region", e->region);
	return o;
}

/* ---- from tracepoints ---- */

struct run {
	struct cmd_env *env;
	struct name_filter memdevs, types;
	int severities;		/* bitmask of wanted severities, 0: all */
	uint64_t since_ns;
	bool follow;
	json_object *arr;	/* collected (not follow) */
	unsigned count;
};

static bool num(struct tep_event *ev, struct tep_record *r, const char *name, unsigned long long *v)
{
	return tep_find_any_field(ev, name) && tep_get_field_val(NULL, ev, name, r, v, 0) == 0;
}

static void str(struct tep_event *ev, struct tep_record *r, const char *name, char *buf, size_t len)
{
	struct tep_format_field *f = tep_find_any_field(ev, name);
	int l = 0;
	const char *p;

	buf[0] = '\0';
	if (!f || !(p = tep_get_field_raw(NULL, ev, name, r, &l, 0)) || l <= 0)
		return;
	snprintf(buf, len, "%.*s", l, p);
}

static void trace_to_event(struct tep_event *ev, struct tep_record *r, struct ct_event *e, json_object *o)
{
	unsigned long long v;
	const char *name = ev->name;

	memset(e, 0, sizeof(*e));
	e->log = 0xff;
	if (!strcmp(name, "cxl_general_media"))
		e->kind = CT_EV_GENERAL_MEDIA;
	else if (!strcmp(name, "cxl_dram"))
		e->kind = CT_EV_DRAM;
	else if (!strcmp(name, "cxl_memory_module"))
		e->kind = CT_EV_MEMORY_MODULE;
	else if (!strcmp(name, "cxl_poison"))
		e->kind = CT_EV_POISON;
	else if (!strcmp(name, "cxl_overflow"))
		e->kind = CT_EV_OVERFLOW;
	else if (strstr(name, "aer"))
		e->kind = CT_EV_AER;
	else
		e->kind = CT_EV_GENERIC;
	str(ev, r, "memdev", e->memdev, sizeof(e->memdev));
	if (num(ev, r, "serial", &v)) {
		e->serial = v;
		e->has_serial = true;
	}
	if (num(ev, r, "log", &v))
		e->log = (uint8_t)v;
	if (num(ev, r, "hdr_flags", &v))
		e->flags = (uint32_t)v;
	if (num(ev, r, "hdr_handle", &v))
		e->handle = (uint16_t)v;
	if (num(ev, r, "hdr_timestamp", &v))
		e->timestamp = v;
	if (num(ev, r, "dpa", &v))
		e->dpa = v;
	if (num(ev, r, "dpa_flags", &v))
		e->dpa_flags = (uint8_t)v;
	if (num(ev, r, "descriptor", &v))
		e->descriptor = (uint8_t)v;
	if (num(ev, r, "type", &v))
		e->type = (uint8_t)v;
	if (num(ev, r, "transaction_type", &v))
		e->transaction_type = (uint8_t)v;
	if (num(ev, r, "validity_flags", &v))
		e->validity = (uint16_t)v;
	if (num(ev, r, "channel", &v))
		e->channel = (uint8_t)v;
	if (num(ev, r, "rank", &v))
		e->rank = (uint8_t)v;
	if (num(ev, r, "device", &v))
		e->device = (uint32_t)v;
	if (num(ev, r, "nibble_mask", &v))
		e->nibble_mask = (uint32_t)v;
	if (num(ev, r, "bank_group", &v))
		e->bank_group = (uint8_t)v;
	if (num(ev, r, "bank", &v))
		e->bank = (uint8_t)v;
	if (num(ev, r, "row", &v))
		e->row = (uint32_t)v;
	if (num(ev, r, "column", &v))
		e->column = (uint16_t)v;
	if (e->kind == CT_EV_MEMORY_MODULE) {
		if (num(ev, r, "event_type", &v))
			e->device_event_type = (uint8_t)v;
		if (num(ev, r, "health_status", &v))
			e->health.health_status = (uint8_t)v;
		if (num(ev, r, "media_status", &v))
			e->health.media_status = (uint8_t)v;
		if (num(ev, r, "add_status", &v)) {
			e->health.life_used_state = v & 3;
			e->health.temperature_state = (v >> 2) & 3;
			e->health.corrected_volatile_warning = v & 16;
			e->health.corrected_persistent_warning = v & 32;
		}
		if (num(ev, r, "life_used", &v)) {
			e->health.has_life_used = v != 0xff;
			e->health.life_used = (uint8_t)v;
		}
		if (num(ev, r, "device_temp", &v)) {
			e->health.has_temperature = (uint16_t)v != 0xffff;
			e->health.temperature = (int16_t)(uint16_t)v;
		}
		if (num(ev, r, "dirty_shutdown_cnt", &v))
			e->health.dirty_shutdowns = (uint32_t)v;
		if (num(ev, r, "cor_vol_err_cnt", &v))
			e->health.corrected_volatile_errors = (uint32_t)v;
		if (num(ev, r, "cor_per_err_cnt", &v))
			e->health.corrected_persistent_errors = (uint32_t)v;
	}
	if (num(ev, r, "hpa", &v) && v != ~0ULL) {
		e->hpa = v;
		e->has_hpa = true;
	}
	str(ev, r, "region_name", e->region, sizeof(e->region));
	if (!e->region[0])
		str(ev, r, "region", e->region, sizeof(e->region));
	/* kind-specific fields that have no place in the record form */
	if (e->kind == CT_EV_POISON) {
		static const char *const tt[] = { "list", "inject", "clear" };
		static const char *const src[] = { "unknown", "external", "internal", "injected", "?", "?", "?", "vendor" };
		if (num(ev, r, "trace_type", &v))
			jb_str(o, "trace_type", v < 3 ? tt[v] : "unknown");
		if (num(ev, r, "source", &v))
			jb_str(o, "source", v < 8 ? src[v] : "unknown");
		if (num(ev, r, "dpa", &v))
			jb_u64(o, "dpa", v);
		if (num(ev, r, "dpa_length", &v))
			jb_u64(o, "dpa_length", v);
	} else if (e->kind == CT_EV_OVERFLOW) {
		if (num(ev, r, "count", &v))
			jb_u64(o, "count", v);
	} else if (e->kind == CT_EV_AER || e->kind == CT_EV_GENERIC) {
		jb_str(o, "event", name);
		if (num(ev, r, "status", &v))
			jb_u64(o, "status", v);
		if (num(ev, r, "first_error", &v))
			jb_u64(o, "first_error", v);
	}
}

static bool wanted(struct run *run, const struct ct_event *e, uint64_t trace_ts)
{
	int sev = e->log <= 3 ? e->log : (int)(e->flags & 3);

	if (filter_active(&run->memdevs) && !filter_match(&run->memdevs, e->memdev))
		return false;
	if (filter_active(&run->types) && !filter_match(&run->types, ct_event_kind_name(e->kind)))
		return false;
	if (run->severities && !(run->severities & (1 << sev)))
		return false;
	if (run->since_ns && (e->timestamp ? e->timestamp : trace_ts) < run->since_ns)
		return false;
	return true;
}

static int on_record(struct tep_event *ev, struct tep_record *r, int cpu, void *ctx)
{
	struct run *run = ctx;
	struct ct_event e;
	json_object *o = json_object_new_object();

	(void)cpu;
	trace_to_event(ev, r, &e, o);
	if (!wanted(run, &e, 0)) {
		json_object_put(o);
		return 0;
	}
	event_json(&e, o);
	run->count++;
	if (run->follow) {
		if (run->env->out.json)
			out_json_line(o);
		else {
			char d[256], t[64];
			fmt_detail(o, d, sizeof(d));
			iso_time(e.timestamp, t, sizeof(t));
			printf("%s %s %s %s %s\n", t[0] ? t : "-", e.memdev[0] ? e.memdev : "-", ct_event_kind_name(e.kind),
			       json_object_get_string(out_lookup(o, "severity")) ? json_object_get_string(out_lookup(o, "severity")) : "-", d);
			fflush(stdout);
		}
		json_object_put(o);
	} else {
		json_object_array_add(run->arr, o);
	}
	return 0;
}

static volatile sig_atomic_t stop;
static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

static struct tracefs_instance *open_instance(struct cmd_env *env, const char *name, bool *created)
{
	struct tracefs_instance *inst;

	*created = !tracefs_instance_exists(name);
	inst = tracefs_instance_create(name);
	if (!inst) {
		cmd_err(env, "cannot create the tracefs instance '%s': %s (is tracefs mounted? root?)", name, strerror(errno));
		return NULL;
	}
	if (*created && (tracefs_event_enable(inst, "cxl", NULL) < 0 || tracefs_trace_on(inst) < 0)) {
		cmd_err(env, "cannot enable the cxl events in '%s': %s", name, strerror(errno));
		tracefs_instance_destroy(inst);
		tracefs_instance_free(inst);
		return NULL;
	}
	return inst;
}

static int parse_since(const char *s, uint64_t *ns)
{
	char *end;
	double v;
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	if (s[0] == '@') {
		v = strtod(s + 1, &end);
		if (*end || v < 0)
			return -1;
		*ns = (uint64_t)(v * 1e9);
		return 0;
	}
	v = strtod(s, &end);
	if (end == s || v < 0)
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
	*ns = (uint64_t)now.tv_sec * 1000000000ULL + now.tv_nsec - (uint64_t)(v * 1e9);
	return 0;
}

static int from_file(struct run *run, const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t rec[CT_EVENT_RECORD_LEN];
	size_t n, i = 0;

	if (!f) {
		cmd_err(run->env, "cannot open %s: %s", path, strerror(errno));
		return EXIT_FAIL;
	}
	while ((n = fread(rec, 1, sizeof(rec), f)) > 0) {
		struct ct_event e;
		json_object *o;
		if (n < sizeof(rec) || ct_event_decode(rec, n, &e)) {
			cmd_err(run->env, "%s: record %zu at byte %zu is not a 128-byte event record", path, i, i * sizeof(rec));
			fclose(f);
			return EXIT_FAIL;
		}
		if (wanted(run, &e, 0)) {
			o = json_object_new_object();
			json_object_array_add(run->arr, event_json(&e, o));
		}
		i++;
	}
	fclose(f);
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
	static const char *const systems[] = { "cxl", NULL };
	struct run run = { .env = env };
	struct name_filter sev = { 0 };
	struct tracefs_instance *inst = NULL;
	struct tep_handle *tep = NULL;
	const char *file = NULL;
	bool stop_inst = false, created = false;
	json_object *root = NULL;
	char name[64], err[256];
	int c, rc = EXIT_OK;

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
			if (parse_since(optarg, &run.since_ns)) {
				cmd_err(env, "--since %s: give 30s, 10m, 2h, 1d or @EPOCH", optarg);
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
	for (size_t i = 0; i < sev.count; i++) {
		int s = ct_severity_parse(sev.names[i]);
		if (s < 0) {
			cmd_err(env, "--severity %s: informational, warning, failure or fatal", sev.names[i]);
			rc = EXIT_USAGE;
			goto out;
		}
		run.severities |= 1 << s;
	}
	for (size_t i = 0; i < run.types.count; i++) {
		static const char *const kinds[] = { "general_media", "dram", "memory_module", "poison", "overflow", "aer", "generic" };
		bool ok = false;
		for (size_t k = 0; k < 7; k++)
			ok |= !strcmp(run.types.names[i], kinds[k]);
		if (!ok) {
			cmd_err(env, "--type %s: general_media, dram, memory_module, poison, overflow, aer or generic", run.types.names[i]);
			rc = EXIT_USAGE;
			goto out;
		}
	}
	for (int i = optind; i < argc; i++)
		filter_add(&run.memdevs, argv[i]);
	root = json_object_new_object();
	run.arr = jb_arr(root, "events");
	if (file) {
		rc = from_file(&run, file);
		goto print;
	}
	if (stop_inst) {
		inst = tracefs_instance_exists(INSTANCE) ? tracefs_instance_create(INSTANCE) : NULL;
		if (inst) {
			tracefs_instance_destroy(inst);
			fprintf(stderr, "cxltier events: removed the '" INSTANCE "' tracefs instance; events are no longer kept\n");
		}
		goto out;
	}
	if (!tracefs_tracing_dir()) {
		cmd_err(env, "tracefs is not mounted (mount -t tracefs tracefs /sys/kernel/tracing)");
		rc = EXIT_FAIL;
		goto out;
	}
	tep = tracefs_local_events_system(NULL, systems);
	if (!tep || !tep_find_event_by_name(tep, "cxl", "cxl_general_media")) {
		cmd_err(env, "this kernel has no CXL record tracepoints (cxl:cxl_general_media: 6.3 and later, with cxl_core)");
		rc = EXIT_UNSUPPORTED;
		goto out;
	}
	cmd_info(env, 1, "reading the kernel's tracepoints: the kernel drains the device event logs itself "
		 "(raw Get Event Records would race with it, and raw mailbox commands are off in distribution kernels)");
	if (run.follow) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_stop;
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		snprintf(name, sizeof(name), INSTANCE "-follow-%d", (int)getpid());
		if (!(inst = open_instance(env, name, &created))) {
			rc = EXIT_FAIL;
			goto out;
		}
		while (!stop) {
			tracefs_iterate_raw_events(tep, inst, NULL, 0, on_record, &run);
			usleep(100000);
		}
		tracefs_iterate_raw_events(tep, inst, NULL, 0, on_record, &run);
		tracefs_instance_destroy(inst);
		goto out;
	}
	if (!(inst = open_instance(env, INSTANCE, &created))) {
		rc = EXIT_FAIL;
		goto out;
	}
	if (created && !env->out.json)
		fprintf(stderr, "cxltier events: started keeping CXL events in the '" INSTANCE "' tracefs instance; "
			"events from now on show here ('cxltier events --stop' ends it)\n");
	tracefs_iterate_raw_events(tep, inst, NULL, 0, on_record, &run);
print:
	if (out_print(&env->out, &table, root, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		rc = EXIT_USAGE;
	}
out:
	if (inst)
		tracefs_instance_free(inst);
	if (tep)
		tep_free(tep);
	json_object_put(root);
	filter_free(&run.memdevs);
	filter_free(&run.types);
	filter_free(&sev);
	return rc;
}
