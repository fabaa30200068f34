/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * region.h - CXL RAM regions: plan, then create; destroy.
 *
 * Creating is two calls so that a caller can show or check the plan first
 * (`region create --dry-run`, the hotplug policy): ct_region_plan_create()
 * reads the topology and chooses the root decoder, interleave ways and
 * granularity, position order, endpoint decoders and size as the kernel's
 * rules allow; ct_region_create() carries the plan out step by step and,
 * when a step is refused, undoes the steps done before it.
 *
 * The kernel's rules followed here (drivers/cxl/core/region.c):
 * - region ways = root decoder ways x a power of 2; each host bridge the
 *   root decoder interleaves gets the same number of memdevs;
 * - position p goes to host bridge target[p % root_ways]; below it, each
 *   port level takes the next digit: the memdevs under one port are spread
 *   over its downstream ports in turn (a power-of-2 count, equal shares);
 * - granularity = the root decoder's when it interleaves host bridges;
 * - size: a multiple of 256 MiB x ways, each memdev giving size / ways from
 *   the next endpoint decoder in order (the kernel allocates DPA in order);
 * - switch and host-bridge decoders are programmed by the kernel at commit.
 * Nothing here prints; failures return -errno with a message in ctx->err.
 */
#ifndef CXLTIER_REGION_H
#define CXLTIER_REGION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/error.h"
#include "change/blocks.h"
#include "cxl/fabric.h"

struct ct_context;

struct ct_region_req {
	const char *const *memdevs;	/* names (memN), in any order */
	size_t nmemdevs;
	const char *root_decoder;	/* NULL: the first that can take them */
	unsigned ways;			/* 0: the number of memdevs (else must equal it) */
	unsigned granularity;		/* 0: the root decoder's */
	uint64_t size;			/* 0: all the volatile capacity they share */
};

/* told after each step of a create or destroy is done: what it wrote,
 * done of total; NULL: nothing told. The caller's, to show the run as it
 * goes: lib/ prints nothing */
struct ct_region_tell {
	void (*step)(void *arg, const char *what, size_t done, size_t total);
	void *arg;
};

struct ct_region_member {
	unsigned position;
	char memdev[CT_NAME];
	char endpoint[CT_NAME];
	char decoder[CT_NAME];		/* the endpoint decoder to program */
	char decoder_mode[16];		/* its mode before */
	char host_bridge[CT_NAME];	/* "dport 12 of root0", for messages */
	uint64_t dpa_size;
};

struct ct_region_plan {
	char root_decoder[CT_NAME];
	unsigned root_ways;
	unsigned ways, granularity;
	uint64_t size;
	struct ct_region_member members[CT_MAX_TARGETS];	/* by position */
	const char *method;		/* "libcxl" or "sysfs" */
	char region[CT_NAME];		/* set by ct_region_create */
	char next_name[CT_NAME];	/* what the kernel offers now (a guess for dry runs) */
	struct ct_region_tell tell;	/* each step told as it is done (zeroed by the planner) */
};

/* pure: choose everything from a fabric; -EINVAL/-ENOENT/-ENOSPC/-EOPNOTSUPP
 * with a message naming the memdev or decoder that does not fit */
int ct_region_plan_make(const struct ct_fabric *f, const struct ct_region_req *req,
			struct ct_region_plan *plan, struct ct_error *err);
/* read the fabric, then plan; the method is chosen for this system */
int ct_region_plan_create(struct ct_context *ctx, const struct ct_region_req *req, struct ct_region_plan *plan);
/* execute; on failure undo, and say in the message what was undone or left */
int ct_region_create(struct ct_context *ctx, struct ct_region_plan *plan);

struct ct_region_teardown {
	char region[CT_NAME];
	char root_decoder[CT_NAME];
	bool enabled, committed;
	unsigned ntargets;
	char targets[CT_MAX_TARGETS][CT_NAME];
	char memdevs[CT_MAX_TARGETS][CT_NAME];	/* the targets' memdevs */
	unsigned online_blocks;		/* memory blocks of its dax devices online now */
	const char *method;
	struct ct_region_tell tell;	/* each step told as it is done (zeroed by the planner) */
};

/* 0, or -EBUSY when a dax device of r is another driver's (famfs's
 * fsdev_dax, or one cxltier does not know): its memory is not cxltier's to
 * take away. Part of ct_region_plan_destroy; a dry run that plans several
 * destroys at once asks it alone. */
int ct_region_check_dax_owned(struct ct_context *ctx, const struct ct_region *r);
/* what destroying `region` involves; -ENOENT when there is no such region */
int ct_region_plan_destroy(struct ct_context *ctx, const struct ct_topology *t, const char *region,
			   struct ct_region_teardown *td);
/*
 * Offline its memory (only when `offline` is given: with its rollback, so
 * that a failure puts the blocks back), disable, reset the decode, clear the
 * targets, free the endpoint decoders' DPA, delete. Online memory without
 * `offline`: -EBUSY. Each step is skipped when already done, so a run that
 * stopped half way can be repeated.
 */
int ct_region_destroy(struct ct_context *ctx, const struct ct_topology *t, struct ct_region_teardown *td,
		      const struct ct_blocks_opts *offline);

/*
 * Region changes a killed run left (change-record.h: the record in
 * /run/cxltier of a create or destroy whose run is gone), each finished or
 * undone, its record removed: a destroy is finished (the region taken
 * apart if it is still there, the DPA of its recorded endpoint decoders
 * that are in no region freed, the last allocated first); a create is
 * undone (its half-built region destroyed, the DPA of its recorded
 * decoders that are in no region freed), unless every step was done (then
 * the region is kept). A --reonline killed between its offline and online
 * writes has its block onlined movable when it is still offline (in
 * ZONE_NORMAL, where it was, when the kernel refuses movable; left as it
 * is when it is online). Records whose run still goes are left. At most max
 * in out, *n of them; 0, or -errno with a message naming the object and
 * what to do (the record that failed kept, the last of out, failed set).
 */
struct ct_region_recovery {
	int pid;			/* the killed run */
	const char *command;		/* "create", "destroy", "reonline" or "tiering" */
	char region[CT_NAME];		/* "" not known */
	char block[CT_NAME];		/* reonline: the block ("memory34") */
	char decoders[256];		/* the recorded endpoint decoders, "decoder2.0, decoder3.0" */
	const char *outcome;		/* "undone", "finished", "kept", "left", "failed" */
	char done[384];			/* what was done: "region3 removed, decoder2.0 freed" */
	bool failed;
};
int ct_region_recover(struct ct_context *ctx, struct ct_region_recovery *out, size_t max, size_t *n);
/* the same records read and left as they are (doctor): outcome "pending",
 * done ""; nothing when /run/cxltier is not there; -errno with a message
 * for a record refused (a link, not as cxltier writes it) */
int ct_region_recover_pending(struct ct_context *ctx, struct ct_region_recovery *out, size_t max, size_t *n);

/* valid CXL interleave ways and granularity */
bool ct_region_ways_valid(unsigned ways);
bool ct_region_granularity_valid(unsigned granularity);

#endif
