/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * kernel.h - what the running kernel is and how it behaves, decided in one
 * place: its release, the memory hotplug auto-online policy and the command
 * line switches that change where hot-added memory lands, whether its CXL
 * latency figures can be believed, a DAMON context it may run by itself, and
 * what the libcxl cxltier was built against can do. Commands ask here instead
 * of testing versions or reading /proc and /sys themselves.
 */
#ifndef CXLTIER_KERNEL_H
#define CXLTIER_KERNEL_H

#include <stdbool.h>
#include <time.h>
#include <stdint.h>

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
	char online_policy[32];	/* memory_hotplug.online_policy: contig-zones, auto-movable; "" unknown */
	/* where the policy comes from when the command line does not set it:
	 * the build default (or a write since boot), named by the kernel
	 * option that sets it on this release; "" when the command line does */
	char build_option[64];
};

/* never fails: what cannot be read stays unknown (the error is cleared) */
void ct_kernel_auto_online(struct ct_context *ctx, struct ct_auto_online *a);
/* write auto_online_blocks ("offline", "online", "online_movable"...) */
int ct_kernel_set_auto_online(struct ct_context *ctx, const char *value);
/* when auto_online_blocks was last written by a truncating open (a shell's
 * >, tee, cxltier's own writes; the kernel keeps that time with the
 * attribute): 0 and *when, or -errno */
int ct_kernel_auto_online_written(struct ct_context *ctx, struct timespec *when);

/* DAMON contexts the kernel runs by itself (7.x: CONFIG_DAMON_STAT with
 * CONFIG_DAMON_STAT_ENABLED_DEFAULT=y starts one at boot) */
struct ct_kernel_damon {
	bool stat_known;	/* the damon_stat module is there */
	bool stat_enabled;	/* ... and running */
	int stat_pid;		/* its kdamond, -1 unknown */
	unsigned kdamonds;	/* kdamond threads running, whoever started them */
};
/* never fails: what cannot be read stays unknown */
void ct_kernel_damon_state(struct ct_context *ctx, struct ct_kernel_damon *d);

/*
 * Can the kernel's CXL latency be believed? 6.12 adds the PCIe link latency,
 * computed in picoseconds, to nanosecond figures: ~17000 ns where CDAT and
 * the generic port's HMAT say ~300 (7.3 reports 302 ns for QEMU's default
 * table). Judged from the figures when the device's CDAT latency is known
 * (plus the initiator's local latency when known: the least a host path
 * costs): a kernel figure more than ten times that and 5 us above it is the
 * link latency in the wrong unit. Without CDAT, by the figure's excess over
 * the local latency: more than 5 us (the bug adds ~17 us a link, and no CXL
 * path comes near 5 us); a lower figure is left unchecked.
 */
enum ct_latency_verdict {
	CT_LATENCY_UNCHECKED,		/* nothing to judge by */
	CT_LATENCY_PLAUSIBLE,
	CT_LATENCY_LINK_PS_AS_NS,	/* the link latency counted in ps as ns */
};
enum ct_latency_evidence {
	CT_EVIDENCE_NONE,
	CT_EVIDENCE_FIGURES,		/* the kernel's figure against CDAT (+ local) */
	CT_EVIDENCE_EXCESS,		/* no CDAT: the figure over 5 us above local */
};
struct ct_latency_check {
	enum ct_latency_verdict verdict;
	enum ct_latency_evidence by;
	uint64_t expected_ns;		/* CDAT + local latency judged against, 0 none */
};
/* kernel_ns: the kernel's read latency; cdat_ns, local_ns: 0 when unknown */
void ct_kernel_check_latency(uint64_t kernel_ns, uint64_t cdat_ns, uint64_t local_ns, struct ct_latency_check *c);
const char *ct_latency_verdict_name(enum ct_latency_verdict v);	/* "plausible", "link_latency_ps_as_ns"; NULL */
const char *ct_latency_evidence_name(enum ct_latency_evidence e);	/* "figures", "excess"; NULL */

/* what the libcxl cxltier was built against (LIBCXL_VERSION) can do */
int ct_libcxl_version(void);
/* cxl_decoder_create_ram_region(): libcxl 77 and later */
bool ct_libcxl_can_create_ram_region(void);

/* is memory hotplug there at all (/sys/devices/system/memory): 1, 0, or
 * -errno with the message when it cannot be seen (ct_sysfs_present) */
int ct_kernel_has_memory_hotplug(struct ct_context *ctx);
/* is NUMA node information there (/sys/devices/system/node): the same */
int ct_kernel_has_numa(struct ct_context *ctx);
/* are the CXL tracepoints visible (tracefs mounted, kernel 6.3+) */
bool ct_kernel_has_cxl_tracepoints(struct ct_context *ctx);

#endif
