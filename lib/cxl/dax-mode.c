// SPDX-License-Identifier: LGPL-2.1-or-later
/* dax-mode.c - a dax device's mode from the driver it is bound to: one
 * naming for every topology backend (see topology.h) */
#include <errno.h>
#include <string.h>
#include "core/context.h"
#include "cxl/topology.h"

const char *ct_dax_mode_of_driver(const char *driver)
{
	if (!driver || !driver[0])
		return "unbound";
	if (!strcmp(driver, "kmem"))
		return "system-ram";
	if (!strcmp(driver, "device_dax"))
		return "devdax";
	if (!strcmp(driver, "fsdev_dax"))
		return "famfs";
	return driver;
}

void ct_dax_mode_read(struct ct_sysfs *s, const char *dax, char *mode, size_t len)
{
	char path[128], driver[CT_NAME];
	int rc = ct_sysfs_link_name(s, ct_path(path, sizeof(path), "/sys/bus/dax/devices/%s/driver", dax), driver,
				    sizeof(driver));

	ct_error_clear(s->err);
	/* no link: bound to nothing; the link unreadable: unknown, which
	 * nothing converts, onlines or takes away */
	ct_strlcpy(mode, rc == -ENOENT ? "unbound" : rc ? "unknown" : ct_dax_mode_of_driver(driver), len);
}
