/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* health-read.h - a live device's health and alert configuration: read
 * through libcxl; the alert configuration set through libcxl when it has
 * the call (79 and later), else through the kernel's mailbox ioctl */
#ifndef CXLTIER_HEALTH_READ_H
#define CXLTIER_HEALTH_READ_H

#include <stdbool.h>
#include "cxl/health.h"

struct ct_context;
/* 0; -EOPNOTSUPP when the device or kernel does not offer the command;
 * -errno (EACCES: not root) with a message. Alert configuration is optional:
 * *have_alert says whether it was read. */
int ct_health_read(struct ct_context *ctx, const char *memdev, struct ct_health *h,
		   struct ct_alert_config *a, bool *have_alert);

/* Get Alert Configuration alone: 0; -EOPNOTSUPP when the device or kernel
 * does not offer it */
int ct_alert_config_read(struct ct_context *ctx, const char *memdev, struct ct_alert_config *a);

/* Set Alert Configuration: refused before anything is sent when the kernel
 * does not enable the command for the device (-EOPNOTSUPP), when the
 * device's current configuration says it cannot take it (see
 * ct_alert_set_check: -EOPNOTSUPP, -EINVAL); the device's return code is
 * checked (invalid input: -EINVAL) */
int ct_alert_config_set(struct ct_context *ctx, const char *memdev, const struct ct_alert_set *s);
/* how this build sends it: "libcxl" or "ioctl" */
const char *ct_alert_config_set_method(void);

/* the libcxl way (health-libcxl.c, libcxl 79+; -EOPNOTSUPP otherwise) */
int ct_alert_config_set_libcxl(struct ct_context *ctx, const char *memdev, const struct ct_alert_set *s);

#endif
