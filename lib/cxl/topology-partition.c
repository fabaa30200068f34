// SPDX-License-Identifier: LGPL-2.1-or-later
/* topology-partition.c - a memdev's capacity partitioning from its mailbox
 * through libcxl: Identify (total, volatile-only, persistent-only,
 * partition alignment) and, when the device can be repartitioned, Get
 * Partition Info (active and next). The mailbox status is checked before
 * any field is used. Live systems only (and root: the mailbox is 0600). */
#include <errno.h>
#include <string.h>
#include <cxl/libcxl.h>
#include "core/context.h"
#include "cxl/topology.h"

static int submit(struct ct_context *ctx, struct cxl_cmd *cmd, const char *memdev, const char *what)
{
	int rc = cxl_cmd_submit(cmd), st;

	if (rc < 0)
		return ct_fail(&ctx->err, -rc, "%s: %s failed: %s%s", memdev, what, strerror(-rc),
			       -rc == EACCES || -rc == EPERM ? " (the mailbox needs root)" : "");
	st = cxl_cmd_get_mbox_status(cmd);
	if (st)
		return ct_fail(&ctx->err, EIO, "%s: %s: the device returned mailbox status 0x%x", memdev, what, st);
	return 0;
}

int ct_memdev_partition(struct ct_context *ctx, const char *memdev, struct ct_partition *p)
{
	struct cxl_ctx *c;
	struct cxl_memdev *m;
	struct cxl_cmd *cmd;
	int rc;

	memset(p, 0, sizeof(*p));
	if (!ctx->live)
		return ct_fail(&ctx->err, EOPNOTSUPP, "%s: partition info comes from the device's mailbox, not from a "
			       "captured tree", memdev);
	if ((rc = ct_context_cxl(ctx, &c)))
		return rc;
	cxl_memdev_foreach(c, m)
		if (!strcmp(cxl_memdev_get_devname(m), memdev))
			break;
	if (!m)
		return ct_fail(&ctx->err, ENODEV, "libcxl does not see %s", memdev);
	if (!(cmd = cxl_cmd_new_identify(m)))
		return ct_fail(&ctx->err, errno ? errno : ENOMEM, "%s: cannot prepare Identify", memdev);
	if (!(rc = submit(ctx, cmd, memdev, "Identify"))) {
		p->total = cxl_cmd_identify_get_total_size(cmd);
		p->volatile_only = cxl_cmd_identify_get_volatile_only_size(cmd);
		p->persistent_only = cxl_cmd_identify_get_persistent_only_size(cmd);
		p->alignment = cxl_cmd_identify_get_partition_align(cmd);
	}
	cxl_cmd_unref(cmd);
	if (rc || !p->alignment)	/* not partitionable: no active/next to ask for */
		return rc;
	if (!(cmd = cxl_cmd_new_get_partition(m)))
		return ct_fail(&ctx->err, errno ? errno : ENOMEM, "%s: cannot prepare Get Partition Info", memdev);
	if (!(rc = submit(ctx, cmd, memdev, "Get Partition Info"))) {
		p->have_active = true;
		p->active_volatile = cxl_cmd_partition_get_active_volatile_size(cmd);
		p->active_persistent = cxl_cmd_partition_get_active_persistent_size(cmd);
		p->next_volatile = cxl_cmd_partition_get_next_volatile_size(cmd);
		p->next_persistent = cxl_cmd_partition_get_next_persistent_size(cmd);
	}
	cxl_cmd_unref(cmd);
	return rc;
}
