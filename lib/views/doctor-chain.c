// SPDX-License-Identifier: LGPL-2.1-or-later
/* doctor-chain.c - the doctor's walk down the CXL memory chain: memdev ->
 * region -> dax device -> memory blocks -> zone -> tier (see doctor.h) */
#include <stdio.h>
#include <string.h>
#include "views/doctor.h"
#include "views/findings.h"
#include "cxl/topology.h"

static bool in_region(const struct ct_topology *t, const struct ct_memdev *m)
{
	for (size_t j = 0; j < t->nregions; j++)
		if (ct_region_has_memdev(&t->regions[j], m->name))
			return true;
	return false;
}

/* bound, enumerated, with volatile capacity and in no region */
static bool idle(const struct ct_topology *t, const struct ct_memdev *m)
{
	return m->enabled && m->endpoint[0] && m->ram_size && !in_region(t, m);
}

/* cxltier's own command for every idle memdev at once: one region over
 * them (region create says so when they cannot share one) */
static void idle_fix(const struct ct_topology *t, char *fix, size_t len)
{
	size_t off = (size_t)snprintf(fix, len, "cxltier region create");

	for (size_t i = 0; i < t->nmemdevs && off < len; i++)
		if (idle(t, &t->memdevs[i]))
			off += (size_t)snprintf(fix + off, len - off, " %s", t->memdevs[i].name);
	if (off >= len)	/* too many to name: the command, and where they are listed */
		snprintf(fix, len, "cxltier region create MEMDEV... (those in no region: cxltier list)");
}

static void check_memdevs(const struct ct_topology *t, struct ct_findings *f)
{
	char fix[256];

	idle_fix(t, fix, sizeof(fix));
	for (size_t i = 0; i < t->nmemdevs; i++) {
		const struct ct_memdev *m = &t->memdevs[i];
		if (!m->enabled) {
			ct_finding_add(f, "memdev", m->name, CT_FINDING_PROBLEM, "modprobe cxl_mem; cxl enable-memdev",
				       "not bound to cxl_mem");
		} else if (!m->endpoint[0]) {
			ct_finding_add(f, "memdev", m->name, CT_FINDING_PROBLEM, "check dmesg for cxl_port probe errors",
				       "has no endpoint port: the CXL path to the host bridge is not enumerated");
		} else if (idle(t, m)) {
			ct_finding_add(f, "memdev", m->name, CT_FINDING_PROBLEM, fix,
				       "%llu MiB of volatile capacity in no region: the memory is not mapped",
				       (unsigned long long)(m->ram_size >> 20));
		} else {
			ct_finding_add(f, "memdev", m->name, CT_FINDING_OK, "", "in a region");
		}
	}
}

static void check_dax(const struct ct_dax *x, struct ct_findings *f)
{
	char fix[256], node[32];

	if (!strcmp(x->mode, "famfs")) {	/* its memory is a file system's, on purpose */
		ct_finding_add(f, "dax", x->name, CT_FINDING_OK, "",
			       "a famfs device (bound to fsdev_dax): its memory is a file system's, not system RAM");
		return;
	}
	if (strcmp(x->mode, "system-ram")) {
		snprintf(fix, sizeof(fix), "cxltier online %s --convert", x->name);
		ct_finding_add(f, "dax", x->name, CT_FINDING_PROBLEM, fix,
			       "in %s mode: its memory is not hot-plugged as system RAM", x->mode);
		return;
	}
	if (x->blocks.offline) {
		snprintf(fix, sizeof(fix), "cxltier online %s", x->name);
		ct_finding_add(f, "blocks", x->name, CT_FINDING_PROBLEM, fix, "%u of %u memory blocks offline",
			       x->blocks.offline, x->blocks.total);
	}
	if (x->blocks.normal || x->blocks.other_zone) {
		snprintf(fix, sizeof(fix), "cxltier online %s --reonline", x->name);
		ct_finding_add(f, "zone", x->name, CT_FINDING_PROBLEM, fix,
			       "%u blocks online outside ZONE_MOVABLE: they may never be offlined or removed",
			       x->blocks.normal + x->blocks.other_zone);
	}
	if (x->blocks.online && x->memory_tier < 0) {
		snprintf(node, sizeof(node), "node%d", x->target_node);
		ct_finding_add(f, "tier", node, CT_FINDING_PROBLEM, "use a kernel with memory tiering (6.1+)",
			       "node %d holds online CXL memory but is in no memory tier", x->target_node);
	}
	if (!x->blocks.offline && !x->blocks.normal && !x->blocks.other_zone && x->blocks.total)
		ct_finding_add(f, "dax", x->name, CT_FINDING_OK, "", "%u blocks online movable on node %d",
			       x->blocks.movable, x->target_node);
}

static void check_regions(const struct ct_topology *t, struct ct_findings *f)
{
	char fix[256];

	for (size_t i = 0; i < t->nregions; i++) {
		const struct ct_region *r = &t->regions[i];
		if (!r->committed) {
			snprintf(fix, sizeof(fix), "take it apart: cxltier region destroy %s (or finish it: its targets, "
				 "then commit)", r->name);
			ct_finding_add(f, "region", r->name, CT_FINDING_PROBLEM, fix,
				       "not committed: the decoders are not programmed (a region create cut short, or another "
				       "tool making it right now); none of its memory can be used, and the capacity its "
				       "targets hold is lost to other regions");
		} else if (!r->enabled) {
			snprintf(fix, sizeof(fix), "cxl enable-region %s", r->name);
			ct_finding_add(f, "region", r->name, CT_FINDING_PROBLEM, fix, "committed but not bound to cxl_region");
		} else if (!r->ndax && !strcmp(r->mode, "ram")) {
			ct_finding_add(f, "region", r->name, CT_FINDING_PROBLEM, "modprobe dax_cxl",
				       "a RAM region without a dax device: dax_cxl is not loaded");
		} else {
			for (size_t j = 0; j < r->ndax; j++)
				check_dax(&r->dax[j], f);
		}
	}
}

void ct_doctor_chain(const struct ct_topology *t, struct ct_findings *f)
{
	check_memdevs(t, f);
	check_regions(t, f);
}
