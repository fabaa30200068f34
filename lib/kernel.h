/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * kernel.h - what the running kernel is and how it behaves, decided in one
 * place: its release, the memory hotplug auto-online policy and the command
 * line switches that change where hot-added memory lands. Commands ask here
 * instead of testing versions or reading /proc and /sys themselves.
 */
#ifndef CXLTIER_KERNEL_H
#define CXLTIER_KERNEL_H

#include <stdbool.h>

struct ct_context;

struct ct_kernel_release {
	char text[128];		/* osrelease as the kernel says it, "" unknown */
	int major, minor;	/* 0.0 when unknown */
};

/* 0, or -errno with a message (no /proc/sys/kernel/osrelease) */
int ct_kernel_release(struct ct_context *ctx, struct ct_kernel_release *r);
/* true when the release is at least major.minor (false when unknown) */
bool ct_kernel_at_least(const struct ct_kernel_release *r, int major, int minor);

/* does the kernel publish the CDAT of an endpoint (6.0) or of a switch
 * port (6.8) in sysfs; true when the release is unknown */
bool ct_kernel_has_cdat_attr(const struct ct_kernel_release *r, bool switch_port);
/* does it have what CXL memory needs: regions, CDAT-derived performance
 * (6.9) and memory tiers (6.1) */
bool ct_kernel_has_cxl_perf(const struct ct_kernel_release *r);

/* how the kernel onlines hot-added memory on its own */
struct ct_auto_online {
	char blocks[32];	/* /sys/devices/system/memory/auto_online_blocks, "" unknown */
	bool known;
	bool onlines;		/* the kernel onlines new blocks itself */
	bool movable;		/* ... and into ZONE_MOVABLE (online_movable) */
	char memhp_default_state[32];	/* from the command line, "" absent */
	bool movable_node;	/* movable_node on the command line */
};

/* never fails: what cannot be read stays unknown (the error is cleared) */
void ct_kernel_auto_online(struct ct_context *ctx, struct ct_auto_online *a);
/* write auto_online_blocks ("offline", "online", "online_movable"...) */
int ct_kernel_set_auto_online(struct ct_context *ctx, const char *value);

/* is memory hotplug there at all (/sys/devices/system/memory) */
bool ct_kernel_has_memory_hotplug(struct ct_context *ctx);
/* is NUMA node information there (/sys/devices/system/node) */
bool ct_kernel_has_numa(struct ct_context *ctx);
/* are the CXL tracepoints visible (tracefs mounted, kernel 6.3+) */
bool ct_kernel_has_cxl_tracepoints(struct ct_context *ctx);

#endif
