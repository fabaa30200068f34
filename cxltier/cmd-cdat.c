// SPDX-License-Identifier: GPL-2.0-only
/* cmd-cdat.c - `cxltier cdat`: decode CDAT tables from the kernel or a file,
 * beside what the kernel derived from them */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cmd.h"
#include "json-build.h"
#include "../lib/access.h"
#include "../lib/cdat.h"
#include "../lib/context.h"
#include "../lib/topology.h"

#define CXLDEV "/sys/bus/cxl/devices"

static void fmt_dpa(json_object *rec, char *buf, size_t len);
static void fmt_figure(json_object *rec, char *buf, size_t len);
static void fmt_checksum(json_object *rec, char *buf, size_t len);
static void fmt_name(json_object *rec, char *buf, size_t len);

static const char *const levels[] = { "tables", "structures", NULL };
static const struct out_column columns[] = {
	{ "NAME", "device|type", OUT_STR, 0.1, 0, "device (or file), then structure type", fmt_name },
	{ "HANDLE", "handle", OUT_NUM, 0.1, 0, "DSMAD handle (DSIS: initiator handle)", NULL },
	{ "DPA", "dpa_base", OUT_STR, 0.1, 0, "device physical address range the figure applies to", fmt_dpa },
	{ "FIGURE", "data_type", OUT_STR, 0.1, 0, "what the structure says, in real units", fmt_figure },
	{ "OFFSET", "offset", OUT_NUM, 0.1, 0, "byte offset in the table", NULL },
	{ "LENGTH", "length", OUT_NUM, 0.1, 0, "length in bytes", NULL },
	{ "REV", "revision", OUT_NUM, 0.1, 0, "table revision", NULL },
	{ "SEQ", "sequence", OUT_NUM, 0.1, 0, "table sequence number", NULL },
	{ "CHECKSUM", "checksum_valid", OUT_STR, 0.1, 0, "table checksum", fmt_checksum },
};
static const struct out_table table = {
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
};
static const struct out_table ktable = {
	klevels, NULL, kcolumns, sizeof(kcolumns) / sizeof(kcolumns[0]),
	"NAME,QOS,ACCESS,RD-LAT,WR-LAT,RD-BW,WR-BW",
};

static void usage(void)
{
	printf("usage: cxltier cdat [MEMDEV|ENDPOINT|PORT...] [--file BLOB] [--raw] [--force] [-j]\n\n"
	       "Decode CDAT tables: DSMAS, DSLBIS, DSMSCIS, DSIS, DSEMTS and SSLBIS, with latency\n"
	       "and bandwidth in real units, beside what the kernel derived (qos_class, region\n"
	       "and node access0/access1 figures). Without arguments: every port with a CDAT.\n\n"
	       "  -f, --file BLOB   decode a file instead (repeatable)\n"
	       "      --raw         hex dump of the table beside the decode (JSON: \"raw\")\n"
	       "      --force       show the valid part of a malformed table (still exit 1)\n"
	       "  -j, --json        {\"tables\":[{\"device\",...,\"structures\":[...],\"kernel\":{...}}]}\n"
	       "  -o, -n, -b, -v, --sysroot DIR   as for every command\n");
	out_columns_help(&table);
}

/* ---- table-cell formatters (the JSON keeps raw fields) ---- */

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

static void fmt_dpa(json_object *rec, char *buf, size_t len)
{
	bool fb, fl;
	uint64_t base = jget_u64(rec, "dpa_base", &fb), l = jget_u64(rec, "dpa_length", &fl);

	buf[0] = '\0';
	if (fb && fl && l)
		snprintf(buf, len, "0x%" PRIx64 "-0x%" PRIx64, base, base + l - 1);
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

static void fmt_figure(json_object *rec, char *buf, size_t len)
{
	json_object *type = out_lookup(rec, "type"), *v;
	const char *t = type ? json_object_get_string(type) : "";
	char dt[64];
	bool f;

	buf[0] = '\0';
	if (!strcmp(t, "dslbis")) {
		human_dt(json_object_get_string(out_lookup(rec, "data_type")), dt, sizeof(dt));
		if ((v = out_lookup(rec, "latency_ns")))
			snprintf(buf, len, "%s %g ns", dt, json_object_get_double(v));
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

/* ---- decode to JSON ---- */

static void add_value(json_object *o, uint8_t dt, uint64_t base, uint16_t entry)
{
	uint64_t v;

	if (!cdat_value(base, entry, &v))
		return;	/* 0 = not given, 0xffff = unreachable: absent */
	if (cdat_data_type_is_latency(dt)) {
		jb_u64(o, "latency_ps", v);
		jb_double(o, "latency_ns", v / 1000.0);
	} else if (cdat_data_type_name(dt)) {
		jb_u64(o, "bandwidth_mbps", v);
	}
}

static void add_data_type(json_object *o, uint8_t dt)
{
	const char *n = cdat_data_type_name(dt);

	jb_str(o, "data_type", n ? n : "reserved");
	jb_int(o, "data_type_id", dt);
}

static void add_dsmas_range(json_object *o, const struct cdat_table *t, uint8_t handle, uint64_t off, uint64_t len)
{
	const struct cdat_struct *m = cdat_dsmas(t, handle);

	if (!m)
		return;
	if (len) {	/* DSEMTS: a part of the DSMAS range */
		jb_u64(o, "dpa_base", m->u.dsmas.dpa_base + off);
		jb_u64(o, "dpa_length", len);
	} else {
		jb_u64(o, "dpa_base", m->u.dsmas.dpa_base);
		jb_u64(o, "dpa_length", m->u.dsmas.dpa_length);
	}
}

static void port_id(json_object *o, const char *k, uint16_t id)
{
	char key[32];

	snprintf(key, sizeof(key), "%s_id", k);
	jb_int(o, key, id);
	if (id == CDAT_SSLBIS_PORT_UPSTREAM)
		jb_str(o, k, "upstream");
	else if (id == CDAT_SSLBIS_PORT_ANY)
		jb_str(o, k, "any");
	else {
		char s[16];
		snprintf(s, sizeof(s), "downstream%u", id);
		jb_str(o, k, s);
	}
}

static json_object *struct_json(const struct cdat_table *t, const struct cdat_struct *s)
{
	json_object *o = json_object_new_object(), *a;
	static const struct { unsigned bit; const char *name; } dsmas_flags[] = {
		{ CDAT_DSMAS_NON_VOLATILE, "non_volatile" }, { CDAT_DSMAS_SHAREABLE, "shareable" },
		{ CDAT_DSMAS_HW_COHERENCY, "hw_managed_coherency" },
		{ CDAT_DSMAS_DYNAMIC_CAPACITY, "dynamic_capacity" }, { CDAT_DSMAS_READ_ONLY, "read_only" },
	};

	jb_str(o, "type", cdat_type_name(s->type));
	jb_int(o, "type_id", s->type);
	jb_u64(o, "offset", s->offset);
	jb_int(o, "length", s->length);
	switch (s->type) {
	case CDAT_DSMAS:
		jb_int(o, "handle", s->u.dsmas.handle);
		jb_int(o, "flags", s->u.dsmas.flags);
		a = jb_arr(o, "flag_names");
		for (size_t i = 0; i < sizeof(dsmas_flags) / sizeof(dsmas_flags[0]); i++)
			if (s->u.dsmas.flags & dsmas_flags[i].bit)
				json_object_array_add(a, json_object_new_string(dsmas_flags[i].name));
		jb_u64(o, "dpa_base", s->u.dsmas.dpa_base);
		jb_u64(o, "dpa_length", s->u.dsmas.dpa_length);
		break;
	case CDAT_DSLBIS:
		jb_int(o, "handle", s->u.dslbis.handle);
		jb_int(o, "flags", s->u.dslbis.flags);
		jb_str(o, "hierarchy", cdat_hierarchy_name(s->u.dslbis.flags));
		add_data_type(o, s->u.dslbis.data_type);
		jb_u64(o, "entry_base_unit", s->u.dslbis.base_unit);
		a = jb_arr(o, "entries");
		for (int i = 0; i < 3; i++)
			json_object_array_add(a, json_object_new_int(s->u.dslbis.entry[i]));
		add_value(o, s->u.dslbis.data_type, s->u.dslbis.base_unit, s->u.dslbis.entry[0]);
		add_dsmas_range(o, t, s->u.dslbis.handle, 0, 0);
		break;
	case CDAT_DSMSCIS: {
		struct cdat_cache_attrs c;
		json_object *co;
		cdat_cache_attrs(s->u.dsmscis.attributes, &c);
		jb_int(o, "handle", s->u.dsmscis.handle);
		jb_u64(o, "cache_size", s->u.dsmscis.cache_size);
		jb_int(o, "attributes", s->u.dsmscis.attributes);
		co = jb_obj(o, "cache");
		jb_int(co, "total_levels", c.total_levels);
		jb_int(co, "level", c.level);
		jb_str(co, "associativity", c.associativity);
		jb_str(co, "write_policy", c.write_policy);
		jb_int(co, "line_size", c.line_size);
		add_dsmas_range(o, t, s->u.dsmscis.handle, 0, 0);
		break;
	}
	case CDAT_DSIS:
		jb_int(o, "flags", s->u.dsis.flags);
		jb_bool(o, "memory_attached", s->u.dsis.flags & 1);
		jb_int(o, "handle", s->u.dsis.handle);
		break;
	case CDAT_DSEMTS:
		jb_int(o, "handle", s->u.dsemts.handle);
		jb_int(o, "efi_type", s->u.dsemts.efi_type);
		jb_str(o, "efi_type_name", cdat_efi_type_name(s->u.dsemts.efi_type));
		jb_u64(o, "dpa_offset", s->u.dsemts.dpa_offset);
		add_dsmas_range(o, t, s->u.dsemts.handle, s->u.dsemts.dpa_offset, s->u.dsemts.dpa_length);
		if (!out_lookup(o, "dpa_length"))
			jb_u64(o, "dpa_length", s->u.dsemts.dpa_length);
		break;
	case CDAT_SSLBIS:
		add_data_type(o, s->u.sslbis.data_type);
		jb_u64(o, "entry_base_unit", s->u.sslbis.base_unit);
		a = jb_arr(o, "entries");
		for (size_t i = 0; i < s->u.sslbis.nentries; i++) {
			const struct cdat_sslbis_entry *e = &s->u.sslbis.entries[i];
			json_object *eo = json_object_new_object();
			port_id(eo, "port_x", e->port_x);
			port_id(eo, "port_y", e->port_y);
			jb_int(eo, "entry", e->value);
			add_value(eo, s->u.sslbis.data_type, s->u.sslbis.base_unit, e->value);
			json_object_array_add(a, eo);
		}
		break;
	}
	return o;
}

/* order: by DSMAD handle group (DSMAS first in a group), then table order */
static int group_of(const struct cdat_struct *s)
{
	switch (s->type) {
	case CDAT_DSMAS: return s->u.dsmas.handle * 4;
	case CDAT_DSLBIS: return s->u.dslbis.handle * 4 + 1;
	case CDAT_DSMSCIS: return s->u.dsmscis.handle * 4 + 2;
	case CDAT_DSEMTS: return s->u.dsemts.handle * 4 + 3;
	default: return 4096 + s->type;
	}
}

static int cmp_group(const void *a, const void *b)
{
	const struct cdat_struct *x = *(const struct cdat_struct *const *)a, *y = *(const struct cdat_struct *const *)b;
	int gx = group_of(x), gy = group_of(y);

	if (gx / 4 != gy / 4 || (gx >= 4096) != (gy >= 4096))
		return gx < gy ? -1 : 1;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static json_object *table_json(const struct cdat_table *t, const uint8_t *buf, size_t len, bool raw)
{
	json_object *o = json_object_new_object(), *arr;
	const struct cdat_struct **order = calloc(t->n ? t->n : 1, sizeof(*order));

	jb_u64(o, "length", t->length);
	jb_int(o, "revision", t->revision);
	jb_int(o, "checksum", t->checksum);
	jb_bool(o, "checksum_valid", t->checksum_valid);
	jb_u64(o, "sequence", t->sequence);
	if (t->trailing)
		jb_u64(o, "trailing_bytes", t->trailing);
	arr = jb_arr(o, "structures");
	if (order) {
		for (size_t i = 0; i < t->n; i++)
			order[i] = &t->s[i];
		qsort(order, t->n, sizeof(*order), cmp_group);
		for (size_t i = 0; i < t->n; i++)
			json_object_array_add(arr, struct_json(t, order[i]));
		free(order);
	}
	if (raw) {
		char *hex = malloc(2 * len + 1);
		if (hex) {
			for (size_t i = 0; i < len; i++)
				snprintf(hex + 2 * i, 3, "%02x", buf[i]);
			hex[2 * len] = '\0';
			jb_str(o, "raw", hex);
			free(hex);
		}
	}
	return o;
}

/* ---- sources ---- */

struct source {
	char device[CT_NAME];		/* endpointN, portN, or the file name */
	char memdev[CT_NAME];		/* for endpoints */
	char path[512];
	bool is_file;
};

static int read_file(const char *path, uint8_t **buf, size_t *len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, n = 0;

	if (!f) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return -errno;
	}
	*buf = malloc(cap);
	while (*buf) {
		size_t r = fread(*buf + n, 1, cap - n, f);
		n += r;
		if (n < cap)
			break;
		if (cap >= (64u << 20)) {
			snprintf(err, errlen, "%s is larger than 64 MiB: not a CDAT table", path);
			free(*buf);
			fclose(f);
			return -EFBIG;
		}
		uint8_t *nb = realloc(*buf, cap *= 2);
		if (!nb)
			free(*buf);
		*buf = nb;
	}
	if (!*buf || ferror(f)) {
		snprintf(err, errlen, "cannot read %s: %s", path, *buf ? strerror(errno) : "out of memory");
		free(*buf);
		fclose(f);
		return -EIO;
	}
	fclose(f);
	*len = n;
	return 0;
}

static int kernel_release_major_minor(struct ct_context *ctx, int *major, int *minor)
{
	char rel[128];

	if (ct_sysfs_read_str(&ctx->sys, "/proc/sys/kernel/osrelease", rel, sizeof(rel)))
		return -1;
	return sscanf(rel, "%d.%d", major, minor) == 2 ? 0 : -1;
}

/* why a port has no CDAT attribute: exit code and message */
static int explain_missing(struct cmd_env *env, const struct source *s)
{
	struct ct_context *ctx = env->ctx;
	char path[256];
	int major = 0, minor = 0;
	bool is_switch = !strncmp(s->device, "port", 4);

	if (!ct_sysfs_exists(&ctx->sys, ct_path(path, sizeof(path), CXLDEV "/%s/driver", s->device))) {
		cmd_err(env, "%s is not bound to the cxl_port driver, and its CDAT attribute only exists while it is bound; "
			"check 'dmesg' for probe errors and that cxl_port is loaded", s->device);
		return EXIT_FAIL;
	}
	if (kernel_release_major_minor(ctx, &major, &minor) == 0 &&
	    (major < 6 || (is_switch && major == 6 && minor < 8))) {
		cmd_err(env, "%s: kernel %d.%d does not expose %s CDAT in sysfs (endpoints since 6.0, switch ports since 6.8)",
			s->device, major, minor, is_switch ? "switch" : "endpoint");
		return EXIT_UNSUPPORTED;
	}
	cmd_err(env, "%s has no CDAT: %s", s->device,
		is_switch ? "the switch has no CDAT (DOE table access) mailbox" :
			    "the device has no DOE mailbox with CDAT table access");
	return EXIT_UNSUPPORTED;
}

/* one region's or node's access figures, when the kernel published them */
static void add_figure(struct ct_context *ctx, json_object *figs, const char *object, int access, const char *dir)
{
	struct ct_access acc;
	json_object *f;

	if (ct_access_read(&ctx->sys, dir, &acc) || !acc.present)
		return;
	f = json_object_new_object();
	jb_str(f, "object", object);
	jb_int(f, "access", access);
	jb_u64(f, "read_latency_ns", acc.read_latency);
	jb_u64(f, "write_latency_ns", acc.write_latency);
	jb_u64(f, "read_bandwidth_mbps", acc.read_bandwidth);
	jb_u64(f, "write_bandwidth_mbps", acc.write_bandwidth);
	json_object_array_add(figs, f);
}

static void add_kernel_view(struct cmd_env *env, json_object *tab, const struct source *s,
			    const struct ct_topology *topo)
{
	struct ct_context *ctx = env->ctx;
	json_object *k, *figs;
	char path[256];
	int64_t qos;

	if (!s->memdev[0])
		return;
	k = jb_obj(tab, "kernel");
	if (ct_sysfs_read_s64(&ctx->sys, ct_path(path, sizeof(path), CXLDEV "/%s/ram/qos_class", s->memdev), &qos) == 0)
		jb_int(k, "ram_qos_class", qos);
	if (ct_sysfs_read_s64(&ctx->sys, ct_path(path, sizeof(path), CXLDEV "/%s/pmem/qos_class", s->memdev), &qos) == 0)
		jb_int(k, "pmem_qos_class", qos);
	ct_error_clear(&ctx->err);
	figs = jb_arr(k, "figures");
	for (size_t i = 0; topo && i < topo->nregions; i++) {
		const struct ct_region *r = &topo->regions[i];
		if (!ct_region_has_memdev(r, s->memdev))
			continue;
		for (int a = 0; a < 2; a++) {
			add_figure(ctx, figs, r->name, a, ct_path(path, sizeof(path), CXLDEV "/%s/access%d", r->name, a));
		}
		for (size_t d = 0; d < r->ndax; d++) {
			int node = r->dax[d].target_node;
			for (int a = 0; node >= 0 && a < 2; a++) {
				char name[32];
				snprintf(name, sizeof(name), "node%d", node);
				add_figure(ctx, figs, name, a,
					   ct_path(path, sizeof(path), "/sys/devices/system/node/node%d/access%d/initiators", node, a));
			}
		}
	}
}

static int endpoint_of_memdev(struct ct_context *ctx, const char *memdev, char *out, size_t len)
{
	char **eps, path[256], name[CT_NAME];
	size_t n;
	int found = -ENOENT;

	if (ct_sysfs_list(&ctx->sys, CXLDEV, "endpoint", &eps, &n))
		return -ENOENT;
	for (size_t i = 0; i < n && found; i++)
		if (ct_sysfs_link_name(&ctx->sys, ct_path(path, sizeof(path), CXLDEV "/%s/uport", eps[i]),
				       name, sizeof(name)) == 0 && !strcmp(name, memdev)) {
			ct_strlcpy(out, eps[i], len);
			found = 0;
		}
	ct_strv_free(eps, n);
	ct_error_clear(&ctx->err);
	return found;
}

/* resolve a command-line name to a source; exit code on failure */
static int resolve(struct cmd_env *env, const char *name, struct source *s)
{
	struct ct_context *ctx = env->ctx;
	char path[256];

	memset(s, 0, sizeof(*s));
	if (!name || !*name) {
		cmd_err(env, "an empty device name");
		return EXIT_USAGE;
	}
	if (!strncmp(name, "mem", 3)) {
		if (!ct_sysfs_exists(&ctx->sys, ct_path(path, sizeof(path), CXLDEV "/%s", name))) {
			cmd_err(env, "no memdev '%s' on this system (see 'cxltier list')", name);
			return EXIT_FAIL;
		}
		if (endpoint_of_memdev(ctx, name, s->device, sizeof(s->device))) {
			cmd_err(env, "%s has no endpoint port: cxl_mem is not bound or the port is not enumerated "
				"(check 'lsmod | grep cxl_mem' and dmesg)", name);
			return EXIT_FAIL;
		}
		ct_strlcpy(s->memdev, name, sizeof(s->memdev));
	} else if (!strncmp(name, "endpoint", 8) || !strncmp(name, "port", 4)) {
		if (!ct_sysfs_exists(&ctx->sys, ct_path(path, sizeof(path), CXLDEV "/%s", name))) {
			cmd_err(env, "no CXL port '%s' on this system", name);
			return EXIT_FAIL;
		}
		ct_strlcpy(s->device, name, sizeof(s->device));
		if (!strncmp(name, "endpoint", 8))
			ct_sysfs_link_name(&ctx->sys, ct_path(path, sizeof(path), CXLDEV "/%s/uport", name),
					   s->memdev, sizeof(s->memdev));
	} else {
		cmd_err(env, "'%s' is not a memdev, endpoint or port name (use --file for a file)", name);
		return EXIT_USAGE;
	}
	ct_path(s->path, sizeof(s->path), CXLDEV "/%s/CDAT", s->device);
	ct_error_clear(&ctx->err);
	return EXIT_OK;
}

static int all_sources(struct cmd_env *env, struct source **out, size_t *n)
{
	struct ct_context *ctx = env->ctx;
	char **names = NULL, path[256];
	size_t count = 0;

	*out = NULL;
	*n = 0;
	if (!ct_sysfs_exists(&ctx->sys, CXLDEV))
		return EXIT_OK;
	if (ct_sysfs_list(&ctx->sys, CXLDEV, NULL, &names, &count)) {
		cmd_err(env, "%s", ct_context_message(ctx));
		return EXIT_FAIL;
	}
	*out = calloc(count ? count : 1, sizeof(**out));
	for (size_t i = 0; *out && i < count; i++) {
		if (strncmp(names[i], "endpoint", 8) && strncmp(names[i], "port", 4))
			continue;
		if (!ct_sysfs_exists(&ctx->sys, ct_path(path, sizeof(path), CXLDEV "/%s/CDAT", names[i])))
			continue;
		resolve(env, names[i], &(*out)[(*n)++]);
	}
	ct_strv_free(names, count);
	return EXIT_OK;
}

/* one table: 0 ok, or an exit code; *tab is set when something is shown */
static int decode_one(struct cmd_env *env, const struct source *s, bool raw, bool force,
		      const struct ct_topology *topo, json_object **tab)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	struct cdat_table t;
	struct ct_error derr = { 0 };
	char err[600];
	int rc, code = EXIT_OK;

	*tab = NULL;
	if (s->is_file) {
		rc = read_file(s->path, &buf, &len, err, sizeof(err));
		if (rc) {
			cmd_err(env, "%s", err);
			return EXIT_FAIL;
		}
	} else {
		if (!ct_sysfs_exists(&env->ctx->sys, s->path))
			return explain_missing(env, s);
		rc = ct_sysfs_read_bin(&env->ctx->sys, s->path, &buf, &len);
		if (rc == -EACCES || rc == -EPERM) {
			cmd_err(env, "%s: the CDAT attribute is readable by root only (mode 0400): run cxltier as root", s->device);
			return EXIT_FAIL;
		}
		if (rc == -ENXIO) {
			cmd_err(env, "%s: the kernel has no CDAT for this device (ENXIO: reading it at probe failed; see dmesg)", s->device);
			return EXIT_FAIL;
		}
		if (rc) {
			cmd_err(env, "%s", ct_context_message(env->ctx));
			return EXIT_FAIL;
		}
		if (!len) {
			cmd_err(env, "%s: CDAT is empty: the kernel failed to read or validate the table from the device (a bad checksum, or a DOE error; see dmesg)", s->device);
			free(buf);
			return EXIT_FAIL;
		}
	}
	rc = cdat_decode(buf, len, &t, &derr);
	if (rc) {
		cmd_err(env, "%s: %s", s->device, derr.msg);
		if (force)
			cmd_warn(env, "%s: showing the %zu structures decoded before the fault (--force)", s->device, t.n);
		code = EXIT_FAIL;
	}
	if (!rc || force) {
		*tab = table_json(&t, buf, len, raw);
		json_object_object_add(*tab, "device", json_object_new_string(s->device));
		jb_str(*tab, "memdev", s->memdev);
		jb_str(*tab, "source", s->is_file ? s->path : s->path);
		jb_bool(*tab, "valid", rc == 0);
		if (!s->is_file)
			add_kernel_view(env, *tab, s, topo);
	}
	cdat_free(&t);
	free(buf);
	return code;
}

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

int cmd_cdat(int argc, char **argv, struct cmd_env *env)
{
	enum { OPT_RAW = 0x2001, OPT_FORCE };
	static const struct option opts[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "raw", no_argument, NULL, OPT_RAW },
		{ "force", no_argument, NULL, OPT_FORCE },
		COMMON_LONG_OPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct source *src = NULL;
	size_t nsrc = 0, ok = 0, failed = 0, unsupported = 0;
	bool raw = false, force = false;
	struct ct_topology topo = { 0 };
	bool have_topo = false;
	json_object *root = NULL, *tables;
	char err[256];
	int c, rc = EXIT_OK;
	char **files = NULL;
	size_t nfiles = 0;

	env->opts = opts;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "f:" COMMON_SHORT_OPTS, opts, NULL)) != -1) {
		if (c == 'f') {
			char **nf = realloc(files, (nfiles + 1) * sizeof(*nf));
			if (!nf)
				goto out;
			files = nf;
			files[nfiles++] = optarg;
		} else if (c == OPT_RAW) {
			raw = true;
		} else if (c == OPT_FORCE) {
			force = true;
		} else if ((rc = cmd_common_opt(env, c, optarg, argc, argv, usage))) {
			rc = cmd_exit_code(rc);
			goto out;
		}
	}
	if (nfiles && optind < argc) {
		cmd_err(env, "give either devices or --file, not both");
		rc = EXIT_USAGE;
		goto out;
	}
	if ((rc = cmd_context(env)))
		goto out;
	if (nfiles) {
		src = calloc(nfiles, sizeof(*src));
		for (size_t i = 0; src && i < nfiles; i++) {
			src[i].is_file = true;
			ct_strlcpy(src[i].device, files[i], sizeof(src[i].device));
			ct_strlcpy(src[i].path, files[i], sizeof(src[i].path));
		}
		nsrc = src ? nfiles : 0;
	} else if (optind < argc) {
		src = calloc(argc - optind, sizeof(*src));
		for (int i = optind; src && i < argc; i++) {
			int r = resolve(env, argv[i], &src[nsrc]);
			if (r == EXIT_USAGE) {
				rc = r;
				goto out;
			}
			if (r)
				failed++;
			else
				nsrc++;
		}
	} else if ((rc = all_sources(env, &src, &nsrc))) {
		goto out;
	}
	if (!nfiles) {
		have_topo = ct_topology_load(env->ctx, &topo) == 0;
		if (!have_topo)
			cmd_info(env, 1, "no kernel cross-check: %s", ct_context_message(env->ctx));
	}
	root = json_object_new_object();
	tables = jb_arr(root, "tables");
	for (size_t i = 0; i < nsrc; i++) {
		json_object *tab;
		int r = decode_one(env, &src[i], raw, force, have_topo ? &topo : NULL, &tab);
		if (tab)
			json_object_array_add(tables, tab);
		if (r == EXIT_OK)
			ok++;
		else if (r == EXIT_UNSUPPORTED)
			unsupported++;
		else
			failed++;
	}
	if (!nsrc && !failed && !env->out.json)
		fprintf(stderr, "cxltier cdat: no CXL port with a CDAT on this system\n");
	if (out_print(&env->out, &table, root, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		rc = EXIT_USAGE;
		goto out;
	}
	if (!env->out.json) {
		json_object *k;
		bool any = false;
		for (size_t i = 0; i < json_object_array_length(tables); i++)
			any |= (k = out_lookup(json_object_array_get_idx(tables, i), "kernel.figures")) &&
			       json_object_array_length(k);
		if (any && !env->out.columns) {
			printf("\nWhat the kernel derived (qos_class; region and node access figures, ns and MB/s):\n");
			out_print(&env->out, &ktable, root, err, sizeof(err));
		}
		if (raw)
			for (size_t i = 0; i < json_object_array_length(tables); i++)
				hexdump(json_object_array_get_idx(tables, i));
	}
	if (!failed && !unsupported)
		rc = EXIT_OK;
	else if (ok)
		rc = EXIT_PARTIAL;
	else if (unsupported && !failed)
		rc = EXIT_UNSUPPORTED;
	else
		rc = EXIT_FAIL;
out:
	if (have_topo)
		ct_topology_free(&topo);
	json_object_put(root);
	free(src);
	free(files);
	return rc;
}
