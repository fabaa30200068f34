// SPDX-License-Identifier: LGPL-2.1-or-later
/* region-members.c - a region's interleave set from sysfs: see region-members.h */
#include <stdio.h>
#include <string.h>
#include "cxl/region-members.h"

#define CXLDEV "/sys/bus/cxl/devices"

/* decoderX.Y -> its port (the directory it is in) -> the port's memdev (uport) */
static void decoder_memdev(struct ct_sysfs *s, const char *decoder, char *memdev, size_t len)
{
	char path[256], real[1024], *slash;

	memdev[0] = '\0';
	if (ct_sysfs_realpath(s, ct_path(path, sizeof(path), CXLDEV "/%s", decoder), real, sizeof(real)))
		return;
	if (!(slash = strrchr(real, '/')))
		return;
	*slash = '\0';
	slash = strrchr(real, '/');
	ct_sysfs_link_name(s, ct_path(path, sizeof(path), CXLDEV "/%s/uport", slash ? slash + 1 : real), memdev, len);
}

int ct_region_members(struct ct_sysfs *s, struct ct_region *r)
{
	char path[256], buf[CT_NAME];
	uint64_t v;
	int rc;

	if (r->ntargets)
		return 0;
	rc = ct_sysfs_read_u64(s, ct_path(path, sizeof(path), CXLDEV "/%s/interleave_ways", r->name), 0, &v);
	if (rc)
		return rc;
	r->ways = (unsigned)v;
	/* every position: a destroy cut short clears target0 first, and the
	 * targets after an empty one still hold their decoders' capacity */
	for (unsigned i = 0; i < r->ways && i < CT_MAX_TARGETS; i++) {
		if (ct_sysfs_read_str(s, ct_path(path, sizeof(path), CXLDEV "/%s/target%u", r->name, i), buf, sizeof(buf)) ||
		    !buf[0])
			continue;
		ct_strlcpy(r->targets[i], buf, CT_NAME);
		decoder_memdev(s, buf, r->memdevs[i], CT_NAME);
		r->ntargets = i + 1;
	}
	ct_error_clear(s->err);
	return 0;
}
