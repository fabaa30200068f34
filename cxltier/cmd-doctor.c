// SPDX-License-Identifier: GPL-2.0-only
/* cmd-doctor.c - `cxltier doctor`: why CXL memory is missing, offline, in
 * the wrong zone or in the wrong tier, each finding with the command that
 * fixes it (the checks are lib/views/doctor.c's) */
#include <stdio.h>
#include "cli/cli.h"
#include "cli/json-build.h"
#include "core/context.h"
#include "views/doctor.h"
#include "core/conf.h"
#include "config/events-conf.h"
#include "cxl/topology.h"

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
	printf("usage: cxltier doctor [-j] [--all] [-o COLS] [--sysroot DIR] [--store-path P]\n\n"
	       "Explain why CXL memory is missing, offline, in the wrong zone or in the\n"
	       "wrong tier: kernel features, modules, memdevs without regions, regions\n"
	       "without dax devices, dax devices in devdax mode, offline or ZONE_NORMAL\n"
	       "blocks, the kernel's auto-online policy, nodes without a tier; in the event\n"
	       "history, a device whose corrected errors are rising or that reported a\n"
	       "failure. Each problem comes with the command that fixes it.\n\n"
	       "      --all         also list the checks that passed\n"
	       "      --store-path P  the event store (default: [events] store = of\n"
	       "                    /etc/cxltier.conf, else /var/lib/cxltier/events.db; with\n"
	       "                    --sysroot, read only when named)\n"
	       "  -j, --json        {\"findings\":[{\"check\",\"object\",\"status\",\"finding\",\"fix\"}]}\n"
	       "Exit: 0 healthy, 1 problems found.\n");
}

/* the findings as JSON; those that passed only with --all */
static json_object *findings_json(const struct ct_findings *f, bool all)
{
	json_object *root = json_object_new_object(), *arr = jb_arr(root, "findings");

	for (size_t i = 0; i < f->n; i++) {
		const struct ct_finding *x = &f->v[i];
		json_object *o;
		if (x->status == CT_FINDING_OK && !all)
			continue;
		o = json_object_new_object();
		jb_str(o, "check", x->check);
		jb_str(o, "object", x->object);
		jb_str(o, "status", ct_finding_status_name(x->status));
		jb_str(o, "finding", x->finding);
		jb_str(o, "fix", x->fix);
		json_object_array_add(arr, o);
	}
	return root;
}

int cmd_doctor(int argc, char **argv, struct cmd_env *env)
{
	enum { OPT_ALL = 0x5001, OPT_STORE_PATH };
	static const struct option opts[] = {
		{ "all", no_argument, NULL, OPT_ALL },
		{ "store-path", required_argument, NULL, OPT_STORE_PATH },
		COMMON_LONG_OPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct ct_findings f = { 0 };
	struct ct_topology t;
	json_object *root;
	bool all = false;
	const char *store_path = NULL;
	struct ct_events_conf conf;
	char err[256];
	int c, rc;

	env->opts = opts;
	opterr = 0;
	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTS, opts, NULL)) != -1) {
		if (c == OPT_ALL)
			all = true;
		else if (c == OPT_STORE_PATH)
			store_path = optarg;
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
	if (ct_doctor_run(env->ctx, &t, &f)) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		ct_findings_free(&f);
		ct_topology_free(&t);
		return EXIT_FAIL;
	}
	/* the event history of this machine (a captured tree has none unless named) */
	if (store_path || env->ctx->live) {
		if (!store_path && ct_events_conf_load(CT_CONF_PATH, false, &conf, &env->ctx->err) == 0 && conf.store[0])
			store_path = conf.store;
		ct_doctor_events(store_path, &f);
	}
	root = findings_json(&f, all);
	if (out_print(&env->out, &table, root, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		rc = EXIT_USAGE;
	} else {
		if (!env->out.json)
			fprintf(stderr, "cxltier doctor: %u problem%s found\n", f.problems, f.problems == 1 ? "" : "s");
		rc = f.problems ? EXIT_FAIL : EXIT_OK;
	}
	json_object_put(root);
	ct_findings_free(&f);
	ct_topology_free(&t);
	return rc;
}
