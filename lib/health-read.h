/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* health-read.h - a live device's health through libcxl */
#ifndef CXLTIER_HEALTH_READ_H
#define CXLTIER_HEALTH_READ_H

#include <stdbool.h>
#include "health.h"

struct ct_context;
/* 0; -EOPNOTSUPP when the device or kernel does not offer the command;
 * -errno (EACCES: not root) with a message. Alert configuration is optional:
 * *have_alert says whether it was read. */
int ct_health_read(struct ct_context *ctx, const char *memdev, struct ct_health *h,
		   struct ct_alert_config *a, bool *have_alert);

#endif
