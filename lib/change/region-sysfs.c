// SPDX-License-Identifier: LGPL-2.1-or-later
/* region-sysfs.c - the region steps through the kernel's sysfs region ABI
 * (Documentation/ABI/testing/sysfs-bus-cxl): create_ram_region,
 * interleave_granularity/ways, size, decoder mode and dpa_size, targetN,
 * commit, the cxl_region driver's bind/unbind, delete_region. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "core/context.h"
#include "change/region-ops.h"

#define CXLDEV "/sys/bus/cxl/devices"
#define CXLDRV "/sys/bus/cxl/drivers/cxl_region"

static int put(struct ct_region_io *io, const char *val, const char *fmt, const char *a, const char *b)
{
	char path[256];
	int rc;

	snprintf(path, sizeof(path), fmt, a, b);
	rc = ct_sysfs_write_str(&io->ctx->sys, path, val);
	if (rc)
		ct_region_io_say(io, "writing \"%s\" to %s: %s", val[0] == '\n' ? "\\n" : val,
			 path, strerror(-rc));
	ct_error_clear(&io->ctx->err);
	return rc;
}

static int begin(struct ct_region_io *io)
{
	(void)io;
	return 0;
}

static void end(struct ct_region_io *io)
{
	(void)io;
}

static int create_ram(struct ct_region_io *io, const char *root, char *region, size_t len)
{
	char path[256];
	int rc = -EBUSY;

	ct_path(path, sizeof(path), CXLDEV "/%s/create_ram_region", root);
	/* the kernel offers a name; writing it back claims it (EBUSY when
	 * someone else claimed it first: read the next one) */
	for (int tries = 0; tries < 3 && rc == -EBUSY; tries++) {
		rc = ct_sysfs_read_str(&io->ctx->sys, path, region, len);
		if (rc) {
			ct_region_io_say(io, "reading %s: %s", path, strerror(-rc));
			break;
		}
		rc = put(io, region, CXLDEV "/%s/%s", root, "create_ram_region");
	}
	ct_error_clear(&io->ctx->err);
	if (!rc && !ct_sysfs_exists(&io->ctx->sys, ct_path(path, sizeof(path), CXLDEV "/%s", region))) {
		ct_region_io_say(io, "%s did not appear after writing its name to %s/create_ram_region",
			 region, root);
		rc = -ENODEV;
	}
	return rc;
}

static int set_num(struct ct_region_io *io, const char *dev, const char *attr, uint64_t v)
{
	char val[32];

	snprintf(val, sizeof(val), "%" PRIu64, v);
	return put(io, val, CXLDEV "/%s/%s", dev, attr);
}

static int set_granularity(struct ct_region_io *io, const char *region, unsigned g)
{
	return set_num(io, region, "interleave_granularity", g);
}

static int set_ways(struct ct_region_io *io, const char *region, unsigned w)
{
	return set_num(io, region, "interleave_ways", w);
}

static int set_size(struct ct_region_io *io, const char *region, uint64_t size)
{
	return set_num(io, region, "size", size);
}

static int set_mode(struct ct_region_io *io, const char *decoder, const char *mode)
{
	return put(io, mode, CXLDEV "/%s/%s", decoder, "mode");
}

static int set_dpa_size(struct ct_region_io *io, const char *decoder, uint64_t size)
{
	return set_num(io, decoder, "dpa_size", size);
}

static int set_target(struct ct_region_io *io, const char *region, unsigned pos, const char *decoder)
{
	char attr[32];

	snprintf(attr, sizeof(attr), "target%u", pos);
	return put(io, decoder ? decoder : "\n", CXLDEV "/%s/%s", region, attr);
}

static int commit(struct ct_region_io *io, const char *region, bool on)
{
	return put(io, on ? "1" : "0", CXLDEV "/%s/%s", region, "commit");
}

static int enable(struct ct_region_io *io, const char *region, bool on)
{
	char path[256];
	int rc = put(io, region, "%s/%s", CXLDRV, on ? "bind" : "unbind");

	if (rc)
		return rc;
	if (ct_sysfs_exists(&io->ctx->sys, ct_path(path, sizeof(path), CXLDEV "/%s/driver", region)) != on) {
		ct_region_io_say(io, "%s is %s the cxl_region driver after writing to %s",
			 region, on ? "still not bound to" : "still bound to", on ? "bind" : "unbind");
		return on ? -ENXIO : -EBUSY;
	}
	return 0;
}

static int remove_region(struct ct_region_io *io, const char *root, const char *region)
{
	return put(io, region, CXLDEV "/%s/%s", root, "delete_region");
}

const struct ct_region_ops ct_region_sysfs_ops = {
	.name = "sysfs",
	.begin = begin,
	.end = end,
	.create_ram = create_ram,
	.set_granularity = set_granularity,
	.set_ways = set_ways,
	.set_size = set_size,
	.set_mode = set_mode,
	.set_dpa_size = set_dpa_size,
	.set_target = set_target,
	.commit = commit,
	.enable = enable,
	.remove = remove_region,
};
