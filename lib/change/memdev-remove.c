// SPDX-License-Identifier: LGPL-2.1-or-later
/* memdev-remove.c - disable a memdev; who has pages on a node
 * (memdev-remove.h) */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/context.h"
#include "change/memdev-remove.h"
#include "core/process.h"
#include "mm/usage.h"

#define CXLDEV "/sys/bus/cxl/devices"
#define CXLMEM "/sys/bus/cxl/drivers/cxl_mem"

int ct_memdev_remove_disable(struct ct_context *ctx, const char *memdev, bool *was_disabled)
{
	char path[256];
	int rc;

	*was_disabled = false;
	if (strncmp(memdev, "mem", 3) || !memdev[3] || strspn(memdev + 3, "0123456789") != strlen(memdev + 3) ||
	    !ct_sysfs_exists(&ctx->sys, ct_path(path, sizeof(path), CXLDEV "/%s", memdev)))
		return ct_fail(&ctx->err, ENOENT, "no memdev '%s' on this system (see 'cxltier list')", memdev);
	if (!ct_sysfs_exists(&ctx->sys, ct_path(path, sizeof(path), CXLDEV "/%s/driver", memdev))) {
		*was_disabled = true;
		return 0;
	}
	rc = ct_sysfs_write_str(&ctx->sys, CXLMEM "/unbind", memdev);
	if (rc)
		return ct_fail(&ctx->err, -rc, "cannot disable %s: writing it to %s/unbind failed: %s", memdev, CXLMEM,
			       strerror(-rc));
	if (ct_sysfs_exists(&ctx->sys, ct_path(path, sizeof(path), CXLDEV "/%s/driver", memdev)))
		return ct_fail(&ctx->err, EBUSY, "%s is still bound to cxl_mem after writing it to %s/unbind", memdev,
			       CXLMEM);
	return 0;
}

static int by_bytes(const void *a, const void *b)
{
	const struct ct_pinner *x = a, *y = b;

	return x->bytes < y->bytes ? 1 : x->bytes > y->bytes ? -1 : x->pid - y->pid;
}

void ct_memdev_remove_pinners_sort(struct ct_pinner *p, size_t n)
{
	if (n)
		qsort(p, n, sizeof(*p), by_bytes);
}

int ct_memdev_remove_pinners(struct ct_context *ctx, int node, size_t max, struct ct_pinner **out, size_t *n, size_t *total)
{
	struct ct_procset set = { 0 };
	struct ct_pinner *p = NULL;
	size_t k = 0;
	int rc;

	*out = NULL;
	*n = *total = 0;
	if (node < 0 || node >= CT_USAGE_MAX_NODES)
		return 0;
	if ((rc = ct_procset_add_all(&ctx->sys, &set)))
		return rc;
	if (set.count && !(p = calloc(set.count, sizeof(*p)))) {
		ct_procset_free(&set);
		return ct_fail(&ctx->err, ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < set.count; i++) {
		const struct ct_process *pr = &set.proc[i];
		struct ct_usage u;
		uint64_t b;

		if (pr->err || pr->kernel_thread || pr->no_mm || ct_usage_process(&ctx->sys, pr->pid, &u))
			continue;
		if (!(b = ct_usage_node_bytes(&u.node[node])))
			continue;
		p[k].pid = pr->pid;
		ct_strlcpy(p[k].comm, pr->comm, sizeof(p[k].comm));
		p[k++].bytes = b;
	}
	ct_error_clear(&ctx->err);	/* processes that ended or could not be read */
	ct_procset_free(&set);
	ct_memdev_remove_pinners_sort(p, k);
	*total = k;
	*n = k < max ? k : max;
	*out = p;
	return 0;
}
