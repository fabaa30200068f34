// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "tiers.h"

#define TIERING "/sys/devices/virtual/memory_tiering"

int ct_tiers_load(struct ct_sysfs *s, struct ct_tiers *t)
{
	char **names, path[256], buf[4096];
	size_t n;
	int rc;

	memset(t, 0, sizeof(*t));
	if (!ct_sysfs_exists(s, TIERING))
		return 0;	/* kernel before 6.1: no tiers, not an error */
	rc = ct_sysfs_list(s, TIERING, "memory_tier", &names, &n);
	if (rc)
		return rc;
	t->tier = calloc(n ? n : 1, sizeof(*t->tier));
	if (!t->tier) {
		ct_strv_free(names, n);
		return ct_fail(s->err, ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		struct ct_tier *tier = &t->tier[t->count];

		tier->id = atoi(names[i] + strlen("memory_tier"));
		/* "nodelist" since 6.1-rc; the ABI text still says "nodes" */
		rc = ct_sysfs_read_str(s, ct_path(path, sizeof(path), TIERING "/%s/nodelist", names[i]),
				       buf, sizeof(buf));
		if (rc == -ENOENT)
			rc = ct_sysfs_read_str(s, ct_path(path, sizeof(path), TIERING "/%s/nodes", names[i]),
					       buf, sizeof(buf));
		if (rc)
			break;
		if (ct_nodeset_parse(&tier->nodes, buf)) {
			rc = ct_fail(s->err, EINVAL, "%s%s: malformed node list \"%s\"", s->root, path, buf);
			break;
		}
		t->count++;
	}
	ct_strv_free(names, n);
	if (rc)
		ct_tiers_free(t);
	return rc;
}

void ct_tiers_free(struct ct_tiers *t)
{
	free(t->tier);
	t->tier = NULL;
	t->count = 0;
}

int ct_tiers_of_node(const struct ct_tiers *t, int node)
{
	for (size_t i = 0; i < t->count; i++)
		if (ct_nodeset_has(&t->tier[i].nodes, node))
			return t->tier[i].id;
	return -1;
}
