// SPDX-License-Identifier: GPL-2.0-only
/* lib/core/kernel.c's decisions: which figures speak for a CXL node, whether the
 * kernel's latency can be believed, the auto-online build default, DAMON
 * contexts the kernel runs itself, libcxl capabilities */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tap.h"
#include "tree.h"
#include "mm/access.h"
#include "core/context.h"
#include "core/kernel.h"

static char root[256];

static void put(const char *path, const char *text)
{
	tree_put(root, path, text);
}

/* kernel, CDAT and local read latency (ns, 0 unknown) -> the verdict */
static const struct latency_case {
	uint64_t kernel, cdat, local;
	enum ct_latency_verdict verdict;
	enum ct_latency_evidence by;
	uint64_t expected;
	const char *what;
} latency_cases[] = {
	{ 17300, 150, 100, CT_LATENCY_LINK_PS_AS_NS, CT_EVIDENCE_FIGURES, 250,
	  "17300 ns against CDAT 150 + local 100: the link latency in ps" },
	{ 302, 150, 100, CT_LATENCY_PLAUSIBLE, CT_EVIDENCE_FIGURES, 250, "302 ns is plausible" },
	{ 17300, 150, 0, CT_LATENCY_LINK_PS_AS_NS, CT_EVIDENCE_FIGURES, 150, "local latency unknown: CDAT alone is the floor" },
	{ 400, 150, 100, CT_LATENCY_PLAUSIBLE, CT_EVIDENCE_FIGURES, 250, "a slow but possible path is not the bug" },
	{ 3000, 150, 100, CT_LATENCY_PLAUSIBLE, CT_EVIDENCE_FIGURES, 250, "ten times but under 5 us above: not the bug" },
	/* without CDAT (not root): the excess alone, whatever the release */
	{ 17300, 0, 100, CT_LATENCY_LINK_PS_AS_NS, CT_EVIDENCE_EXCESS, 0, "no CDAT: 17300 ns is over 5 us above local: the bug" },
	{ 17300, 0, 0, CT_LATENCY_LINK_PS_AS_NS, CT_EVIDENCE_EXCESS, 0, "no CDAT, no local latency: still the bug" },
	{ 350, 0, 100, CT_LATENCY_UNCHECKED, CT_EVIDENCE_NONE, 0,
	  "no CDAT, a figure a CXL path can have (a fixed 6.12.y, firmware HMAT): unchecked, not the bug" },
	{ 5090, 0, 100, CT_LATENCY_UNCHECKED, CT_EVIDENCE_NONE, 0, "no CDAT, under 5 us above local: unchecked" },
	{ 0, 150, 100, CT_LATENCY_UNCHECKED, CT_EVIDENCE_NONE, 0, "no kernel figure: nothing to judge" },
};

int main(void)
{
	struct ct_access none = { 0 }, node = { .present = true, .read_latency = 17300 },
			 region = { .present = true, .read_latency = 302 };
	struct ct_latency_check c;
	struct ct_auto_online a;
	struct ct_kernel_damon d;
	struct ct_context *ctx;

	/* which figures speak for a CXL node */
	is_int(ct_access_figure_source(&node, &region), CT_FIGURES_NODE, "the node's own figures first");
	is_int(ct_access_figure_source(&none, &region), CT_FIGURES_REGION, "7.x: the region's when the node has none");
	is_int(ct_access_figure_source(&none, NULL), CT_FIGURES_NONE, "none without a region");
	is_str(ct_access_figure_source_name(CT_FIGURES_REGION), "region", "named");
	ok(ct_access_figure_source_name(CT_FIGURES_NONE) == NULL, "none: no name (key absent)");

	/* the 6.12 link latency in ps counted as ns */
	for (size_t i = 0; i < sizeof(latency_cases) / sizeof(latency_cases[0]); i++) {
		const struct latency_case *k = &latency_cases[i];
		ct_kernel_check_latency(k->kernel, k->cdat, k->local, &c);
		ok(c.verdict == k->verdict && c.by == k->by && c.expected_ns == k->expected, "%s", k->what);
	}
	is_str(ct_latency_verdict_name(CT_LATENCY_LINK_PS_AS_NS), "link_latency_ps_as_ns", "verdict named");
	is_str(ct_latency_evidence_name(CT_EVIDENCE_EXCESS), "excess", "evidence named");

	/* releases, at their boundaries: 6.8 is 6.8 or later, 6.7 is not */
	{
		struct ct_kernel_release r68 = { .major = 6, .minor = 8 }, r67 = { .major = 6, .minor = 7 },
					 r70 = { .major = 7, .minor = 0 }, unknown = { 0 };
		ok(ct_kernel_at_least(&r68, 6, 8) && !ct_kernel_at_least(&r67, 6, 8) && ct_kernel_at_least(&r70, 6, 8),
		   "6.8 and 7.0 are at least 6.8, 6.7 is not");
		ok(!ct_kernel_at_least(&unknown, 0, 0), "an unknown release is at least nothing");
		ok(ct_kernel_has_cdat_attr(&r68, true) && !ct_kernel_has_cdat_attr(&r67, true) &&
		   ct_kernel_has_cdat_attr(&r67, false), "a switch port's CDAT attribute from 6.8, an endpoint's before");
		ok(!ct_kernel_has_cxl_perf(&r68) && ct_kernel_has_cxl_perf(&(struct ct_kernel_release){ .major = 6, .minor = 9 }),
		   "CXL access figures from 6.9");
	}

	/* libcxl */
	ok(ct_libcxl_version() > 0, "libcxl version known (%d)", ct_libcxl_version());
	ok(ct_libcxl_can_create_ram_region() == (ct_libcxl_version() >= 77), "RAM regions from libcxl 77");

	/* a 7.3 tree: the build default onlines, DAMON_STAT runs */
	if (!mkdtemp(tap_tmp_template(root, sizeof(root), "cxltier-test-kernel")))
		return 1;
	put("/proc/sys/kernel/osrelease", "7.3.4+deb13-amd64\n");
	put("/proc/cmdline", "console=ttyS0 quiet\n");
	put("/sys/devices/system/memory/auto_online_blocks", "online\n");
	put("/sys/module/memory_hotplug/parameters/online_policy", "contig-zones\n");
	put("/sys/module/damon_stat/parameters/enabled", "Y\n");
	put("/sys/module/damon_stat/parameters/kdamond_pid", "56\n");
	put("/proc/56/comm", "kdamond.0\n");
	put("/proc/57/comm", "kworker/0:1\n");
	ok(ct_context_new(&ctx, root) == 0, "context on the tree");
	ct_kernel_auto_online(ctx, &a);
	ok(a.known && a.onlines && !a.movable, "auto_online_blocks online: the kernel onlines");
	is_str(a.build_option, "CONFIG_MHP_DEFAULT_ONLINE_TYPE_ONLINE_AUTO", "7.3: the online type choice");
	is_str(a.online_policy, "contig-zones", "online_policy read");
	ct_kernel_damon_state(ctx, &d);
	ok(d.stat_known && d.stat_enabled && d.stat_pid == 56 && d.kdamonds == 1, "DAMON_STAT's kdamond found");
	put("/proc/cmdline", "memhp_default_state=online\n");
	ct_kernel_auto_online(ctx, &a);
	ok(!a.build_option[0], "set on the command line: no build default named");
	put("/proc/sys/kernel/osrelease", "6.12.95+deb12-amd64\n");
	put("/proc/cmdline", "quiet\n");
	ct_kernel_auto_online(ctx, &a);
	is_str(a.build_option, "CONFIG_MEMORY_HOTPLUG_DEFAULT_ONLINE=y", "6.12: the older boolean");
	put("/sys/module/damon_stat/parameters/enabled", "N\n");
	ct_kernel_damon_state(ctx, &d);
	ok(d.stat_known && !d.stat_enabled && d.stat_pid == -1, "DAMON_STAT off");
	ct_context_free(ctx);
	tap_rm_tree(root);
	return tap_done();
}
