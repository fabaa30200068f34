/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* hotplug-watch.h - the devices udev hands to cxltier: CXL memdevs bound to
 * cxl_mem and dax devices bound to kmem that udev/90-cxltier.rules tagged
 * "cxltier", as udev finishes each event, and those present already */
#ifndef CXLTIER_HOTPLUG_WATCH_H
#define CXLTIER_HOTPLUG_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include "core/error.h"

#define CT_HOTPLUG_WATCH_TAG "cxltier"
/* in /run/cxltier while a watch listens: 90-cxltier.rules then does not ask
 * systemd to start the service (nor to track the device) at each memdev */
#define CT_HOTPLUG_WATCH_MARK "hotplug.watch"

struct ct_hotplug_watch;

/* udev's monitor of the cxl and dax subsystems, opened and listening: an
 * event from now on is kept for ct_hotplug_watch_next() */
int ct_hotplug_watch_open(struct ct_hotplug_watch **w, struct ct_error *err);
void ct_hotplug_watch_close(struct ct_hotplug_watch *w);

/* the mark that a watch listens (its pid in it), made in root's run
 * directory once the monitor listens; removed by ct_hotplug_watch_close()
 * (and by the unit's ExecStopPost= when the watch was killed) */
struct ct_sysfs;
int ct_hotplug_watch_mark(struct ct_hotplug_watch *w, struct ct_sysfs *s, struct ct_error *err);

/* the descriptor to poll for input */
int ct_hotplug_watch_fd(const struct ct_hotplug_watch *w);

/* the tagged devices present now (udev's database), each given to fn;
 * returns how many, or -errno */
int ct_hotplug_watch_present(struct ct_hotplug_watch *w, void (*fn)(const char *name, void *arg), void *arg,
			     struct ct_error *err);

/* the next waiting event: 1 with name set when it is one to act on (add or
 * bind of a tagged device), 0 for any other, -EAGAIN when none waits,
 * -ENOBUFS when events were lost (the socket overran: look at what is
 * present again), another -errno on failure */
int ct_hotplug_watch_next(struct ct_hotplug_watch *w, char *name, size_t size, struct ct_error *err);

/* a dax device whose every block is online in ZONE_MOVABLE already: a run
 * over nothing. udev's event for a region's dax device comes while the run
 * that made the region onlines it; it is dropped once that run has ended.
 * (false when it cannot be read: a run then looks at it) */
bool ct_hotplug_watch_done(struct ct_sysfs *s, const char *name);

/* a device name cxltier acts on: memN or daxN.M, nothing else */
bool ct_hotplug_watch_name_ok(const char *name);

#endif
