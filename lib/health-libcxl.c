// SPDX-License-Identifier: LGPL-2.1-or-later
/* health-libcxl.c - Get Health Info, Get Alert Configuration and (libcxl
 * 79 and later) Set Alert Configuration through libcxl; the mailbox return
 * code is checked before any field is used */
#include <errno.h>
#include <string.h>
#include <cxl/libcxl.h>
#include "config.h"
#include "context.h"
#include "health.h"
#include "health-read.h"
#include "mbox.h"

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

static uint8_t media_status(struct cxl_cmd *c)
{
	int (*const get[])(struct cxl_cmd *) = {
		cxl_cmd_health_info_get_media_normal, cxl_cmd_health_info_get_media_not_ready,
		cxl_cmd_health_info_get_media_persistence_lost, cxl_cmd_health_info_get_media_data_lost,
		cxl_cmd_health_info_get_media_powerloss_persistence_loss,
		cxl_cmd_health_info_get_media_shutdown_persistence_loss,
		cxl_cmd_health_info_get_media_persistence_loss_imminent,
		cxl_cmd_health_info_get_media_powerloss_data_loss, cxl_cmd_health_info_get_media_shutdown_data_loss,
		cxl_cmd_health_info_get_media_data_loss_imminent,
	};
	for (uint8_t i = 0; i < sizeof(get) / sizeof(get[0]); i++)
		if (get[i](c) > 0)
			return i;
	return 0xff;
}

static uint8_t level(int warning, int critical)
{
	return critical > 0 ? 2 : warning > 0 ? 1 : 0;
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
	struct cxl_ctx *c;
	struct cxl_memdev *m;
	struct cxl_cmd *cmd;
	int rc, v;

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
	rc = submit(ctx, cmd, memdev, "Get Health Info");
	if (!rc) {
		h->health_status = (cxl_cmd_health_info_get_maintenance_needed(cmd) > 0 ? CT_HEALTH_MAINTENANCE_NEEDED : 0) |
				   (cxl_cmd_health_info_get_performance_degraded(cmd) > 0 ? CT_HEALTH_PERFORMANCE_DEGRADED : 0) |
				   (cxl_cmd_health_info_get_hw_replacement_needed(cmd) > 0 ? CT_HEALTH_HW_REPLACEMENT_NEEDED : 0);
		h->media_status = media_status(cmd);
		h->life_used_state = level(cxl_cmd_health_info_get_ext_life_used_warning(cmd),
					   cxl_cmd_health_info_get_ext_life_used_critical(cmd));
		h->temperature_state = level(cxl_cmd_health_info_get_ext_temperature_warning(cmd),
					     cxl_cmd_health_info_get_ext_temperature_critical(cmd));
		h->corrected_volatile_warning = cxl_cmd_health_info_get_ext_corrected_volatile_warning(cmd) > 0;
		h->corrected_persistent_warning = cxl_cmd_health_info_get_ext_corrected_persistent_warning(cmd) > 0;
		v = cxl_cmd_health_info_get_life_used(cmd);
		h->has_life_used = v >= 0;
		h->life_used = v >= 0 ? (uint8_t)v : 0;
		v = cxl_cmd_health_info_get_temperature(cmd);
		h->has_temperature = v >= 0;
		h->temperature = (int16_t)(uint16_t)(v >= 0 ? v : 0);	/* libcxl returns the raw u16 */
		h->dirty_shutdowns = (uint32_t)cxl_cmd_health_info_get_dirty_shutdowns(cmd);
		h->corrected_volatile_errors = (uint32_t)cxl_cmd_health_info_get_volatile_errors(cmd);
		h->corrected_persistent_errors = (uint32_t)cxl_cmd_health_info_get_pmem_errors(cmd);
	}
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
