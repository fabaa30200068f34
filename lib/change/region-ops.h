/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* region-ops.h - the steps of building and tearing down a region, by name,
 * as each interface carries them out (libcxl, or the sysfs region ABI).
 * It is private to lib/change/ (region*.c). Each op returns 0 or -errno and
 * records no message: region.c names the step and the object. */
#ifndef CXLTIER_REGION_OPS_H
#define CXLTIER_REGION_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ct_context;

struct ct_region_io {
	struct ct_context *ctx;
	const struct ct_region_ops *ops;
	void *priv;			/* the interface's own state */
	char detail[160];		/* what the interface said last, "" nothing */
};

struct ct_region_ops {
	const char *name;
	int (*begin)(struct ct_region_io *io);
	void (*end)(struct ct_region_io *io);
	/* a new RAM region under root; its name into region (NULL op: cannot) */
	int (*create_ram)(struct ct_region_io *io, const char *root, char *region, size_t len);
	int (*set_granularity)(struct ct_region_io *io, const char *region, unsigned g);
	int (*set_ways)(struct ct_region_io *io, const char *region, unsigned w);
	int (*set_size)(struct ct_region_io *io, const char *region, uint64_t size);
	int (*set_mode)(struct ct_region_io *io, const char *decoder, const char *mode);
	int (*set_dpa_size)(struct ct_region_io *io, const char *decoder, uint64_t size);
	/* decoder NULL: clear the position */
	int (*set_target)(struct ct_region_io *io, const char *region, unsigned pos, const char *decoder);
	int (*commit)(struct ct_region_io *io, const char *region, bool on);
	/* bind to (on) or unbind from the cxl_region driver */
	int (*enable)(struct ct_region_io *io, const char *region, bool on);
	int (*remove)(struct ct_region_io *io, const char *root, const char *region);
};

/* the interface this system's region steps go through */
const struct ct_region_ops *ct_region_ops_for(struct ct_context *ctx, bool create);
/* what the interface said, into io->detail (region-io.c) */
void ct_region_io_say(struct ct_region_io *io, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

extern const struct ct_region_ops ct_region_sysfs_ops;
extern const struct ct_region_ops ct_region_libcxl_ops;

#endif
