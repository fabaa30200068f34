// SPDX-License-Identifier: LGPL-2.1-or-later
/* health-alert-set.c - Set Alert Configuration: through libcxl when the libcxl of
 * this build has it (79 and later), else through the kernel's mailbox
 * ioctl with the payload built here (health-alert.c). Either way the
 * command must be enabled for the device, the device's current
 * configuration must allow the change, and its return code is checked. */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/cxl_mem.h>
#include "config.h"
#include "core/context.h"
#include "cxl/health.h"
#include "cxl/health-read.h"
#include "cxl/mbox.h"

const char *ct_alert_config_set_method(void)
{
	return LIBCXL_VERSION >= 79 ? "libcxl" : "ioctl";
}

static int set_ioctl(struct ct_context *ctx, const char *memdev, const struct ct_alert_set *s)
{
	static const char what[] = "Set Alert Configuration";
	const uint32_t id = CXL_MEM_COMMAND_ID_SET_ALERT_CONFIG;	/* 12 in every UAPI header */
	uint8_t payload[CT_SET_ALERT_LEN];
	struct ct_alert_config cur;
	struct ct_mbox_command c;
	struct ct_mbox *m;
	uint16_t status;
	char why[256];
	int rc;

	if ((rc = ct_mbox_open(ctx, memdev, &m)))
		return rc;
	/* before anything else: can this device take the command at all */
	if ((rc = ct_mbox_usable(m, id, what)))
		goto out;
	if (!ct_mbox_command(m, id, &c) && c.size_in != CT_SET_ALERT_LEN && c.size_in != CT_MBOX_VARIABLE) {
		rc = ct_fail(&ctx->err, EPROTO, "%s: the kernel expects %u bytes for %s, the specification %d", memdev,
			     c.size_in, what, CT_SET_ALERT_LEN);
		goto out;
	}
	if ((rc = ct_alert_config_read(ctx, memdev, &cur)))
		goto out;
	if ((rc = ct_alert_set_check(s, &cur, why, sizeof(why)))) {
		rc = ct_fail(&ctx->err, -rc, "%s: %s", memdev, why);
		goto out;
	}
	ct_alert_set_encode(s, payload);
	rc = ct_mbox_send(m, id, what, payload, sizeof(payload), NULL, NULL, &status);
out:
	ct_mbox_close(m);
	return rc;
}

int ct_alert_config_set(struct ct_context *ctx, const char *memdev, const struct ct_alert_set *s)
{
	if (!ctx->live)
		return ct_fail(&ctx->err, EOPNOTSUPP, "%s: alerts are set on the device, not on a captured tree", memdev);
	if (LIBCXL_VERSION >= 79)
		return ct_alert_config_set_libcxl(ctx, memdev, s);
	return set_ioctl(ctx, memdev, s);
}
