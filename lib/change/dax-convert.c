// SPDX-License-Identifier: LGPL-2.1-or-later
/* dax-convert.c - devdax to system-ram through libdaxctl: see dax-convert.h */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <daxctl/libdaxctl.h>
#include "change/auto-online-hold.h"
#include "core/context.h"
#include "core/crash-point.h"
#include "change/dax-users.h"
#include "change/dax-convert.h"
#include "core/kernel.h"
#include "core/modules.h"

static struct daxctl_dev *find_dev(struct daxctl_ctx *dctx, const char *name)
{
	struct daxctl_region *r;
	struct daxctl_dev *dev;

	daxctl_region_foreach(dctx, r)
		daxctl_dev_foreach(r, dev)
			if (!strcmp(daxctl_dev_get_devname(dev), name))
				return dev;
	return NULL;
}

/* unbind from device_dax, bind to kmem */
static int rebind_ram(struct ct_context *ctx, struct daxctl_dev *dev, const char *name)
{
	int rc;

	/* (test-only builds: each libdaxctl step is a kernel write a run can be
	 * stopped at, core/crash-point.h; killed between the two, the device is
	 * bound to no driver, which the next --convert takes as devdax) */
	ct_crash_point("libdaxctl %s disable", name);
	rc = daxctl_dev_disable(dev);
	if (rc)
		return ct_fail(&ctx->err, -rc, "cannot disable %s (in use? a process may have /dev/%s open): %s",
			       name, name, strerror(-rc));
	ct_crash_point("libdaxctl %s enable_ram", name);
	rc = daxctl_dev_enable_ram(dev);
	if (rc)
		return ct_fail(&ctx->err, -rc, "switching %s to system-ram failed: %s", name, strerror(-rc));
	return 0;
}

/* kmem loaded (when missing), then the device bound to it; a device kmem
 * took as it loaded (it matches every CXL dax device that no driver has)
 * is system-ram already: unbinding it could strand memory onlined
 * meanwhile, so it is left as it is */
static int to_ram(struct ct_context *ctx, const char *name, struct ct_dax_convert_result *res)
{
	struct daxctl_ctx *dctx;
	struct daxctl_dev *dev;
	char path[128], driver[64];
	int rc;

	if ((rc = ct_module_ensure("kmem", &res->loaded_kmem, &ctx->err)))
		return rc;
	if ((rc = ct_context_daxctl(ctx, &dctx)))
		return rc;
	if (!(dev = find_dev(dctx, name)))
		return ct_fail(&ctx->err, ENOENT, "libdaxctl does not know %s", name);
	/* (the driver link, not libdaxctl's view: that was read before kmem came) */
	if (ct_sysfs_link_name(&ctx->sys, ct_path(path, sizeof(path), "/sys/bus/dax/devices/%s/driver", name), driver,
			       sizeof(driver)))
		driver[0] = '\0';
	ct_error_clear(&ctx->err);
	if (!strcmp(driver, "kmem")) {
		res->bound_by_kmem = true;
		return 0;
	}
	/* another driver's device (fsdev_dax: a famfs file system's memory) is
	 * not cxltier's to take */
	if (driver[0] && strcmp(driver, "device_dax"))
		return ct_fail(&ctx->err, EMEDIUMTYPE, "%s is bound to %s%s: cxltier does not switch it to system-ram "
			       "(release it there first, then 'daxctl reconfigure-device --mode=devdax %s')", name, driver,
			       !strcmp(driver, "fsdev_dax") ? " (famfs)" : "", name);
	/* unbinding device_dax revokes what processes have mapped */
	if (!strcmp(driver, "device_dax") && (rc = ct_dax_users_check_unused(ctx, name, "switching it to system-ram")))
		return rc;
	return rebind_ram(ctx, dev, name);
}

int ct_dax_convert_to_ram(struct ct_context *ctx, const char *name, bool pause_auto_online,
			 struct ct_dax_convert_result *res)
{
	struct ct_auto_online_hold hold;
	struct ct_auto_online ao;
	int rc;

	memset(res, 0, sizeof(*res));
	if (!ctx->live)
		return ct_fail(&ctx->err, EOPNOTSUPP, "converting %s works on the live system only", name);
	/* the hold comes before kmem is loaded: loading it hot-adds the memory
	 * of every CXL dax device bound to no driver */
	ct_kernel_auto_online(ctx, &ao);
	if (!ao.known || !ao.onlines)
		return to_ram(ctx, name, res);
	/* the kernel would online the new blocks itself, into ZONE_NORMAL */
	ct_strlcpy(res->auto_online, ao.blocks, sizeof(res->auto_online));
	if (!pause_auto_online)
		return ct_fail(&ctx->err, EBUSY, "auto_online_blocks is '%s': converting %s would let the kernel "
			       "online its memory into ZONE_NORMAL first", ao.blocks, name);
	if ((rc = ct_auto_online_hold(ctx, &hold)))
		return rc;
	res->paused = hold.held;
	rc = to_ram(ctx, name, res);
	if (ct_auto_online_release(ctx, &hold)) {
		res->restore_failed = true;
		if (!rc) {	/* (the release's message, copied: ct_fail writes where it is) */
			char why[sizeof(ctx->err.msg)];
			ct_strlcpy(why, ct_context_message(ctx), sizeof(why));
			rc = ct_fail(&ctx->err, EIO, "%s is in system-ram mode, but %s", name, why);
		}
	}
	return rc;
}
