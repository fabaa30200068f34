/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cdat-source.h - where a CDAT table comes from: the CDAT attribute of a CXL
 * port (a memdev's endpointN, or a switch portN) or a file; mapping a memdev
 * to its endpoint; reading the table, and saying why a port has none.
 */
#ifndef CXLTIER_CDAT_SOURCE_H
#define CXLTIER_CDAT_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mm/access.h"
#include "cxl/topology.h"

struct ct_context;

struct ct_cdat_source {
	char device[CT_NAME];	/* endpointN, portN, or the file name */
	char memdev[CT_NAME];	/* an endpoint's memdev, "" otherwise */
	char path[512];		/* the sysfs attribute, or the file */
	bool is_file;
};

/*
 * A command-line name (memN, endpointN, portN) to its port. 0; -EINVAL when
 * the word names no kind of device (a usage error); -ENOENT when there is no
 * such device, -ENODEV when a memdev has no endpoint; each with a message.
 */
int ct_cdat_source_resolve(struct ct_context *ctx, const char *name, struct ct_cdat_source *s);
/* a file given by the user */
void ct_cdat_source_file(const char *path, struct ct_cdat_source *s);
/* every port with a CDAT attribute, in name order (none without a CXL bus);
 * *out is malloc'd */
int ct_cdat_sources_all(struct ct_context *ctx, struct ct_cdat_source **out, size_t *n);

/*
 * The raw table (*buf malloc'd). 0; -EOPNOTSUPP when this kernel or device
 * has no CDAT for the port (the message says which); another -errno when it
 * should have one but cannot be read (not root, the port not bound, the
 * kernel's read at probe failed, an empty table...), with the message.
 */
int ct_cdat_source_read(struct ct_context *ctx, const struct ct_cdat_source *s, uint8_t **buf, size_t *len);

/* does this port publish a CDAT attribute */
bool ct_cdat_port_has_table(struct ct_context *ctx, const char *port);
/* the device figures of an endpoint's CDAT (cdat_volatile_perf); false when
 * the table cannot be read (not root, no CDAT) or has none */
bool ct_cdat_endpoint_perf(struct ct_context *ctx, const char *endpoint, struct ct_access *perf);

#endif
