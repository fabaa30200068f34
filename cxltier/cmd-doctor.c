// SPDX-License-Identifier: GPL-2.0-only
/* cmd-doctor.c - `cxltier doctor`: why CXL memory is missing, offline, in
 * the wrong zone or in the wrong tier, each finding with the command that
 * fixes it */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "json-build.h"
#include "../lib/context.h"
#include "../lib/modules.h"
#include "../lib/tiers.h"
#include "../lib/topology.h"

static const char *const levels[] = { "findings", NULL };
static const struct out_column columns[] = {
	{ "CHECK", "check", OUT_STR, 0.1, 0, "what was checked", NULL },
	{ "OBJECT", "object", OUT_STR, 0.1, 0, "on which object", NULL },
	{ "STATUS", "status", OUT_STR, 0.1, 0, "ok, problem or info", NULL },
	{ "FINDING", "finding", OUT_STR, 0.1, 0, "what is the case", NULL },
	{ "FIX", "fix", OUT_STR, 0.1, 0, "the command that fixes it", NULL },
};
static const struct out_table table = { levels, NULL, columns, 5, "CHECK,OBJECT,STATUS,FINDING,FIX" };

static void usage(void)
{
	printf("usage: cxltier doctor [-j] [--all] [-o COLS] [--sysroot DIR]\n\n"
	       "Explain why CXL memory is missing, offline, in the wrong zone or in the\n"
	       "wrong tier: kernel features, modules, memdevs without regions, regions\n"
	       "without dax devices, dax devices in devdax mode, offline or ZONE_NORMAL\n"
	       "blocks, the kernel's auto-online policy, nodes without a tier. Each\n"
	       "problem comes with the command that fixes it.\n\n"
	       "      --all         also list the checks that passed\n"
	       "  -j, --json        {\"findings\":[{\"check\",\"object\",\"status\",\"finding\",\"fix\"}]}\n"
	       "Exit: 0 healthy, 1 problems found.\n");
}

struct doctor {
	json_object *arr;
	bool all;
	int problems;
};

static void finding(struct doctor *d, const char *check, const char *object, const char *status,
		    const char *fix, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void finding(struct doctor *d, const char *check, const char *object, const char *status,
		    const char *fix, const char *fmt, ...)
{
	char text[512];
	va_list ap;
	json_object *o;

	if (!strcmp(status, "problem"))
		d->problems++;
	else if (!strcmp(status, "ok") && !d->all)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	o = json_object_new_object();
	jb_str(o, "check", check);
	jb_str(o, "object", object);
	jb_str(o, "status", status);
	jb_str(o, "finding", text);
	jb_str(o, "fix", fix);
	json_object_array_add(d->arr, o);
}

static void check_kernel(struct cmd_env *env, struct doctor *d, const struct ct_topology *t)
{
	struct ct_sysfs *s = &env->ctx->sys;
	char rel[128] = "", path[256];
	int major = 0, minor = 0;

	if (ct_sysfs_read_str(s, "/proc/sys/kernel/osrelease", rel, sizeof(rel)) == 0)
		sscanf(rel, "%d.%d", &major, &minor);
	ct_error_clear(&env->ctx->err);
	if (major && (major < 6 || (major == 6 && minor < 9)))
		finding(d, "kernel", rel, "problem", "use a 6.9 or later kernel (Debian: bookworm-backports)",
			"kernel %s: CXL regions, CDAT-derived performance (6.9) or memory tiers (6.1) are missing or partial", rel);
	else if (major)
		finding(d, "kernel", rel, "ok", "", "kernel %s has CXL regions, CDAT and memory tiers", rel);
	if (!t->have_cxl_bus) {
		finding(d, "cxl bus", "/sys/bus/cxl", "problem", "modprobe cxl_acpi",
			"no CXL bus: cxl_acpi is not loaded, or the platform has no CXL host bridge (ACPI CEDT)");
		return;
	}
	if (!ct_sysfs_exists(s, "/sys/kernel/tracing/events/cxl") && !ct_sysfs_exists(s, "/sys/kernel/debug/tracing/events/cxl"))
		finding(d, "tracepoints", "cxl", "info", "mount -t tracefs tracefs /sys/kernel/tracing",
			"CXL event tracepoints not visible (tracefs not mounted, or a kernel before 6.3)");
	for (size_t i = 0; i < t->nmemdevs; i++) {
		const struct ct_memdev *m = &t->memdevs[i];
		if (m->endpoint[0] &&
		    !ct_sysfs_exists(s, ct_path(path, sizeof(path), "/sys/bus/cxl/devices/%s/CDAT", m->endpoint)))
			finding(d, "cdat", m->name, "info", "", "%s has no CDAT in sysfs: the kernel cannot derive its performance",
				m->endpoint);
		if (m->ram_size && !ct_sysfs_exists(s, ct_path(path, sizeof(path), "/sys/bus/cxl/devices/%s/ram/qos_class", m->name)))
			finding(d, "qos_class", m->name, "info", "", "no ram/qos_class: a kernel before 6.8, or no QTG from the platform");
	}
}

static void check_modules(struct cmd_env *env, struct doctor *d)
{
	static const char *const mods[] = { "cxl_acpi", "cxl_pci", "cxl_mem", "cxl_port", "dax_cxl", "device_dax", "kmem" };
	char fix[64];

	if (!env->ctx->live) {
		finding(d, "modules", "", "info", "", "not checked with --sysroot (libkmod reads the running kernel)");
		return;
	}
	for (size_t i = 0; i < sizeof(mods) / sizeof(mods[0]); i++) {
		enum ct_module_state st = ct_module_state(mods[i]);
		snprintf(fix, sizeof(fix), "modprobe %s", mods[i]);
		if (st == CT_MOD_LIVE || st == CT_MOD_BUILTIN)
			finding(d, "module", mods[i], "ok", "", "%s", ct_module_state_name(st));
		else if (st == CT_MOD_AVAILABLE)
			finding(d, "module", mods[i], "problem", fix, "installed but not loaded");
		else
			finding(d, "module", mods[i], "problem", "install the kernel's modules package",
				"%s for this kernel", ct_module_state_name(st));
	}
}

static void check_chain(struct doctor *d, const struct ct_topology *t)
{
	char fix[256];

	for (size_t i = 0; i < t->nmemdevs; i++) {
		const struct ct_memdev *m = &t->memdevs[i];
		bool in_region = false;
		for (size_t j = 0; j < t->nregions; j++)
			in_region |= ct_region_has_memdev(&t->regions[j], m->name);
		if (!m->enabled)
			finding(d, "memdev", m->name, "problem", "modprobe cxl_mem; cxl enable-memdev", "not bound to cxl_mem");
		else if (!m->endpoint[0])
			finding(d, "memdev", m->name, "problem", "check dmesg for cxl_port probe errors",
				"has no endpoint port: the CXL path to the host bridge is not enumerated");
		else if (!in_region && m->ram_size) {
			snprintf(fix, sizeof(fix), "cxl create-region -m -t ram -d decoder0.0 -w 1 %s (ndctl 77+)", m->name);
			finding(d, "memdev", m->name, "problem", fix, "%llu MiB of volatile capacity in no region: the memory is not mapped",
				(unsigned long long)(m->ram_size >> 20));
		} else
			finding(d, "memdev", m->name, "ok", "", "in a region");
	}
	for (size_t i = 0; i < t->nregions; i++) {
		const struct ct_region *r = &t->regions[i];
		if (!r->committed) {
			snprintf(fix, sizeof(fix), "cxl enable-region %s (or set its targets, then commit)", r->name);
			finding(d, "region", r->name, "problem", fix, "not committed: the decoders are not programmed");
			continue;
		}
		if (!r->enabled) {
			snprintf(fix, sizeof(fix), "cxl enable-region %s", r->name);
			finding(d, "region", r->name, "problem", fix, "committed but not bound to cxl_region");
			continue;
		}
		if (!r->ndax && !strcmp(r->mode, "ram")) {
			finding(d, "region", r->name, "problem", "modprobe dax_cxl",
				"a RAM region without a dax device: dax_cxl is not loaded");
			continue;
		}
		for (size_t j = 0; j < r->ndax; j++) {
			const struct ct_dax *x = &r->dax[j];
			if (strcmp(x->mode, "system-ram")) {
				snprintf(fix, sizeof(fix), "cxltier online %s --convert", x->name);
				finding(d, "dax", x->name, "problem", fix, "in %s mode: its memory is not hot-plugged as system RAM", x->mode);
				continue;
			}
			if (x->blocks.offline) {
				snprintf(fix, sizeof(fix), "cxltier online %s", x->name);
				finding(d, "blocks", x->name, "problem", fix, "%u of %u memory blocks offline", x->blocks.offline, x->blocks.total);
			}
			if (x->blocks.normal || x->blocks.other_zone) {
				snprintf(fix, sizeof(fix), "cxltier online %s --reonline", x->name);
				finding(d, "zone", x->name, "problem", fix,
					"%u blocks online outside ZONE_MOVABLE: they may never be offlined or removed",
					x->blocks.normal + x->blocks.other_zone);
			}
			if (x->blocks.online && x->memory_tier < 0) {
				char node[32];
				snprintf(node, sizeof(node), "node%d", x->target_node);
				finding(d, "tier", node, "problem", "use a kernel with memory tiering (6.1+)",
					"node %d holds online CXL memory but is in no memory tier", x->target_node);
			}
			if (!x->blocks.offline && !x->blocks.normal && !x->blocks.other_zone && x->blocks.total)
				finding(d, "dax", x->name, "ok", "", "%u blocks online movable on node %d", x->blocks.movable, x->target_node);
		}
	}
}

static void check_policy(struct cmd_env *env, struct doctor *d)
{
	struct ct_sysfs *s = &env->ctx->sys;
	char v[64], cmdline[4096];

	if (ct_sysfs_read_str(s, "/sys/devices/system/memory/auto_online_blocks", v, sizeof(v)) == 0) {
		if (!strcmp(v, "offline") || !strcmp(v, "online_movable"))
			finding(d, "auto-online", "auto_online_blocks", "ok", "", "%s", v);
		else
			finding(d, "auto-online", "auto_online_blocks", "problem",
				"echo offline > /sys/devices/system/memory/auto_online_blocks; add memhp_default_state=offline to the kernel command line",
				"'%s': the kernel onlines hot-added CXL memory itself, into ZONE_NORMAL, before cxltier can choose movable", v);
	}
	if (ct_sysfs_read_str(s, "/proc/cmdline", cmdline, sizeof(cmdline)) == 0) {
		const char *m = strstr(cmdline, "memhp_default_state=");
		if (m)
			finding(d, "cmdline", "memhp_default_state", "info", "", "%.*s", (int)strcspn(m, " "), m);
		if (strstr(cmdline, "movable_node"))
			finding(d, "cmdline", "movable_node", "info", "", "movable_node is set: hot-plugged memory goes to ZONE_MOVABLE");
	}
	ct_error_clear(&env->ctx->err);
}

int cmd_doctor(int argc, char **argv, struct cmd_env *env)
{
	enum { OPT_ALL = 0x5001 };
	static const struct option opts[] = {
		{ "all", no_argument, NULL, OPT_ALL },
		COMMON_LONG_OPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct doctor d = { 0 };
	struct ct_topology t;
	json_object *root;
	char err[256];
	int c, rc;

	env->opts = opts;
	opterr = 0;
	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTS, opts, NULL)) != -1) {
		if (c == OPT_ALL)
			d.all = true;
		else if ((rc = cmd_common_opt(env, c, optarg, argc, argv, usage)))
			return cmd_exit_code(rc);
	}
	if (optind < argc) {
		cmd_err(env, "unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	if ((rc = cmd_context(env)))
		return rc;
	if (ct_topology_load(env->ctx, &t)) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		return EXIT_FAIL;
	}
	root = json_object_new_object();
	d.arr = jb_arr(root, "findings");
	check_kernel(env, &d, &t);
	if (t.have_cxl_bus) {
		check_modules(env, &d);
		check_chain(&d, &t);
	}
	check_policy(env, &d);
	if (out_print(&env->out, &table, root, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		rc = EXIT_USAGE;
	} else {
		if (!env->out.json)
			fprintf(stderr, "cxltier doctor: %d problem%s found\n", d.problems, d.problems == 1 ? "" : "s");
		rc = d.problems ? EXIT_FAIL : EXIT_OK;
	}
	json_object_put(root);
	ct_topology_free(&t);
	return rc;
}
