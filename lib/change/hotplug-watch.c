// SPDX-License-Identifier: LGPL-2.1-or-later
/* hotplug-watch.c - the devices udev hands to cxltier: see hotplug-watch.h.
 *
 * udev's monitor, not the kernel's uevents: an event reaches us once udev's
 * rules ran (the rule decides what is cxltier's: an administrator's
 * override of 90-cxltier.rules turns it off) and the device's database
 * entry is written, so a device tagged before the watch began is found by
 * ct_hotplug_watch_present(). libudev takes only messages sent with root's
 * credentials. The tag read is the event's own (CURRENT_TAGS): a device
 * tagged by an earlier event and not by this one (unbind, change) is not
 * acted on. */
#include <errno.h>
#include <libudev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "change/hotplug-watch.h"
#include "core/rundir.h"
#include "core/sysfs.h"
#include "mm/memblock.h"

struct ct_hotplug_watch {
	struct udev *udev;
	struct udev_monitor *mon;
	int rundir;		/* where the mark is, -1 when none was made */
};

/* what the socket may hold before events are lost (then all is looked at again) */
#define WATCH_RCVBUF (4 << 20)

static bool digits(const char *s, const char **end)
{
	const char *p = s;

	while (*p >= '0' && *p <= '9')
		p++;
	*end = p;
	return p > s && p - s <= 9;
}

bool ct_hotplug_watch_name_ok(const char *name)
{
	const char *p;

	if (!strncmp(name, "mem", 3))
		return digits(name + 3, &p) && !*p;
	if (!strncmp(name, "dax", 3))
		return digits(name + 3, &p) && *p == '.' && digits(p + 1, &p) && !*p;
	return false;
}

int ct_hotplug_watch_open(struct ct_hotplug_watch **wp, struct ct_error *err)
{
	struct ct_hotplug_watch *w = calloc(1, sizeof(*w));
	int r;

	*wp = NULL;
	if (!w)
		return ct_fail(err, ENOMEM, "no memory for udev's monitor");
	w->rundir = -1;
	if (!(w->udev = udev_new())) {
		r = ct_fail(err, errno ? errno : ENOMEM, "cannot open libudev: %s", strerror(errno ? errno : ENOMEM));
		goto fail;
	}
	if (!(w->mon = udev_monitor_new_from_netlink(w->udev, "udev"))) {
		r = ct_fail(err, errno ? errno : EIO, "cannot open udev's monitor (a netlink socket): %s",
			    strerror(errno ? errno : EIO));
		goto fail;
	}
	if ((r = udev_monitor_filter_add_match_subsystem_devtype(w->mon, "cxl", NULL)) < 0 ||
	    (r = udev_monitor_filter_add_match_subsystem_devtype(w->mon, "dax", NULL)) < 0 ||
	    (r = udev_monitor_filter_add_match_tag(w->mon, CT_HOTPLUG_WATCH_TAG)) < 0) {
		r = ct_fail(err, -r, "cannot filter udev's monitor: %s", strerror(-r));
		goto fail;
	}
	udev_monitor_set_receive_buffer_size(w->mon, WATCH_RCVBUF);	/* best effort: less is looked at again */
	if ((r = udev_monitor_enable_receiving(w->mon)) < 0) {
		r = ct_fail(err, -r, "cannot listen to udev's monitor: %s", strerror(-r));
		goto fail;
	}
	*wp = w;
	return 0;
fail:
	ct_hotplug_watch_close(w);
	return r;
}

int ct_hotplug_watch_mark(struct ct_hotplug_watch *w, struct ct_sysfs *s, struct ct_error *err)
{
	char pid[24];
	bool created;
	int fd, r, n;

	if (w->rundir < 0 && (r = ct_rundir_open(s, &w->rundir)) < 0) {
		w->rundir = -1;
		return r;
	}
	if ((r = ct_rundir_open_file(s, w->rundir, CT_HOTPLUG_WATCH_MARK, &fd, &created)) < 0)
		return r;
	n = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	r = ftruncate(fd, 0) == 0 && pwrite(fd, pid, (size_t)n, 0) == n ? 0 : -errno;
	close(fd);
	if (r)
		return ct_fail(err, -r, "cannot write %s/%s: %s", CT_RUNDIR, CT_HOTPLUG_WATCH_MARK, strerror(-r));
	return 0;
}

void ct_hotplug_watch_close(struct ct_hotplug_watch *w)
{
	if (!w)
		return;
	if (w->rundir >= 0) {
		unlinkat(w->rundir, CT_HOTPLUG_WATCH_MARK, 0);
		close(w->rundir);
	}
	udev_monitor_unref(w->mon);
	udev_unref(w->udev);
	free(w);
}

int ct_hotplug_watch_fd(const struct ct_hotplug_watch *w)
{
	return udev_monitor_get_fd(w->mon);
}

/* the device is one to act on now: tagged by its last event, named as ours */
static bool device_ours(struct udev_device *d)
{
	const char *sub = udev_device_get_subsystem(d), *name = udev_device_get_sysname(d);

	return sub && name && (!strcmp(sub, "cxl") || !strcmp(sub, "dax")) &&
	       udev_device_has_current_tag(d, CT_HOTPLUG_WATCH_TAG) > 0 && ct_hotplug_watch_name_ok(name);
}

int ct_hotplug_watch_present(struct ct_hotplug_watch *w, void (*fn)(const char *name, void *arg), void *arg,
			     struct ct_error *err)
{
	struct udev_enumerate *e = udev_enumerate_new(w->udev);
	struct udev_list_entry *l;
	int r, n = 0;

	if (!e)
		return ct_fail(err, ENOMEM, "cannot list udev's devices: no memory");
	if ((r = udev_enumerate_add_match_subsystem(e, "cxl")) < 0 ||
	    (r = udev_enumerate_add_match_subsystem(e, "dax")) < 0 ||
	    (r = udev_enumerate_add_match_tag(e, CT_HOTPLUG_WATCH_TAG)) < 0 || (r = udev_enumerate_scan_devices(e)) < 0) {
		udev_enumerate_unref(e);
		return ct_fail(err, -r, "cannot list the devices udev tagged %s: %s", CT_HOTPLUG_WATCH_TAG, strerror(-r));
	}
	udev_list_entry_foreach(l, udev_enumerate_get_list_entry(e)) {
		struct udev_device *d = udev_device_new_from_syspath(w->udev, udev_list_entry_get_name(l));

		if (!d)
			continue;	/* gone since */
		if (device_ours(d)) {
			fn(udev_device_get_sysname(d), arg);
			n++;
		}
		udev_device_unref(d);
	}
	udev_enumerate_unref(e);
	return n;
}

int ct_hotplug_watch_next(struct ct_hotplug_watch *w, char *name, size_t size, struct ct_error *err)
{
	struct udev_device *d;
	const char *action;
	int r = 0;

	errno = 0;
	if (!(d = udev_monitor_receive_device(w->mon))) {
		int e = errno ? errno : EAGAIN;

		if (e == EAGAIN || e == EWOULDBLOCK || e == EINTR)
			return -EAGAIN;
		if (e == ENOBUFS)
			return ct_fail(err, ENOBUFS, "udev's events came faster than they were read: some were lost");
		return ct_fail(err, e, "cannot read udev's monitor: %s", strerror(e));
	}
	action = udev_device_get_action(d);
	if (action && (!strcmp(action, "add") || !strcmp(action, "bind")) && device_ours(d)) {
		ct_strlcpy(name, udev_device_get_sysname(d), size);
		r = 1;
	}
	udev_device_unref(d);
	return r;
}

bool ct_hotplug_watch_done(struct ct_sysfs *s, const char *name)
{
	char path[128];
	uint64_t start, size, bs, first;
	unsigned count;
	struct ct_blocks c;
	bool done;

	if (strncmp(name, "dax", 3) || !ct_hotplug_watch_name_ok(name))
		return false;
	done = !ct_sysfs_read_u64(s, ct_path(path, sizeof(path), "/sys/bus/dax/devices/%s/resource", name), 0, &start) &&
	       !ct_sysfs_read_u64(s, ct_path(path, sizeof(path), "/sys/bus/dax/devices/%s/size", name), 0, &size) &&
	       !ct_block_size(s, &bs) && bs;
	if (done) {
		ct_block_range(start, size, bs, &first, &count);
		done = count && !ct_blocks_count(s, start, size, bs, &c) && c.total == count && c.online == count &&
		       c.movable == count;
	}
	ct_error_clear(s->err);
	return done;
}
