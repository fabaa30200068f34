// SPDX-License-Identifier: LGPL-2.1-or-later
/* doctor.c - the kernel, module and policy checks of the doctor: see doctor.h */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "mm/access.h"
#include "cxl/cdat-source.h"
#include "core/context.h"
#include "views/doctor.h"
#include "views/findings.h"
#include "core/kernel.h"
#include "core/modules.h"
#include "cxl/topology.h"

void ct_doctor_kernel(struct ct_context *ctx, const struct ct_topology *t, struct ct_findings *f)
{
	struct ct_kernel_release rel;
	int64_t qos;

	if (ct_kernel_release(ctx, &rel) == 0 && rel.major) {
		if (!ct_kernel_has_cxl_perf(&rel))
			ct_finding_add(f, "kernel", rel.text, CT_FINDING_PROBLEM,
				       "use a 6.9 or later kernel (Debian: bookworm-backports)",
				       "kernel %s: CXL regions, CDAT-derived performance (6.9) or memory tiers (6.1) are missing or partial",
				       rel.text);
		else
			ct_finding_add(f, "kernel", rel.text, CT_FINDING_OK, "",
				       "kernel %s has CXL regions, CDAT and memory tiers", rel.text);
	}
	ct_error_clear(&ctx->err);
	if (!t->have_cxl_bus) {
		ct_finding_add(f, "cxl bus", "/sys/bus/cxl", CT_FINDING_PROBLEM, "modprobe cxl_acpi",
			       "no CXL bus: cxl_acpi is not loaded, or the platform has no CXL host bridge (ACPI CEDT)");
		return;
	}
	if (!ct_kernel_has_cxl_tracepoints(ctx))
		ct_finding_add(f, "tracepoints", "cxl", CT_FINDING_INFO, "mount -t tracefs tracefs /sys/kernel/tracing",
			       "CXL event tracepoints not visible (tracefs not mounted, or a kernel before 6.3)");
	for (size_t i = 0; i < t->nmemdevs; i++) {
		const struct ct_memdev *m = &t->memdevs[i];
		if (m->endpoint[0] && !ct_cdat_port_has_table(ctx, m->endpoint))
			ct_finding_add(f, "cdat", m->name, CT_FINDING_INFO, "",
				       "%s has no CDAT in sysfs: the kernel cannot derive its performance", m->endpoint);
		if (m->ram_size && ct_memdev_qos_class(&ctx->sys, m->name, "ram", &qos) == -ENOENT)
			ct_finding_add(f, "qos_class", m->name, CT_FINDING_INFO, "",
				       "no ram/qos_class: a kernel before 6.8, or no QTG from the platform");
		ct_error_clear(&ctx->err);
	}
}

void ct_doctor_modules(struct ct_context *ctx, struct ct_findings *f)
{
	static const char *const mods[] = { "cxl_acpi", "cxl_pci", "cxl_mem", "cxl_port", "dax_cxl", "device_dax", "kmem" };
	char fix[64];

	if (!ctx->live) {
		ct_finding_add(f, "modules", "", CT_FINDING_INFO, "",
			       "not checked with --sysroot (libkmod reads the running kernel)");
		return;
	}
	for (size_t i = 0; i < sizeof(mods) / sizeof(mods[0]); i++) {
		enum ct_module_state st = ct_module_state(mods[i]);
		snprintf(fix, sizeof(fix), "modprobe %s", mods[i]);
		if (st == CT_MOD_LIVE || st == CT_MOD_BUILTIN)
			ct_finding_add(f, "module", mods[i], CT_FINDING_OK, "", "%s", ct_module_state_name(st));
		else if (st == CT_MOD_AVAILABLE)
			ct_finding_add(f, "module", mods[i], CT_FINDING_PROBLEM, fix, "installed but not loaded");
		else
			ct_finding_add(f, "module", mods[i], CT_FINDING_PROBLEM, "install the kernel's modules package",
				       "%s for this kernel", ct_module_state_name(st));
	}
}

/* the kernel's CXL latency against the devices' CDAT (6.12's link latency
 * counted in ps as ns) */
void ct_doctor_figures(struct ct_context *ctx, const struct ct_topology *t, struct ct_findings *f)
{
	struct ct_kernel_release rel;

	if (ct_kernel_release(ctx, &rel))
		memset(&rel, 0, sizeof(rel));
	for (size_t i = 0; i < t->nregions; i++) {
		const struct ct_region *r = &t->regions[i];
		struct ct_access acc, perf;
		struct ct_latency_check c;
		uint64_t cdat = 0;

		if (ct_region_access(&ctx->sys, r->name, 0, &acc) || !acc.present || !acc.read_latency)
			continue;
		for (unsigned k = 0; k < r->ntargets; k++) {
			const struct ct_memdev *m = ct_topology_memdev(t, r->memdevs[k]);
			if (m && ct_cdat_endpoint_perf(ctx, m->endpoint, &perf) && perf.read_latency > cdat)
				cdat = perf.read_latency;	/* as slow as its slowest member */
		}
		ct_kernel_check_latency(acc.read_latency, cdat, 0, &c);
		if (c.verdict == CT_LATENCY_LINK_PS_AS_NS && c.by == CT_EVIDENCE_FIGURES)
			ct_finding_add(f, "latency", r->name, CT_FINDING_INFO,
				       "trust the CDAT latency (cxltier cdat; cxltier tiers ranks by it), or use Linux 7.x, which reports these figures right",
				       "access0 read latency %llu ns where CDAT says %llu ns: kernel %s adds the PCIe link latency in picoseconds "
				       "to nanoseconds (about 17000 too many per link), so its CXL latencies and the memory tier derived from them "
				       "overstate the distance",
				       (unsigned long long)acc.read_latency, (unsigned long long)cdat, rel.text);
		else if (c.verdict == CT_LATENCY_LINK_PS_AS_NS)
			ct_finding_add(f, "latency", r->name, CT_FINDING_INFO,
				       "run as root so that CDAT can be read and the figures checked; Linux 7.x reports them right",
				       "access0 read latency %llu ns: kernel %s adds the PCIe link latency in picoseconds to nanoseconds "
				       "(judged by its excess over any CXL path: CDAT not readable)",
				       (unsigned long long)acc.read_latency, rel.text);
		else if (c.verdict == CT_LATENCY_PLAUSIBLE)
			ct_finding_add(f, "latency", r->name, CT_FINDING_OK, "",
				       "access0 read latency %llu ns, plausible against %llu ns from CDAT",
				       (unsigned long long)acc.read_latency, (unsigned long long)cdat);
		ct_error_clear(&ctx->err);
	}
}

void ct_doctor_policy(struct ct_context *ctx, struct ct_findings *f)
{
	struct ct_auto_online a;
	char origin[128] = "";

	ct_kernel_auto_online(ctx, &a);
	if (a.build_option[0])
		snprintf(origin, sizeof(origin), " (this kernel's build default: %s)", a.build_option);
	if (a.known) {
		if (!a.onlines || a.movable)
			ct_finding_add(f, "auto-online", "auto_online_blocks", CT_FINDING_OK, "", "%s%s", a.blocks, origin);
		else
			ct_finding_add(f, "auto-online", "auto_online_blocks", CT_FINDING_PROBLEM,
				       "echo offline > /sys/devices/system/memory/auto_online_blocks; add memhp_default_state=offline to the kernel command line",
				       "'%s'%s: the kernel onlines hot-added CXL memory itself, into ZONE_NORMAL%s, before cxltier can choose movable",
				       a.blocks, origin, !strcmp(a.online_policy, "auto-movable") ?
				       " beyond what online_policy auto-movable's ratio allows as movable" : "");
	}
	if (a.memhp_default_state[0])
		ct_finding_add(f, "cmdline", "memhp_default_state", CT_FINDING_INFO, "", "memhp_default_state=%s",
			       a.memhp_default_state);
	if (a.movable_node)
		ct_finding_add(f, "cmdline", "movable_node", CT_FINDING_INFO, "",
			       "movable_node is set: hot-plugged memory goes to ZONE_MOVABLE");
}

/* DAMON contexts the kernel runs by itself (7.x's DAMON_STAT) */
void ct_doctor_damon(struct ct_context *ctx, struct ct_findings *f)
{
	struct ct_kernel_damon d;
	char pid[32] = "";
	unsigned others;

	ct_kernel_damon_state(ctx, &d);
	if (d.stat_enabled) {
		if (d.stat_pid > 0)
			snprintf(pid, sizeof(pid), "kdamond pid %d; ", d.stat_pid);
		ct_finding_add(f, "damon", "damon_stat", CT_FINDING_INFO,
			       "echo N > /sys/module/damon_stat/parameters/enabled (or damon_stat.enabled=N on the kernel command line)",
			       "DAMON_STAT runs (%son at boot where CONFIG_DAMON_STAT_ENABLED_DEFAULT=y, as in Debian's 7.x): "
			       "the kernel samples the access of all "
			       "physical memory on its own, at some CPU cost; cxltier migrate --hot/--cold runs its own "
			       "context beside it", pid);
	}
	others = d.kdamonds - (d.stat_enabled && d.kdamonds ? 1u : 0u);
	if (others)
		ct_finding_add(f, "damon", "kdamond", CT_FINDING_INFO, "",
			       "%u kdamond thread%s for another DAMON user (a DAMON sysfs context or damo): "
			       "cxltier migrate --hot/--cold will not touch %s", others, others == 1 ? " runs" : "s run",
			       others == 1 ? "it" : "them");
}

int ct_doctor_run(struct ct_context *ctx, const struct ct_topology *t, struct ct_findings *f)
{
	ct_doctor_kernel(ctx, t, f);
	if (t->have_cxl_bus) {
		ct_doctor_modules(ctx, f);
		ct_doctor_chain(t, f);
		ct_doctor_capacity(ctx, f);
		ct_doctor_figures(ctx, t, f);
	}
	ct_doctor_policy(ctx, f);
	ct_doctor_damon(ctx, f);
	ct_doctor_tiering(ctx, f);
	return f->oom ? ct_fail(&ctx->err, ENOMEM, "out of memory") : 0;
}
