// SPDX-License-Identifier: LGPL-2.1-or-later
/* cdat-source.c - CDAT tables from CXL ports or files: see cdat-source.h */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cxl/cdat.h"
#include "cxl/cdat-source.h"
#include "core/context.h"
#include "core/kernel.h"

#define CXLDEV "/sys/bus/cxl/devices"
#define CDAT_FILE_MAX (64u << 20)

static bool is_port_name(const char *name)
{
	return !strncmp(name, "endpoint", 8) || !strncmp(name, "port", 4);
}

/* the endpoint port whose uport is this memdev */
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

int ct_cdat_source_resolve(struct ct_context *ctx, const char *name, struct ct_cdat_source *s)
{
	char path[256];

	memset(s, 0, sizeof(*s));
	if (!name || !*name)
		return ct_fail(&ctx->err, EINVAL, "an empty device name");
	if (!strncmp(name, "mem", 3)) {
		if (!ct_sysfs_exists(&ctx->sys, ct_path(path, sizeof(path), CXLDEV "/%s", name)))
			return ct_fail(&ctx->err, ENOENT, "no memdev '%s' on this system (see 'cxltier list')", name);
		if (endpoint_of_memdev(ctx, name, s->device, sizeof(s->device)))
			return ct_fail(&ctx->err, ENODEV,
				       "%s has no endpoint port: cxl_mem is not bound or the port is not enumerated "
				       "(check 'lsmod | grep cxl_mem' and dmesg)", name);
		ct_strlcpy(s->memdev, name, sizeof(s->memdev));
	} else if (is_port_name(name)) {
		if (!ct_sysfs_exists(&ctx->sys, ct_path(path, sizeof(path), CXLDEV "/%s", name)))
			return ct_fail(&ctx->err, ENOENT, "no CXL port '%s' on this system", name);
		ct_strlcpy(s->device, name, sizeof(s->device));
		if (!strncmp(name, "endpoint", 8))
			ct_sysfs_link_name(&ctx->sys, ct_path(path, sizeof(path), CXLDEV "/%s/uport", name),
					   s->memdev, sizeof(s->memdev));
	} else {
		return ct_fail(&ctx->err, EINVAL, "'%s' is not a memdev, endpoint or port name (use --file for a file)",
			       name);
	}
	ct_path(s->path, sizeof(s->path), CXLDEV "/%s/CDAT", s->device);
	ct_error_clear(&ctx->err);
	return 0;
}

void ct_cdat_source_file(const char *path, struct ct_cdat_source *s)
{
	memset(s, 0, sizeof(*s));
	s->is_file = true;
	ct_strlcpy(s->device, path, sizeof(s->device));
	ct_strlcpy(s->path, path, sizeof(s->path));
}

bool ct_cdat_port_has_table(struct ct_context *ctx, const char *port)
{
	char path[256];

	return ct_sysfs_exists(&ctx->sys, ct_path(path, sizeof(path), CXLDEV "/%s/CDAT", port));
}

int ct_cdat_sources_all(struct ct_context *ctx, struct ct_cdat_source **out, size_t *n)
{
	char **names = NULL;
	size_t count = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (!ct_sysfs_exists(&ctx->sys, CXLDEV))
		return 0;
	rc = ct_sysfs_list(&ctx->sys, CXLDEV, NULL, &names, &count);
	if (rc)
		return rc;
	*out = calloc(count ? count : 1, sizeof(**out));
	if (!*out) {
		ct_strv_free(names, count);
		return ct_fail(&ctx->err, ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < count; i++)
		if (is_port_name(names[i]) && ct_cdat_port_has_table(ctx, names[i]) &&
		    ct_cdat_source_resolve(ctx, names[i], &(*out)[*n]) == 0)
			(*n)++;
	ct_strv_free(names, count);
	ct_error_clear(&ctx->err);
	return 0;
}

static int read_file(struct ct_context *ctx, const char *path, uint8_t **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, n = 0;
	int e;

	if (!f) {
		e = errno;
		return ct_fail(&ctx->err, e, "cannot open %s: %s", path, strerror(e));
	}
	*buf = malloc(cap);
	while (*buf) {
		size_t r = fread(*buf + n, 1, cap - n, f);
		n += r;
		if (n < cap)
			break;
		if (cap >= CDAT_FILE_MAX) {
			free(*buf);
			fclose(f);
			return ct_fail(&ctx->err, EFBIG, "%s is larger than 64 MiB: not a CDAT table", path);
		}
		uint8_t *nb = realloc(*buf, cap *= 2);
		if (!nb)
			free(*buf);
		*buf = nb;
	}
	if (!*buf || ferror(f)) {
		e = errno;
		ct_fail(&ctx->err, EIO, "cannot read %s: %s", path, *buf ? strerror(e) : "out of memory");
		free(*buf);
		*buf = NULL;
		fclose(f);
		return -EIO;
	}
	fclose(f);
	*len = n;
	return 0;
}

/* why a port has no CDAT attribute */
static int explain_missing(struct ct_context *ctx, const struct ct_cdat_source *s)
{
	struct ct_kernel_release rel;
	char path[256];
	bool is_switch = !strncmp(s->device, "port", 4);

	if (!ct_sysfs_exists(&ctx->sys, ct_path(path, sizeof(path), CXLDEV "/%s/driver", s->device)))
		return ct_fail(&ctx->err, ENODEV,
			       "%s is not bound to the cxl_port driver, and its CDAT attribute only exists while it is bound; "
			       "check 'dmesg' for probe errors and that cxl_port is loaded", s->device);
	if (ct_kernel_release(ctx, &rel) == 0 && !ct_kernel_has_cdat_attr(&rel, is_switch))
		return ct_fail(&ctx->err, EOPNOTSUPP,
			       "%s: kernel %d.%d does not expose %s CDAT in sysfs (endpoints since 6.0, switch ports since 6.8)",
			       s->device, rel.major, rel.minor, is_switch ? "switch" : "endpoint");
	return ct_fail(&ctx->err, EOPNOTSUPP, "%s has no CDAT: %s", s->device,
		       is_switch ? "the switch has no CDAT (DOE table access) mailbox" :
				   "the device has no DOE mailbox with CDAT table access");
}

int ct_cdat_source_read(struct ct_context *ctx, const struct ct_cdat_source *s, uint8_t **buf, size_t *len)
{
	int rc;

	*buf = NULL;
	*len = 0;
	if (s->is_file)
		return read_file(ctx, s->path, buf, len);
	if (!ct_sysfs_exists(&ctx->sys, s->path))
		return explain_missing(ctx, s);
	rc = ct_sysfs_read_bin(&ctx->sys, s->path, buf, len);
	if (rc == -EACCES || rc == -EPERM)
		return ct_fail(&ctx->err, EACCES,
			       "%s: the CDAT attribute is readable by root only (mode 0400): run cxltier as root", s->device);
	if (rc == -ENXIO)
		return ct_fail(&ctx->err, ENXIO,
			       "%s: the kernel has no CDAT for this device (ENXIO: reading it at probe failed; see dmesg)",
			       s->device);
	if (rc)
		return rc;
	if (!*len) {
		free(*buf);
		*buf = NULL;
		return ct_fail(&ctx->err, ENODATA,
			       "%s: CDAT is empty: the kernel failed to read or validate the table from the device "
			       "(a bad checksum, or a DOE error; see dmesg)", s->device);
	}
	return 0;
}

bool ct_cdat_endpoint_perf(struct ct_context *ctx, const char *endpoint, struct ct_access *perf)
{
	struct ct_cdat_source s = { 0 };
	struct cdat_table t;
	struct ct_error derr = { 0 };
	uint8_t *buf;
	size_t len;
	bool ok = false;

	memset(perf, 0, sizeof(*perf));
	if (!endpoint || !endpoint[0])
		return false;
	ct_strlcpy(s.device, endpoint, sizeof(s.device));
	ct_path(s.path, sizeof(s.path), CXLDEV "/%s/CDAT", endpoint);
	if (ct_sysfs_read_bin(&ctx->sys, s.path, &buf, &len)) {
		ct_error_clear(&ctx->err);
		return false;
	}
	if (cdat_decode(buf, len, &t, &derr) == 0)
		ok = cdat_volatile_perf(&t, perf);
	cdat_free(&t);
	free(buf);
	return ok;
}
