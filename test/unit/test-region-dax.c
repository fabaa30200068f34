// SPDX-License-Identifier: GPL-2.0-only
/* test-region-dax.c - lib/cxl/region-dax.c: a new region's dax device is
 * taken once the dax bus lists it, not when it shows in the region's
 * directory alone (the kernel links it on the bus last: a run on a busy
 * machine read the dax view between the two and found no device); a
 * device the bus lists only later is waited for, one it never lists is
 * waited for up to the limit */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <time.h>
#include <unistd.h>
#include "tap.h"
#include "tree.h"
#include "core/sysfs.h"
#include "cxl/region-dax.h"

#define REGION_DIR "/sys/bus/cxl/devices/region1/dax_region1"

struct lister {
	char root[512];
	int listings;	/* of the region's dax_region1 directory, when the link was made */
	bool linked;
	pthread_barrier_t watching;	/* the watch is set: the helper may look */
};

static void link_on_bus(const char *root)
{
	char link[640];

	/* (relative, as sysfs's: the tree is read as a root of its own) */
	snprintf(link, sizeof(link), "%s/sys/bus/dax/devices/dax1.0", root);
	if (symlink("../../cxl/devices/region1/dax_region1/dax1.0", link))
		perror("symlink");
}

/* the bus lists the device once the helper has listed the region's
 * directory twice: its first look surely missed */
static void *late_bus(void *arg)
{
	struct lister *l = arg;
	char dir[640], buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	int fd = inotify_init1(IN_CLOEXEC);

	snprintf(dir, sizeof(dir), "%s" REGION_DIR, l->root);
	if (fd >= 0 && inotify_add_watch(fd, dir, IN_CLOSE_NOWRITE) < 0) {
		close(fd);
		fd = -1;
	}
	pthread_barrier_wait(&l->watching);
	if (fd < 0)
		return NULL;
	while (l->listings < 2) {
		struct pollfd p = { fd, POLLIN, 0 };
		ssize_t n;

		if (poll(&p, 1, 10000) <= 0)	/* the helper stopped looking */
			break;
		if ((n = read(fd, buf, sizeof(buf))) <= 0)
			break;
		for (char *e = buf; e < buf + n; e += sizeof(struct inotify_event) + ((struct inotify_event *)e)->len)
			l->listings++;
	}
	if (l->listings >= 2) {
		link_on_bus(l->root);
		l->linked = true;
	}
	close(fd);
	return NULL;
}

static long long ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)(t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

int main(void)
{
	struct lister l = { .listings = 0 };
	struct ct_error err = { 0 };
	struct ct_sysfs s;
	struct timespec t0;
	char dax[32] = "";
	pthread_t th;
	bool found;

	if (!mkdtemp(tap_tmp_template(l.root, sizeof(l.root), "cxltier-test-region-dax")) ||
	    ct_sysfs_open(&s, l.root, &err)) {
		ok(0, "a tree for the test");
		return 1;
	}
	/* the region's dax device, and the attribute group named like it */
	tree_put(l.root, REGION_DIR "/dax1.0/size", "536870912\n");
	tree_put(l.root, REGION_DIR "/dax_region/align", "2097152\n");
	tree_put(l.root, "/sys/bus/dax/devices/.keep", "");

	ok(!ct_region_dax_wait(&s, "region1", 0, dax, sizeof(dax)),
	   "in the region's directory, not yet on the dax bus: not taken (no dax view would find it)");
	ok(!ct_region_dax_wait(&s, "region2", 0, dax, sizeof(dax)), "no such region: none");

	clock_gettime(CLOCK_MONOTONIC, &t0);
	found = ct_region_dax_wait(&s, "region1", 200, dax, sizeof(dax));
	ok(!found && ms_since(&t0) >= 200, "never on the bus: none, after the whole limit (%lld ms of 200)", ms_since(&t0));

	pthread_barrier_init(&l.watching, NULL, 2);
	if (pthread_create(&th, NULL, late_bus, &l)) {
		ok(0, "a thread to list the device late");
		return 1;
	}
	pthread_barrier_wait(&l.watching);
	found = ct_region_dax_wait(&s, "region1", 10000, dax, sizeof(dax));
	pthread_join(th, NULL);
	pthread_barrier_destroy(&l.watching);
	ok(l.linked && found, "listed on the bus only after the helper's first looks (%d listings): waited for, found",
	   l.listings);
	is_str(dax, "dax1.0", "its name");
	ok(ct_region_dax_wait(&s, "region1", 0, dax, sizeof(dax)), "listed: found at once");
	ct_sysfs_close(&s);
	tap_rm_tree(l.root);
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
