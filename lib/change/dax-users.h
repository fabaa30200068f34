/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* private to lib/change/ (unit tests in test/ may include it): other folders
 * and the CLI go through dax-convert.h and region.h */
/*
 * dax-users.h - who has a dax device in devdax mode (/dev/daxX.Y) open or
 * mapped. Taking the device from device_dax (switching it to system-ram,
 * destroying its region) goes ahead whatever they do: the kernel revokes
 * their mappings and their next access dies of SIGBUS. The device is found
 * by its device number, whatever path a process opened it by (a node made
 * with mknod, a container's /dev): /sys/bus/dax/devices/NAME/dev against
 * what each /proc/PID/fd/N and /proc/PID/map_files/RANGE leads to (root
 * only: another user's processes are not seen otherwise).
 */
#ifndef CXLTIER_DAX_USERS_H
#define CXLTIER_DAX_USERS_H

#include <stddef.h>
#include "change/memdev-remove.h"

struct ct_context;

/*
 * The processes that have dax device `name` mapped (bytes: how much) or
 * open (bytes 0), most bytes first, at most max (*total: how many there
 * were; *out is malloc'd). None when the device has no device number.
 * The open-files limit is raised first (every process is held by a pidfd
 * meanwhile). 0, or -ENOMEM, or -EMFILE/-ENFILE when a process could not
 * be looked at for want of file descriptors, with a message.
 */
int ct_dax_users(struct ct_context *ctx, const char *name, size_t max, struct ct_pinner **out, size_t *n,
		 size_t *total);

/*
 * 0 when no process has `name` open or mapped; -EBUSY with a message that
 * names them (pid, comm, what they hold), says what `doing` ("switching it
 * to system-ram", "destroying region0") would do to them and what to do;
 * ct_dax_users' error when it cannot tell (not knowing is not "none").
 */
int ct_dax_users_check_unused(struct ct_context *ctx, const char *name, const char *doing);

#endif
