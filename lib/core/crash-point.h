/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * crash-point.h - TEST-ONLY: a run killed at its Nth kernel-changing write,
 * so that the VM tests (test/vm/crash-region.bats) can stop a command at
 * every step and see what its recovery makes of the state left behind.
 *
 * Built only with `meson setup -Dcrash_points=true` (tools/test.sh's
 * ASan/UBSan build and the VM tier's build-crash; never the package). Without it ct_crash_point() is an empty
 * inline function: no environment is read, nothing is counted.
 *
 * With it, every call counts one write (the sysfs writer, core/sysfs.c,
 * each state-changing region step through libcxl, change/region-libcxl.c,
 * and a dax device's unbind and rebind through libdaxctl, change/dax-convert.c):
 *   CXLTIER_CRASH_AT=N     the Nth call sends the process SIGKILL, after
 *                          its log line and before the write itself
 *   CXLTIER_CRASH_LOG=FILE each call appends "N WHAT" to FILE (WHAT: the
 *                          path written or the libcxl/libdaxctl step)
 *   CXLTIER_CRASH_SIGNAL=HUP|INT|QUIT|TERM  that signal instead of SIGKILL
 *                          (the run's handlers see it; the write goes on)
 */
#ifndef CXLTIER_CRASH_POINT_H
#define CXLTIER_CRASH_POINT_H

#include "config.h"

#if CXLTIER_CRASH_POINTS
void ct_crash_point(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#else
static inline __attribute__((format(printf, 1, 2))) void ct_crash_point(const char *fmt, ...)
{
	(void)fmt;
}
#endif

#endif
