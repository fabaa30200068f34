/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* region-dax.h - a region's dax device, waited for after the region is
 * made: the region driver's probe adds it, the dax bus lists it */
#ifndef CXLTIER_REGION_DAX_H
#define CXLTIER_REGION_DAX_H

#include <stdbool.h>
#include <stddef.h>
#include "core/sysfs.h"

/* true once region (regionN) has a dax device (daxN.M, under its
 * dax_regionN) that the dax bus lists too, its name in dax[len]; looked for
 * at once, then after naps (core/poll-wait.h) for at most limit_ms. The
 * kernel's device_add makes the device's directory first and links it on
 * its bus last: a reader between the two (a busy machine) finds it in the
 * region and not on /sys/bus/dax/devices, where every dax view looks. */
bool ct_region_dax_wait(struct ct_sysfs *s, const char *region, unsigned limit_ms, char *dax, size_t len);

#endif
