// SPDX-License-Identifier: LGPL-2.1-or-later
/* region-io.c - what a region interface (region-libcxl.c, region-sysfs.c)
 * said about its last step, kept in its ct_region_io for region.c to name
 * in the message (region-ops.h). A file of its own so that the interfaces
 * need nothing of region.c, which chooses between them. */
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
