// SPDX-License-Identifier: LGPL-2.1-or-later
/* topology-sysfs.c - the CXL chain read through the rooted sysfs reader
 * (captured trees, and a cross-check of the libcxl backend) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/context.h"
#include "cxl/topology.h"
#include "mm/access.h"

#define CXLDEV "/sys/bus/cxl/devices"
#define DAXDEV "/sys/bus/dax/devices"

/* the memdev behind an endpoint port: endpointN/uport -> .../memX */
static int endpoint_memdev(struct ct_sysfs *s, const char *endpoint, char *buf, size_t len)
{
	char path[256];

	return ct_sysfs_link_name(s, ct_path(path, sizeof(path), CXLDEV "/%s/uport", endpoint), buf, len);
}

/* the port a decoder belongs to: its parent directory */
static int decoder_port(struct ct_sysfs *s, const char *decoder, char *buf, size_t len)
{
	char path[256], real[1024], *slash;
	int rc = ct_sysfs_realpath(s, ct_path(path, sizeof(path), CXLDEV "/%s", decoder), real, sizeof(real));

	if (rc)
		return rc;
	slash = strrchr(real, '/');
	if (slash)
		*slash = '\0';
	slash = strrchr(real, '/');
	ct_strlcpy(buf, slash ? slash + 1 : real, len);
	return 0;
}

static int load_memdev(struct ct_context *ctx, const char *name, char **endpoints, size_t nep,
		       struct ct_memdev *m)
{
	struct ct_sysfs *s = &ctx->sys;
	char path[256], real[1024], *slash;
	int64_t node;
	int rc;

	ct_strlcpy(m->name, name, sizeof(m->name));
	m->numa_node = -1;
	if (ct_sysfs_read_u64(s, ct_path(path, sizeof(path), CXLDEV "/%s/serial", name), 0, &m->serial) == 0)
		m->has_serial = true;
	if (ct_sysfs_read_s64(s, ct_path(path, sizeof(path), CXLDEV "/%s/numa_node", name), &node) == 0)
		m->numa_node = (int)node;
	ct_sysfs_read_str(s, ct_path(path, sizeof(path), CXLDEV "/%s/firmware_version", name),
			  m->firmware, sizeof(m->firmware));
	ct_sysfs_read_str(s, ct_path(path, sizeof(path), CXLDEV "/%s/firmware/%s/status", name, name),
			  m->fw_update, sizeof(m->fw_update));
	rc = ct_sysfs_read_u64(s, ct_path(path, sizeof(path), CXLDEV "/%s/ram/size", name), 0, &m->ram_size);
	if (rc && rc != -ENOENT)
		return rc;
	rc = ct_sysfs_read_u64(s, ct_path(path, sizeof(path), CXLDEV "/%s/pmem/size", name), 0, &m->pmem_size);
	if (rc && rc != -ENOENT)
		return rc;
	m->enabled = ct_sysfs_exists(s, ct_path(path, sizeof(path), CXLDEV "/%s/driver", name));
	m->ram_qos_class = ct_memdev_qos_class(s, name, "ram", &node) ? -1 : (int)node;
	ct_error_clear(s->err);
	/* host: the parent device of memX */
	rc = ct_sysfs_realpath(s, ct_path(path, sizeof(path), CXLDEV "/%s", name), real, sizeof(real));
	if (rc)
		return rc;
	slash = strrchr(real, '/');
	if (slash)
		*slash = '\0';
	slash = strrchr(real, '/');
	ct_strlcpy(m->host, slash ? slash + 1 : "", sizeof(m->host));
	for (size_t i = 0; i < nep; i++) {
		char md[CT_NAME];
		if (endpoint_memdev(s, endpoints[i], md, sizeof(md)) == 0 && strcmp(md, name) == 0)
			ct_strlcpy(m->endpoint, endpoints[i], sizeof(m->endpoint));
	}
	ct_error_clear(&ctx->err);
	return 0;
}

static int load_dax(struct ct_context *ctx, const char *name, struct ct_dax *d)
{
	struct ct_sysfs *s = &ctx->sys;
	char path[256];
	int64_t node;
	int rc;

	ct_strlcpy(d->name, name, sizeof(d->name));
	d->target_node = -1;
	rc = ct_sysfs_read_u64(s, ct_path(path, sizeof(path), DAXDEV "/%s/size", name), 0, &d->size);
	if (!rc)
		rc = ct_sysfs_read_u64(s, ct_path(path, sizeof(path), DAXDEV "/%s/resource", name), 0, &d->resource);
	if (rc)
		return rc;
	if (ct_sysfs_read_s64(s, ct_path(path, sizeof(path), DAXDEV "/%s/target_node", name), &node) == 0)
		d->target_node = (int)node;
	ct_dax_mode_read(s, name, d->mode, sizeof(d->mode));
	return 0;
}

static int load_region_dax(struct ct_context *ctx, struct ct_region *r)
{
	struct ct_sysfs *s = &ctx->sys;
	char path[256], **dr, **dv;
	size_t ndr, ndv;
	int rc;

	rc = ct_sysfs_list(s, ct_path(path, sizeof(path), CXLDEV "/%s", r->name), "dax_region", &dr, &ndr);
	if (rc)
		return rc;
	for (size_t i = 0; i < ndr && !rc; i++) {
		rc = ct_sysfs_list(s, ct_path(path, sizeof(path), CXLDEV "/%s/%s", r->name, dr[i]), "dax", &dv, &ndv);
		if (rc)
			break;
		for (size_t j = 0; j < ndv && !rc; j++) {
			struct ct_dax *nd;
			if (!strchr(dv[j], '.'))
				continue;	/* "dax_region" attribute directory */
			nd = realloc(r->dax, (r->ndax + 1) * sizeof(*nd));
			if (!nd) {
				rc = ct_fail(&ctx->err, ENOMEM, "out of memory");
				break;
			}
			r->dax = nd;
			memset(&r->dax[r->ndax], 0, sizeof(*nd));
			rc = load_dax(ctx, dv[j], &r->dax[r->ndax]);
			if (!rc)
				r->ndax++;
		}
		ct_strv_free(dv, ndv);
	}
	ct_strv_free(dr, ndr);
	return rc;
}

static int load_region(struct ct_context *ctx, const char *name, struct ct_region *r)
{
	struct ct_sysfs *s = &ctx->sys;
	char path[256], buf[64], real[1024], *slash;
	uint64_t v;
	int rc;

	ct_strlcpy(r->name, name, sizeof(r->name));
	ct_sysfs_read_str(s, ct_path(path, sizeof(path), CXLDEV "/%s/mode", name), r->mode, sizeof(r->mode));
	rc = ct_sysfs_read_u64(s, ct_path(path, sizeof(path), CXLDEV "/%s/size", name), 0, &r->size);
	if (!rc)
		rc = ct_sysfs_read_u64(s, ct_path(path, sizeof(path), CXLDEV "/%s/interleave_ways", name), 0, &v);
	if (rc)
		return rc;
	r->ways = (unsigned)v;
	if (ct_sysfs_read_u64(s, ct_path(path, sizeof(path), CXLDEV "/%s/interleave_granularity", name), 0, &v) == 0)
		r->granularity = (unsigned)v;
	/* resource reads -1 style garbage before a size is set: keep 0 then */
	if (ct_sysfs_read_u64(s, ct_path(path, sizeof(path), CXLDEV "/%s/resource", name), 0, &v) == 0)
		r->resource = v;
	if (ct_sysfs_read_u64(s, ct_path(path, sizeof(path), CXLDEV "/%s/commit", name), 0, &v) == 0)
		r->committed = v != 0;
	/* (absent without a cache, and before 6.19) */
	if (ct_sysfs_read_u64(s, ct_path(path, sizeof(path), CXLDEV "/%s/extended_linear_cache_size", name), 0, &v) == 0 &&
	    v < r->size)
		r->cache_size = v;
	r->enabled = ct_sysfs_exists(s, ct_path(path, sizeof(path), CXLDEV "/%s/driver", name));
	if (ct_sysfs_realpath(s, ct_path(path, sizeof(path), CXLDEV "/%s", name), real, sizeof(real)) == 0) {
		if ((slash = strrchr(real, '/')))
			*slash = '\0';
		slash = strrchr(real, '/');
		ct_strlcpy(r->root_decoder, slash ? slash + 1 : "", sizeof(r->root_decoder));
	}
	/* every position (region-members.c says why an empty one is no end) */
	for (unsigned i = 0; i < r->ways && i < CT_MAX_TARGETS; i++) {
		char port[CT_NAME];
		if (ct_sysfs_read_str(s, ct_path(path, sizeof(path), CXLDEV "/%s/target%u", name, i), buf, sizeof(buf)) ||
		    !buf[0])
			continue;
		ct_strlcpy(r->targets[i], buf, CT_NAME);
		if (decoder_port(s, buf, port, sizeof(port)) == 0)
			endpoint_memdev(s, port, r->memdevs[i], CT_NAME);
		if (ct_sysfs_read_u64(s, ct_path(path, sizeof(path), CXLDEV "/%s/dpa_size", buf), 0, &v) == 0)
			r->dpa[i].size = v;
		if (ct_sysfs_read_u64(s, ct_path(path, sizeof(path), CXLDEV "/%s/dpa_resource", buf), 0, &v) == 0)
			r->dpa[i].resource = v;
		r->ntargets = i + 1;
	}
	ct_error_clear(&ctx->err);
	return load_region_dax(ctx, r);
}

int ct_topology_load_sysfs(struct ct_context *ctx, struct ct_topology *t)
{
	struct ct_sysfs *s = &ctx->sys;
	char **mem = NULL, **ep = NULL, **reg = NULL;
	size_t nmem = 0, nep = 0, nreg = 0;
	int rc;

	t->backend = "sysfs";
	rc = ct_sysfs_list(s, CXLDEV, "mem", &mem, &nmem);
	if (!rc)
		rc = ct_sysfs_list(s, CXLDEV, "endpoint", &ep, &nep);
	if (!rc)
		rc = ct_sysfs_list(s, CXLDEV, "region", &reg, &nreg);
	if (rc)
		goto out;
	t->memdevs = calloc(nmem ? nmem : 1, sizeof(*t->memdevs));
	t->regions = calloc(nreg ? nreg : 1, sizeof(*t->regions));
	if (!t->memdevs || !t->regions) {
		rc = ct_fail(&ctx->err, ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < nmem && !rc; i++) {
		rc = load_memdev(ctx, mem[i], ep, nep, &t->memdevs[t->nmemdevs]);
		if (!rc)
			t->nmemdevs++;
	}
	for (size_t i = 0; i < nreg && !rc; i++) {
		rc = load_region(ctx, reg[i], &t->regions[t->nregions]);
		t->nregions++;	/* counted even on failure: its dax array is freed */
	}
out:
	ct_strv_free(mem, nmem);
	ct_strv_free(ep, nep);
	ct_strv_free(reg, nreg);
	return rc;
}
