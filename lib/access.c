// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <string.h>
#include "access.h"

int ct_access_read(struct ct_sysfs *s, const char *dir, struct ct_access *a)
{
	static const char *const names[] = { "read_latency", "write_latency", "read_bandwidth", "write_bandwidth" };
	uint64_t *fields[] = { &a->read_latency, &a->write_latency, &a->read_bandwidth, &a->write_bandwidth };
	char path[512];

	memset(a, 0, sizeof(*a));
	for (int i = 0; i < 4; i++) {
		int rc = ct_sysfs_read_u64(s, ct_path(path, sizeof(path), "%s/%s", dir, names[i]), 10, fields[i]);
		if (rc == -ENOENT)
			continue;
		if (rc)
			return rc;
		a->present = true;
	}
	ct_error_clear(s->err);
	return 0;
}
