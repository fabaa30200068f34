// SPDX-License-Identifier: LGPL-2.1-or-later
/* fabric.c - root decoders, port paths and endpoint decoders from
 * sysfs: what planning a region needs (see fabric.h) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/array.h"
#include "core/context.h"
#include "cxl/fabric.h"

#define CXLDEV "/sys/bus/cxl/devices"
#define SZ_256M (256ULL << 20)

static uint64_t read_u64(struct ct_sysfs *s, const char *dev, const char *attr, uint64_t dflt)
{
	char path[256];
	uint64_t v;

	if (ct_sysfs_read_u64(s, ct_path(path, sizeof(path), CXLDEV "/%s/%s", dev, attr), 0, &v))
		return dflt;
	return v;
}

static int read_int(struct ct_sysfs *s, const char *dev, const char *attr, int dflt)
{
	char path[256];
	int64_t v;

	if (ct_sysfs_read_s64(s, ct_path(path, sizeof(path), CXLDEV "/%s/%s", dev, attr), &v))
		return dflt;
	return (int)v;
}

/* the largest free range of a root decoder, as the kernel allocates HPA:
 * 256 MiB aligned, around the regions it already holds */
static void free_range(struct ct_sysfs *s, struct ct_root_decoder *rd)
{
	char path[256], **regs = NULL;
	size_t nregs = 0;
	uint64_t cur = rd->start, end = rd->start + rd->size;

	rd->free_start = rd->free_size = 0;
	if (ct_sysfs_list(s, ct_path(path, sizeof(path), CXLDEV "/%s", rd->name), "region", &regs, &nregs))
		nregs = 0;
	for (;;) {
		uint64_t next = end, next_end = end, a = (cur + SZ_256M - 1) & ~(SZ_256M - 1);

		/* the lowest region at or above cur */
		for (size_t i = 0; i < nregs; i++) {
			uint64_t res = read_u64(s, regs[i], "resource", UINT64_MAX), sz = read_u64(s, regs[i], "size", 0);
			if (res == UINT64_MAX || !sz || res + sz <= cur)
				continue;
			if (res < next) {
				next = res < cur ? cur : res;
				next_end = res + sz;
			}
		}
		if (next > a && next - a > rd->free_size) {
			rd->free_start = a;
			rd->free_size = next - a;
		}
		if (next >= end)
			break;
		cur = next_end;
	}
	ct_strv_free(regs, nregs);
}

static int load_root(struct ct_context *ctx, const char *name, struct ct_root_decoder *rd)
{
	struct ct_sysfs *s = &ctx->sys;
	char path[256], real[1024], list[256], *slash;

	ct_strlcpy(rd->name, name, sizeof(rd->name));
	if (ct_sysfs_realpath(s, ct_path(path, sizeof(path), CXLDEV "/%s", name), real, sizeof(real)) == 0 &&
	    (slash = strrchr(real, '/'))) {
		*slash = '\0';
		slash = strrchr(real, '/');
		ct_strlcpy(rd->port, slash ? slash + 1 : real, sizeof(rd->port));
	}
	rd->cap_ram = read_u64(s, name, "cap_ram", 0) == 1;
	rd->can_create_ram = ct_sysfs_exists(s, ct_path(path, sizeof(path), CXLDEV "/%s/create_ram_region", name));
	rd->locked = read_u64(s, name, "locked", 0) == 1;
	rd->ways = (unsigned)read_u64(s, name, "interleave_ways", 0);
	rd->granularity = (unsigned)read_u64(s, name, "interleave_granularity", 0);
	rd->start = read_u64(s, name, "start", 0);
	rd->size = read_u64(s, name, "size", 0);
	rd->qos_class = read_int(s, name, "qos_class", -1);
	if (ct_sysfs_read_str(s, ct_path(path, sizeof(path), CXLDEV "/%s/target_list", name), list, sizeof(list)) == 0)
		for (char *save, *t = strtok_r(list, ", ", &save); t && rd->ntargets < CT_MAX_TARGETS;
		     t = strtok_r(NULL, ", ", &save))
			rd->targets[rd->ntargets++] = atoi(t);
	free_range(s, rd);
	ct_error_clear(&ctx->err);
	return 0;
}

/* is `dport` (a real path) `dev` itself or an ancestor of it */
static bool leads_to(const char *dport, const char *dev)
{
	size_t n = strlen(dport);

	return strncmp(dport, dev, n) == 0 && (dev[n] == '\0' || dev[n] == '/');
}

/* the id of the downstream port of `parent` (a directory) that leads to `child` */
static int dport_to(struct ct_sysfs *s, const char *parent, const char *child)
{
	char path[1280], want[1024], real[1024], **dp = NULL;
	size_t ndp = 0;
	int id = -1;

	if (ct_sysfs_realpath(s, ct_path(path, sizeof(path), "%s/parent_dport", child), want, sizeof(want)) &&
	    ct_sysfs_realpath(s, ct_path(path, sizeof(path), "%s/uport", child), want, sizeof(want)))
		return -1;
	if (ct_sysfs_list(s, parent, "dport", &dp, &ndp))
		return -1;
	for (size_t i = 0; i < ndp && id < 0; i++)
		if (ct_sysfs_realpath(s, ct_path(path, sizeof(path), "%s/%s", parent, dp[i]), real, sizeof(real)) == 0 &&
		    leads_to(real, want))
			id = atoi(dp[i] + 5);
	ct_strv_free(dp, ndp);
	return id;
}

/* the first n bytes of src, terminated */
static void prefix(char *dst, size_t len, const char *src, size_t n)
{
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* root0/port1/.../endpointN: the hops from the root down to the endpoint */
static void load_path(struct ct_sysfs *s, const char *epreal, struct ct_endpoint_info *e)
{
	const char *root = strstr(epreal, "/root"), *q, *slash;
	char parent[1024], child[1024];

	e->depth = 0;
	if (!root)
		return;
	for (q = root + 1; (slash = strchr(q, '/')) && e->depth < CT_MAX_DEPTH; q = slash + 1) {
		const char *next = strchr(slash + 1, '/');

		prefix(parent, sizeof(parent), epreal, (size_t)(slash - epreal));
		prefix(child, sizeof(child), epreal, next ? (size_t)(next - epreal) : strlen(epreal));
		prefix(e->path[e->depth].port, CT_NAME, q, (size_t)(slash - q));
		e->path[e->depth].dport = dport_to(s, parent, child);
		e->depth++;
	}
}

/* decoderN.M only (a port also has decoders_committed) */
static void keep_decoders(char **v, size_t *n)
{
	size_t k = 0;

	for (size_t i = 0; i < *n; i++) {
		unsigned a, b;
		char end;
		if (sscanf(v[i], "decoder%u.%u%c", &a, &b, &end) == 2)
			v[k++] = v[i];
		else
			free(v[i]);
	}
	*n = k;
}

/* is memdev one of the n named (every memdev when names is NULL) */
static bool memdev_named(const char *memdev, const char *const *names, size_t n)
{
	if (!names)
		return true;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], memdev))
			return true;
	return false;
}

static int load_endpoint(struct ct_context *ctx, const char *name, struct ct_endpoint_info *e,
			 const char *const *memdevs, size_t nmemdevs)
{
	struct ct_sysfs *s = &ctx->sys;
	char path[256], real[1024], **decs = NULL, mode[16];
	size_t ndecs = 0;
	uint64_t ram_used = 0;
	int last_used = -1;

	ct_strlcpy(e->endpoint, name, sizeof(e->endpoint));
	e->qos_class = -1;
	if (ct_sysfs_link_name(s, ct_path(path, sizeof(path), CXLDEV "/%s/uport", name), e->memdev, sizeof(e->memdev)))
		return 0;	/* not a memdev endpoint */
	if (!memdev_named(e->memdev, memdevs, nmemdevs)) {
		e->memdev[0] = '\0';	/* left out */
		ct_error_clear(&ctx->err);
		return 0;
	}
	e->enabled = ct_sysfs_exists(s, ct_path(path, sizeof(path), CXLDEV "/%s/driver", e->memdev));
	e->ram_size = read_u64(s, e->memdev, "ram/size", 0);
	e->qos_class = read_int(s, e->memdev, "ram/qos_class", -1);
	if (ct_sysfs_realpath(s, ct_path(path, sizeof(path), CXLDEV "/%s", name), real, sizeof(real)) == 0)
		load_path(s, real, e);
	if (ct_sysfs_list(s, ct_path(path, sizeof(path), CXLDEV "/%s", name), "decoder", &decs, &ndecs) == 0) {
		keep_decoders(decs, &ndecs);
		e->ndecoders = ndecs < CT_MAX_EP_DECODERS ? (unsigned)ndecs : CT_MAX_EP_DECODERS;
		for (size_t i = 0; i < ndecs; i++) {	/* natural order: decoderN.0, .1, ... */
			uint64_t dpa = read_u64(s, decs[i], "dpa_size", 0);
			mode[0] = '\0';
			ct_sysfs_read_str(s, ct_path(path, sizeof(path), CXLDEV "/%s/mode", decs[i]), mode, sizeof(mode));
			if (i < CT_MAX_EP_DECODERS) {
				struct ct_ep_decoder *d = &e->decoders[i];
				ct_strlcpy(d->name, decs[i], sizeof(d->name));
				ct_strlcpy(d->mode, mode, sizeof(d->mode));
				ct_sysfs_read_str(s, ct_path(path, sizeof(path), CXLDEV "/%s/region", decs[i]), d->region,
						  sizeof(d->region));
				d->dpa_size = dpa;
				d->dpa_resource = read_u64(s, decs[i], "dpa_resource", UINT64_MAX);
				d->locked = read_u64(s, decs[i], "locked", 0) == 1;
			}
			if (!dpa)
				continue;
			last_used = (int)i;
			e->used_decoders++;
			ct_strlcpy(e->last_decoder, decs[i], sizeof(e->last_decoder));
			if (strcmp(mode, "ram") == 0)
				ram_used += dpa;
		}
		/* the kernel allocates DPA in decoder order: the one after the last used */
		if ((size_t)(last_used + 1) < ndecs) {
			const char *d = decs[last_used + 1];
			char region[CT_NAME] = "";
			ct_sysfs_read_str(s, ct_path(path, sizeof(path), CXLDEV "/%s/region", d), region, sizeof(region));
			if (!region[0]) {
				ct_strlcpy(e->free_decoder, d, sizeof(e->free_decoder));
				if (ct_sysfs_read_str(s, ct_path(path, sizeof(path), CXLDEV "/%s/mode", d),
						      e->free_decoder_mode, sizeof(e->free_decoder_mode)))
					ct_strlcpy(e->free_decoder_mode, "none", sizeof(e->free_decoder_mode));
			}
		}
		ct_strv_free(decs, ndecs);
	}
	e->ram_free = e->ram_size > ram_used ? e->ram_size - ram_used : 0;
	ct_error_clear(&ctx->err);
	return 0;
}

static int load(struct ct_context *ctx, struct ct_fabric *f, const char *const *memdevs, size_t nmemdevs)
{
	struct ct_sysfs *s = &ctx->sys;
	char **names = NULL, path[256], type[64];
	size_t n = 0;
	int rc;

	memset(f, 0, sizeof(*f));
	if (!ct_sysfs_exists(s, CXLDEV))
		return 0;
	rc = ct_sysfs_list(s, CXLDEV, "decoder", &names, &n);
	for (size_t i = 0; i < n && !rc; i++) {
		if (ct_sysfs_read_str(s, ct_path(path, sizeof(path), CXLDEV "/%s/devtype", names[i]), type, sizeof(type)) ||
		    strcmp(type, "cxl_decoder_root"))
			continue;
		if (!(rc = ct_array_grow(&ctx->err, (void **)&f->roots, f->nroots, sizeof(*f->roots))))
			rc = load_root(ctx, names[i], &f->roots[f->nroots++]);
	}
	ct_strv_free(names, n);
	names = NULL;
	n = 0;
	ct_error_clear(&ctx->err);
	if (!rc)
		rc = ct_sysfs_list(s, CXLDEV, "endpoint", &names, &n);
	for (size_t i = 0; i < n && !rc; i++) {
		if (!(rc = ct_array_grow(&ctx->err, (void **)&f->eps, f->neps, sizeof(*f->eps))))
			rc = load_endpoint(ctx, names[i], &f->eps[f->neps], memdevs, nmemdevs);
		if (!rc && f->eps[f->neps].memdev[0])
			f->neps++;
	}
	ct_strv_free(names, n);
	if (rc)
		ct_fabric_free(f);
	return rc;
}

int ct_fabric_load(struct ct_context *ctx, struct ct_fabric *f)
{
	return load(ctx, f, NULL, 0);
}

int ct_fabric_load_memdevs(struct ct_context *ctx, struct ct_fabric *f, const char *const *memdevs, size_t n)
{
	return load(ctx, f, memdevs, n);
}

void ct_fabric_free(struct ct_fabric *f)
{
	free(f->roots);
	free(f->eps);
	memset(f, 0, sizeof(*f));
}

const struct ct_endpoint_info *ct_fabric_endpoint(const struct ct_fabric *f, const char *memdev)
{
	for (size_t i = 0; i < f->neps; i++)
		if (strcmp(f->eps[i].memdev, memdev) == 0)
			return &f->eps[i];
	return NULL;
}

const struct ct_root_decoder *ct_fabric_root(const struct ct_fabric *f, const char *name)
{
	for (size_t i = 0; i < f->nroots; i++)
		if (strcmp(f->roots[i].name, name) == 0)
			return &f->roots[i];
	return NULL;
}

/* "port3" and "3" name port 3 when prefix is "port"; a bare id any kind */
static bool names_port(const char *port, const char *spec)
{
	size_t n = strcspn(port, "0123456789");
	char *end;

	if (!strcmp(port, spec))
		return true;
	if (!port[n] || spec[0] < '0' || spec[0] > '9')
		return false;
	(void)strtoul(spec, &end, 10);
	return !*end && !strcmp(port + n, spec);
}

/* is spec the host of PORT: the name of its uport device */
static bool port_host_is(struct ct_sysfs *s, const char *port, const char *spec)
{
	char path[256], host[CT_NAME];

	if (ct_sysfs_link_name(s, ct_path(path, sizeof(path), CXLDEV "/%s/uport", port), host, sizeof(host))) {
		ct_error_clear(s->err);
		return false;
	}
	return !strcmp(host, spec);
}

bool ct_endpoint_below_port(struct ct_sysfs *s, const struct ct_endpoint_info *e, const char *spec)
{
	if (!strcmp(spec, "all"))
		return true;
	for (unsigned i = 0; i < e->depth; i++)
		if (names_port(e->path[i].port, spec) || (i == 0 && !strcmp(spec, "root")))
			return true;
	if (names_port(e->endpoint, spec) || !strcmp(e->memdev, spec))
		return true;
	for (unsigned i = 0; i < e->depth; i++)
		if (port_host_is(s, e->path[i].port, spec))
			return true;
	return false;
}

bool ct_endpoint_is(const struct ct_endpoint_info *e, const char *spec)
{
	return !strcmp(spec, "all") || names_port(e->endpoint, spec) || !strcmp(e->memdev, spec);
}

bool ct_endpoint_on_bus(struct ct_sysfs *s, const struct ct_endpoint_info *e, const char *spec)
{
	char path[256], uport[CT_NAME];

	if (!strcmp(spec, "all"))
		return true;
	if (!e->depth)
		return false;
	if (names_port(e->path[0].port, spec))
		return true;
	if (ct_sysfs_link_name(s, ct_path(path, sizeof(path), CXLDEV "/%s/uport", e->path[0].port), uport,
			       sizeof(uport))) {
		ct_error_clear(s->err);
		return false;
	}
	return !strcmp(spec, !strncmp(uport, "ACPI0017:", 9) ? "ACPI.CXL" : uport);
}

bool ct_fabric_port_exists(struct ct_sysfs *s, const char *spec, const char *const *kinds)
{
	static const char *const all[] = { "root", "port", "endpoint", NULL };
	char path[256], *end;

	if (!spec[0] || strchr(spec, '/') || spec[0] == '.')
		return false;
	if (spec[0] >= '0' && spec[0] <= '9') {
		(void)strtoul(spec, &end, 10);
		if (*end)
			return false;
		for (const char *const *k = kinds ? kinds : all; *k; k++)
			if (ct_sysfs_exists(s, ct_path(path, sizeof(path), CXLDEV "/%s%s", *k, spec)))
				return true;
		return false;
	}
	for (const char *const *k = kinds ? kinds : all; *k; k++)
		if (!strncmp(spec, *k, strlen(*k)) && spec[strlen(*k)] >= '0' && spec[strlen(*k)] <= '9')
			return ct_sysfs_exists(s, ct_path(path, sizeof(path), CXLDEV "/%s", spec));
	/* a port's host (the name of its uport device) */
	for (const char *const *k = kinds ? kinds : all; *k; k++) {
		char **names = NULL;
		size_t n = 0;
		bool found = false;
		if (ct_sysfs_list(s, CXLDEV, *k, &names, &n)) {
			ct_error_clear(s->err);
			continue;
		}
		for (size_t i = 0; i < n && !found; i++)
			found = port_host_is(s, names[i], spec);
		ct_strv_free(names, n);
		if (found)
			return true;
	}
	return false;
}
