/* SPDX-License-Identifier: GPL-2.0-only */
/* health-file.h - `cxltier health --file HEALTH.bin [--alert-file ALERT.bin]`:
 * payloads decoded as a device's answers would be */
#ifndef CXLTIER_HEALTH_FILE_H
#define CXLTIER_HEALTH_FILE_H

#include <json-c/json.h>
#include "cli/cli.h"

/* an 18-byte Get Health Info payload (and a 16-byte Get Alert
 * Configuration one) as a memdev named by the file, into arr; 0, or
 * EXIT_FAIL with the file's fault said */
int health_file(struct cmd_env *env, const char *file, const char *alert_file, json_object *arr);

#endif
