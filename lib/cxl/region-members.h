/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* region-members.h - a region's interleave set (its endpoint decoders and
 * their memdevs, by position) read through the rooted sysfs reader, for
 * views loaded without it (the libdaxctl loader knows regions by name only) */
#ifndef CXLTIER_REGION_MEMBERS_H
#define CXLTIER_REGION_MEMBERS_H

#include "core/sysfs.h"
#include "cxl/topology.h"

/* fill ways, ntargets, targets[] and memdevs[] of r when ntargets is 0;
 * 0, or -errno with a message (no such region) */
int ct_region_members(struct ct_sysfs *s, struct ct_region *r);

#endif
