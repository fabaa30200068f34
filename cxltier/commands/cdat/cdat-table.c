// SPDX-License-Identifier: GPL-2.0-only
/* cdat-table.c - `cxltier cdat` as tables: the columns, the cells computed
 * from several JSON keys (the JSON keeps raw fields), the kernel's figures
 * below them and the hex dumps (cdat-table.h) */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "cdat-table.h"

static void fmt_dpa(json_object *rec, char *buf, size_t len);
static void fmt_figure(json_object *rec, char *buf, size_t len);
static void fmt_checksum(json_object *rec, char *buf, size_t len);
static void fmt_name(json_object *rec, char *buf, size_t len);
static void fmt_source(json_object *rec, char *buf, size_t len);

static const char *const levels[] = { "tables", "structures", NULL };
static const struct out_column columns[] = {
	{ "NAME", "device|type", OUT_STR, 0.1, 0, "device (or file), then structure type", fmt_name },
	{ "HANDLE", "handle", OUT_NUM, 0.1, 0, "DSMAD handle (DSIS: initiator handle)", NULL },
	{ "DPA", "dpa_base", OUT_STR, 0.1, 0, "device physical address range the figure applies to", fmt_dpa },
	{ "FIGURE", "data_type", OUT_STR, 0.3, OUT_TRUNC, "what the structure says, in real units", fmt_figure },
	{ "OFFSET", "offset", OUT_NUM, 0.1, 0, "byte offset in the table", NULL },
	{ "LENGTH", "length", OUT_NUM, 0.1, 0, "length in bytes", NULL },
	{ "REV", "revision", OUT_NUM, 0.1, 0, "table revision", NULL },
	{ "SEQ", "sequence", OUT_NUM, 0.1, 0, "table sequence number", NULL },
	{ "CHECKSUM", "checksum_valid", OUT_STR, 0.1, 0, "table checksum", fmt_checksum },
};
const struct out_table cdat_out_table = {
	levels, NULL, columns, sizeof(columns) / sizeof(columns[0]),
	"NAME,HANDLE,DPA,FIGURE,LENGTH,CHECKSUM",
};

/* the kernel's figures beside the CDAT ones */
static const char *const klevels[] = { "tables", "kernel.figures", NULL };
static const struct out_column kcolumns[] = {
	{ "NAME", "device|object", OUT_STR, 0.1, 0, "device, then region or node", NULL },
	{ "ACCESS", "access", OUT_NUM, 0.1, 0, "access class: 0 closest initiator, 1 closest CPU", NULL },
	{ "RD-LAT", "read_latency_ns", OUT_NUM, 0.1, 0, "read latency (ns)", NULL },
	{ "WR-LAT", "write_latency_ns", OUT_NUM, 0.1, 0, "write latency (ns)", NULL },
	{ "RD-BW", "read_bandwidth_mbps", OUT_NUM, 0.1, 0, "read bandwidth (MB/s)", NULL },
	{ "WR-BW", "write_bandwidth_mbps", OUT_NUM, 0.1, 0, "write bandwidth (MB/s)", NULL },
	{ "QOS", "kernel.ram_qos_class", OUT_NUM, 0.1, 0, "memdev ram/qos_class", NULL },
	{ "SOURCE", "source", OUT_STR, 0.1, OUT_TRUNC, "who published the figures: the object, or for a node without any its region's", fmt_source },
	{ "LAT-CHECK", "latency_check.verdict", OUT_STR, 0.1, OUT_TRUNC,
	  "the latency against the device's CDAT: plausible, or link_latency_ps_as_ns (the 6.12 bug)", NULL },
};
const struct out_table cdat_kernel_out_table = {
	klevels, NULL, kcolumns, sizeof(kcolumns) / sizeof(kcolumns[0]),
	"NAME,QOS,ACCESS,SOURCE,RD-LAT,WR-LAT,RD-BW,WR-BW,LAT-CHECK",
};

static uint64_t jget_u64(json_object *rec, const char *key, bool *found)
{
	json_object *v = out_lookup(rec, key);

	*found = v != NULL;
	return v ? json_object_get_uint64(v) : 0;
}

static void fmt_name(json_object *rec, char *buf, size_t len)
{
	json_object *v = out_lookup(rec, "device");

	if (v) {
		json_object *m = out_lookup(rec, "memdev");
		snprintf(buf, len, "%s%s%s%s", json_object_get_string(v), m ? " (" : "",
			 m ? json_object_get_string(m) : "", m ? ")" : "");
		return;
	}
	v = out_lookup(rec, "type");
	snprintf(buf, len, "%s", v ? json_object_get_string(v) : "");
	for (char *p = buf; *p; p++)
		*p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
}

/* "node", "region", or "region0" for a node's figures taken from it */
static void fmt_source(json_object *rec, char *buf, size_t len)
{
	json_object *r = out_lookup(rec, "region"), *s = out_lookup(rec, "source");

	if (out_lookup(rec, "device"))
		s = NULL;	/* a table's row: its "source" is the CDAT's path */
	snprintf(buf, len, "%s", r ? json_object_get_string(r) : s ? json_object_get_string(s) : "");
}

static void fmt_dpa(json_object *rec, char *buf, size_t len)
{
	bool fb, fl;
	uint64_t base = jget_u64(rec, "dpa_base", &fb), l = jget_u64(rec, "dpa_length", &fl);

	buf[0] = '\0';
	if (!fb || !fl || !l)
		return;
	if (l - 1 <= UINT64_MAX - base)
		snprintf(buf, len, "0x%" PRIx64 "-0x%" PRIx64, base, base + l - 1);
	else	/* a malformed table's range past 2^64: base and length, not a wrapped end */
		snprintf(buf, len, "0x%" PRIx64 "+0x%" PRIx64, base, l);
}

static void fmt_checksum(json_object *rec, char *buf, size_t len)
{
	json_object *v = out_lookup(rec, "checksum_valid");

	snprintf(buf, len, "%s", !v ? "" : json_object_get_boolean(v) ? "ok" : "BAD");
}

static void human_dt(const char *dt, char *out, size_t len)
{
	snprintf(out, len, "%s", dt);
	for (char *p = out; *p; p++)
		if (*p == '_')
			*p = ' ';
}

/* picoseconds as nanoseconds, every digit: 1234567 -> "1234.567", 1500000000 -> "1500000" */
static const char *ps_as_ns(uint64_t ps, char *buf, size_t len)
{
	unsigned frac = (unsigned)(ps % 1000), digits = 3;

	if (!frac) {
		snprintf(buf, len, "%" PRIu64, ps / 1000);
		return buf;
	}
	for (; frac % 10 == 0; frac /= 10)
		digits--;
	snprintf(buf, len, "%" PRIu64 ".%0*u", ps / 1000, (int)digits, frac);
	return buf;
}

static void fmt_figure(json_object *rec, char *buf, size_t len)
{
	json_object *type = out_lookup(rec, "type"), *v;
	const char *t = type ? json_object_get_string(type) : "";
	char dt[64], num[32];
	bool f;

	buf[0] = '\0';
	if (!strcmp(t, "dslbis")) {
		human_dt(json_object_get_string(out_lookup(rec, "data_type")), dt, sizeof(dt));
		if ((v = out_lookup(rec, "latency_ps")))
			snprintf(buf, len, "%s %s ns", dt, ps_as_ns(json_object_get_uint64(v), num, sizeof(num)));
		else if ((v = out_lookup(rec, "bandwidth_mbps")))
			snprintf(buf, len, "%s %" PRIu64 " MB/s", dt, json_object_get_uint64(v));
		else
			snprintf(buf, len, "%s not given", dt);
		if ((v = out_lookup(rec, "hierarchy")) && strcmp(json_object_get_string(v), "memory"))
			snprintf(buf + strlen(buf), len - strlen(buf), " (%s)", json_object_get_string(v));
	} else if (!strcmp(t, "dsmas")) {
		json_object *flags = out_lookup(rec, "flag_names");
		size_t n = flags ? json_object_array_length(flags) : 0;
		snprintf(buf, len, "%s", n ? "" : "volatile");
		for (size_t i = 0; i < n; i++)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? "," : "",
				 json_object_get_string(json_object_array_get_idx(flags, i)));
	} else if (!strcmp(t, "dsemts")) {
		snprintf(buf, len, "EFI %s", json_object_get_string(out_lookup(rec, "efi_type_name")));
	} else if (!strcmp(t, "dsmscis")) {
		uint64_t size = jget_u64(rec, "cache_size", &f);
		char hs[32];
		snprintf(buf, len, "cache %s level %" PRIu64 "/%" PRIu64 " %s line %" PRIu64,
			 out_human_size(size, hs, sizeof(hs)), jget_u64(rec, "cache.level", &f),
			 jget_u64(rec, "cache.total_levels", &f),
			 json_object_get_string(out_lookup(rec, "cache.write_policy")),
			 jget_u64(rec, "cache.line_size", &f));
	} else if (!strcmp(t, "dsis")) {
		v = out_lookup(rec, "memory_attached");
		snprintf(buf, len, "initiator%s", v && json_object_get_boolean(v) ? " attached to device memory" : "");
	} else if (!strcmp(t, "sslbis")) {
		json_object *e = out_lookup(rec, "entries");
		human_dt(json_object_get_string(out_lookup(rec, "data_type")), dt, sizeof(dt));
		snprintf(buf, len, "%s, %zu port pairs", dt, e ? json_object_array_length(e) : (size_t)0);
	} else if (!strcmp(t, "reserved")) {
		snprintf(buf, len, "type %" PRIu64 " (reserved), kept as is", jget_u64(rec, "type_id", &f));
	}
}

/* the hex dump of a table's "raw" string, 16 bytes a line */
static void hexdump(json_object *tab)
{
	json_object *raw = out_lookup(tab, "raw"), *dev = out_lookup(tab, "device");
	const char *hex = raw ? json_object_get_string(raw) : NULL;
	size_t n = hex ? strlen(hex) / 2 : 0;

	if (!hex)
		return;
	printf("\n%s: %zu bytes\n", json_object_get_string(dev), n);
	for (size_t off = 0; off < n; off += 16) {
		printf("%04zx ", off);
		for (size_t i = off; i < off + 16; i++)
			printf(i < n ? " %.2s" : "   ", hex + 2 * i);
		printf("\n");
	}
}

/* the kernel's figures below the structures, and what marks them */
static void kernel_figures(struct cmd_env *env, json_object *root)
{
	json_object *tables = out_lookup(root, "tables"), *k;
	bool any = false, bug = false;
	char err[256];

	for (size_t i = 0; i < json_object_array_length(tables); i++)
		for (size_t j = 0; (k = out_lookup(json_object_array_get_idx(tables, i), "kernel.figures")) &&
				   j < json_object_array_length(k); j++) {
			json_object *v = out_lookup(json_object_array_get_idx(k, j), "latency_check.verdict");
			any = true;
			bug |= v && !strcmp(json_object_get_string(v), "link_latency_ps_as_ns");
		}
	if (!any || env->out.columns)
		return;
	printf("\nWhat the kernel derived (qos_class; region and node access figures, ns and MB/s):\n");
	out_print(&env->out, &cdat_kernel_out_table, root, err, sizeof(err));
	if (bug)
		printf("link_latency_ps_as_ns: the kernel adds the PCIe link latency in picoseconds to nanoseconds "
		       "(Linux 6.12): trust the CDAT latency\n");
}

int cdat_print(struct cmd_env *env, json_object *root, bool raw)
{
	json_object *tables = out_lookup(root, "tables");
	char err[256];

	if (out_print(&env->out, &cdat_out_table, root, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		return EXIT_USAGE;
	}
	if (env->out.json)
		return EXIT_OK;
	kernel_figures(env, root);
	for (size_t i = 0; raw && i < json_object_array_length(tables); i++)
		hexdump(json_object_array_get_idx(tables, i));
	return EXIT_OK;
}
