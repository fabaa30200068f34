// SPDX-License-Identifier: LGPL-2.1-or-later
/* region-dax.c - a region's dax device, waited for (region-dax.h) */
#include <string.h>
#include "core/context.h"
#include "core/poll-wait.h"
#include "cxl/region-dax.h"

#define CXLDEV "/sys/bus/cxl/devices"
#define DAXDEV "/sys/bus/dax/devices"

/* the first daxN.M under region's dax_regionN directories that the dax bus
 * lists as well */
static bool listed(struct ct_sysfs *s, const char *region, char *dax, size_t len)
{
	char path[256], **d;
	size_t n;
	bool found = false;

	if (ct_sysfs_list(s, ct_path(path, sizeof(path), CXLDEV "/%s", region), "dax_region", &d, &n))
		return false;
	for (size_t i = 0; i < n && !found; i++) {
		char **dv;
		size_t ndv;

		if (ct_sysfs_list(s, ct_path(path, sizeof(path), CXLDEV "/%s/%s", region, d[i]), "dax", &dv, &ndv))
			continue;
		for (size_t j = 0; j < ndv && !found; j++)	/* (not the dax_region attribute group) */
			if (strchr(dv[j], '.') && ct_sysfs_exists(s, ct_path(path, sizeof(path), DAXDEV "/%s", dv[j]))) {
				ct_strlcpy(dax, dv[j], len);
				found = true;
			}
		ct_strv_free(dv, ndv);
	}
	ct_strv_free(d, n);
	return found;
}

bool ct_region_dax_wait(struct ct_sysfs *s, const char *region, unsigned limit_ms, char *dax, size_t len)
{
	struct ct_poll_wait w;
	bool found;

	ct_poll_wait_begin(&w, limit_ms, 20);
	while (!(found = listed(s, region, dax, len)) && ct_poll_wait_next(&w))
		;
	ct_error_clear(s->err);
	return found;
}
