// SPDX-License-Identifier: LGPL-2.1-or-later
/* region-io.c - what a region interface (region-libcxl.c, region-sysfs.c)
 * says about its last step, kept for region.c to name in its message (see
 * region-ops.h). Apart from region.c, which picks the interface, so that the
 * interfaces and the steps' driver do not depend on each other. */
#include <stdarg.h>
#include <stdio.h>
#include "change/region-ops.h"

void ct_region_io_say(struct ct_region_io *io, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(io->detail, sizeof(io->detail), fmt, ap);
	va_end(ap);
}
