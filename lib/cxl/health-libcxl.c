// SPDX-License-Identifier: LGPL-2.1-or-later
/* health-libcxl.c - Get Health Info, Get Alert Configuration and (libcxl
 * 79 and later) Set Alert Configuration through libcxl; the mailbox return
 * code is checked before any field is used, and Get Health Info's payload
 * goes through ct_health_decode() like every other */
#include <errno.h>
#include <string.h>
#include <cxl/libcxl.h>
#include "config.h"
#include "core/context.h"
#include "cxl/health.h"
#include "cxl/health-read.h"
#include "cxl/mbox.h"

static struct cxl_memdev *find_memdev(struct cxl_ctx *c, const char *name)
{
	struct cxl_memdev *m;

	cxl_memdev_foreach(c, m)
		if (!strcmp(cxl_memdev_get_devname(m), name))
			return m;
	return NULL;
}

static bool unsupported(int err)
{
	return err == EOPNOTSUPP || err == ENOTTY || err == ENXIO || err == EINVAL;
}

static int submit(struct ct_context *ctx, struct cxl_cmd *cmd, const char *memdev, const char *what)
{
	int rc = cxl_cmd_submit(cmd), st;

	if (rc == -ENOTTY || rc == -EOPNOTSUPP)	/* not in the device's command effects log */
		return ct_fail(&ctx->err, EOPNOTSUPP, "%s: %s is not supported by the device (the kernel did not enable it: %s)",
			       memdev, what, strerror(-rc));
	if (rc < 0)
		return ct_fail(&ctx->err, -rc, "%s: %s failed: %s%s", memdev, what, strerror(-rc),
			       -rc == EACCES || -rc == EPERM ? " (the mailbox needs root)" : "");
	st = cxl_cmd_get_mbox_status(cmd);
	if (st)
		return ct_fail(&ctx->err, ct_mbox_status_errno((uint16_t)st), "%s: %s: the device returned %s "
			       "(mailbox return code 0x%x)", memdev, what, ct_mbox_status_name((uint16_t)st), st);
	return 0;
}

static int alert_read(struct ct_context *ctx, struct cxl_memdev *m, const char *memdev, struct ct_alert_config *a)
{
	struct cxl_cmd *cmd;
	int rc;

	memset(a, 0, sizeof(*a));
	errno = 0;
	cmd = cxl_cmd_new_get_alert_config(m);
	if (!cmd) {
		int e = errno ? errno : EOPNOTSUPP;
		return ct_fail(&ctx->err, unsupported(e) ? EOPNOTSUPP : e, "%s: Get Alert Configuration is not "
			       "supported by the device or the kernel (%s)", memdev, strerror(e));
	}
	rc = submit(ctx, cmd, memdev, "Get Alert Configuration");
	if (!rc) {
		a->valid = (cxl_cmd_alert_config_life_used_prog_warn_threshold_valid(cmd) > 0 ? CT_ALERT_LIFE_USED : 0) |
			   (cxl_cmd_alert_config_dev_over_temperature_prog_warn_threshold_valid(cmd) > 0 ? CT_ALERT_OVER_TEMP : 0) |
			   (cxl_cmd_alert_config_dev_under_temperature_prog_warn_threshold_valid(cmd) > 0 ? CT_ALERT_UNDER_TEMP : 0) |
			   (cxl_cmd_alert_config_corrected_volatile_mem_err_prog_warn_threshold_valid(cmd) > 0 ? CT_ALERT_CORRECTED_VOLATILE : 0) |
			   (cxl_cmd_alert_config_corrected_pmem_err_prog_warn_threshold_valid(cmd) > 0 ? CT_ALERT_CORRECTED_PERSISTENT : 0);
		a->programmable = (cxl_cmd_alert_config_life_used_prog_warn_threshold_writable(cmd) > 0 ? CT_ALERT_LIFE_USED : 0) |
				  (cxl_cmd_alert_config_dev_over_temperature_prog_warn_threshold_writable(cmd) > 0 ? CT_ALERT_OVER_TEMP : 0) |
				  (cxl_cmd_alert_config_dev_under_temperature_prog_warn_threshold_writable(cmd) > 0 ? CT_ALERT_UNDER_TEMP : 0) |
				  (cxl_cmd_alert_config_corrected_volatile_mem_err_prog_warn_threshold_writable(cmd) > 0 ? CT_ALERT_CORRECTED_VOLATILE : 0) |
				  (cxl_cmd_alert_config_corrected_pmem_err_prog_warn_threshold_writable(cmd) > 0 ? CT_ALERT_CORRECTED_PERSISTENT : 0);
		a->life_used_critical = (uint8_t)cxl_cmd_alert_config_get_life_used_crit_alert_threshold(cmd);
		a->life_used_warning = (uint8_t)cxl_cmd_alert_config_get_life_used_prog_warn_threshold(cmd);
		a->over_temp_critical = (int16_t)cxl_cmd_alert_config_get_dev_over_temperature_crit_alert_threshold(cmd);
		a->under_temp_critical = (int16_t)cxl_cmd_alert_config_get_dev_under_temperature_crit_alert_threshold(cmd);
		a->over_temp_warning = (int16_t)cxl_cmd_alert_config_get_dev_over_temperature_prog_warn_threshold(cmd);
		a->under_temp_warning = (int16_t)cxl_cmd_alert_config_get_dev_under_temperature_prog_warn_threshold(cmd);
		a->corrected_volatile_warning = (uint16_t)cxl_cmd_alert_config_get_corrected_volatile_mem_err_prog_warn_threshold(cmd);
		a->corrected_persistent_warning = (uint16_t)cxl_cmd_alert_config_get_corrected_pmem_err_prog_warn_threshold(cmd);
	}
	cxl_cmd_unref(cmd);
	return rc;
}

int ct_alert_config_read(struct ct_context *ctx, const char *memdev, struct ct_alert_config *a)
{
	struct cxl_ctx *c;
	struct cxl_memdev *m;
	int rc;

	memset(a, 0, sizeof(*a));
	if (!ctx->live)
		return ct_fail(&ctx->err, EOPNOTSUPP, "%s: the alert configuration is the device's, not a captured tree's",
			       memdev);
	if ((rc = ct_context_cxl(ctx, &c)))
		return rc;
	if (!(m = find_memdev(c, memdev)))
		return ct_fail(&ctx->err, ENOENT, "no memdev '%s'", memdev);
	return alert_read(ctx, m, memdev, a);
}

int ct_health_read(struct ct_context *ctx, const char *memdev, struct ct_health *h,
		   struct ct_alert_config *a, bool *have_alert)
{
	uint8_t payload[CT_HEALTH_LEN] = { 0 };
	struct cxl_ctx *c;
	struct cxl_memdev *m;
	struct cxl_cmd *cmd;
	int rc, n;

	memset(h, 0, sizeof(*h));
	*have_alert = false;
	if ((rc = ct_context_cxl(ctx, &c)))
		return rc;
	if (!(m = find_memdev(c, memdev)))
		return ct_fail(&ctx->err, ENOENT, "no memdev '%s'", memdev);
	errno = 0;
	cmd = cxl_cmd_new_get_health_info(m);
	if (!cmd) {
		int e = errno ? errno : EOPNOTSUPP;
		return ct_fail(&ctx->err, unsupported(e) ? EOPNOTSUPP : e,
			       "%s: Get Health Info is not supported by the device or the kernel (%s)", memdev, strerror(e));
	}
	/* the payload itself, decoded as --file and Memory Module events are:
	 * libcxl's getters stop at Health Status bit 2 and have none for bit 3,
	 * Memory Capacity Degraded (CXL 3.1). cxl_cmd_set_output_payload() is
	 * LIBCXL_1, the same from ndctl 72 to 81; the command stays Get Health
	 * Info, not a raw one */
	if ((rc = cxl_cmd_set_output_payload(cmd, payload, sizeof(payload))) < 0)
		rc = ct_fail(&ctx->err, -rc, "%s: Get Health Info: no room for the payload: %s", memdev, strerror(-rc));
	else
		rc = submit(ctx, cmd, memdev, "Get Health Info");
	if (!rc && (n = cxl_cmd_get_out_size(cmd)) < CT_HEALTH_LEN)
		rc = ct_fail(&ctx->err, EBADMSG, "%s: Get Health Info returned %d bytes, the payload is %d", memdev,
			     n, CT_HEALTH_LEN);
	if (!rc)
		ct_health_decode(payload, sizeof(payload), h);
	cxl_cmd_unref(cmd);
	if (rc)
		return rc;
	*have_alert = alert_read(ctx, m, memdev, a) == 0;
	ct_error_clear(&ctx->err);
	return 0;
}

#if LIBCXL_VERSION >= 79
int ct_alert_config_set_libcxl(struct ct_context *ctx, const char *memdev, const struct ct_alert_set *s)
{
	struct ct_alert_config cur;
	struct cxl_ctx *c;
	struct cxl_memdev *m;
	struct cxl_cmd *cmd;
	char why[256];
	int rc;

	if ((rc = ct_context_cxl(ctx, &c)))
		return rc;
	if (!(m = find_memdev(c, memdev)))
		return ct_fail(&ctx->err, ENOENT, "no memdev '%s'", memdev);
	errno = 0;
	if (!(cmd = cxl_cmd_new_set_alert_config(m))) {
		int e = errno ? errno : EOPNOTSUPP;
		return ct_fail(&ctx->err, unsupported(e) ? EOPNOTSUPP : e, "%s: Set Alert Configuration is not "
			       "supported by the device or the kernel (%s)", memdev, strerror(e));
	}
	if (!(rc = alert_read(ctx, m, memdev, &cur)) && (rc = ct_alert_set_check(s, &cur, why, sizeof(why))))
		rc = ct_fail(&ctx->err, -rc, "%s: %s", memdev, why);
	if (!rc) {
		cxl_cmd_alert_config_set_valid_alert_actions(cmd, s->valid);
		cxl_cmd_alert_config_set_enable_alert_actions(cmd, s->enable);
		cxl_cmd_alert_config_set_life_used_prog_warn_threshold(cmd, s->life_used_warning);
		cxl_cmd_alert_config_set_dev_over_temperature_prog_warn_threshold(cmd, s->over_temp_warning);
		cxl_cmd_alert_config_set_dev_under_temperature_prog_warn_threshold(cmd, s->under_temp_warning);
		cxl_cmd_alert_config_set_corrected_volatile_mem_err_prog_warn_threshold(cmd, s->corrected_volatile_warning);
		cxl_cmd_alert_config_set_corrected_pmem_err_prog_warn_threshold(cmd, s->corrected_persistent_warning);
		rc = submit(ctx, cmd, memdev, "Set Alert Configuration");
	}
	cxl_cmd_unref(cmd);
	return rc;
}
#else
int ct_alert_config_set_libcxl(struct ct_context *ctx, const char *memdev, const struct ct_alert_set *s)
{
	(void)s;
	return ct_fail(&ctx->err, EOPNOTSUPP, "%s: the libcxl of this build (%d) has no Set Alert Configuration "
		       "(79 and later)", memdev, LIBCXL_VERSION);
}
#endif
