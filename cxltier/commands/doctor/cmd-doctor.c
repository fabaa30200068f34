// SPDX-License-Identifier: GPL-2.0-only
/* cmd-doctor.c - `cxltier doctor`: why CXL memory is missing, offline, in
 * the wrong zone or in the wrong tier, each finding with the command that
 * fixes it (the checks: lib/jobs/doctor-checkup.h) */
#include <stdio.h>
#include "cli/cli.h"
#include "cli/json-build.h"
#include "events/event-store.h"
#include "jobs/doctor-checkup.h"

struct doctor_args {
	bool all;
	const char *store_path;
};

static const char *const levels[] = { "findings", NULL };
static const struct out_column columns[] = {
	{ "CHECK", "check", OUT_STR, 0.1, 0, "what was checked", NULL },
	{ "OBJECT", "object", OUT_STR, 0.1, 0, "on which object", NULL },
	{ "STATUS", "status", OUT_STR, 0.1, 0, "ok, problem or info", NULL },
	{ "FINDING", "finding", OUT_STR, 0.3, OUT_TRUNC, "what is the case", NULL },
	{ "FIX", "fix", OUT_STR, 0.25, OUT_TRUNC, "the command that fixes it", NULL },
};
static const struct out_table table = { levels, NULL, columns, 5, "CHECK,OBJECT,STATUS,FINDING,FIX" };

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

static int run(struct cmd_env *env, void *args, int argc, char **argv)
{
	const struct doctor_args *a = args;
	struct ct_doctor_checkup_opts o = { .store_path = a->store_path };
	struct ct_findings f = { 0 };
	json_object *root;
	char err[256];
	int rc;

	(void)argc, (void)argv;
	if (ct_doctor_checkup(env->ctx, &o, &f)) {
		ct_findings_free(&f);
		return EXIT_FAIL;	/* said */
	}
	root = findings_json(&f, a->all);
	if (out_print(&env->out, &table, root, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		rc = EXIT_USAGE;
	} else {
		if (!env->out.json)
			cmd_info(env, 0, "%u problem%s found", f.problems, f.problems == 1 ? "" : "s");
		rc = f.problems ? EXIT_FAIL : EXIT_OK;
	}
	json_object_put(root);
	ct_findings_free(&f);
	return rc;
}

#define ARG(field) offsetof(struct doctor_args, field)
static const struct cli_opt opts[] = {
	{ .name = "all", .store = CLI_FLAG, .offset = ARG(all), .help = "also list the checks that passed" },
	{ .name = "store-path", .arg = "PATH", .store = CLI_STRING, .offset = ARG(store_path), .complete = CLI_C_FILE,
	  .help = "the event store (default: [events] store = of\n/etc/cxltier.conf, else " CT_EVENT_STORE_PATH ";\n"
		  "with --sysroot, read only when named)" },
	{ NULL },
};
static const struct out_table *const tables[] = { &table, NULL };

const struct cli_command command_doctor = {
	.name = "doctor",
	.summary = "explain why CXL memory is missing, offline, in the wrong zone or tier",
	.synopsis = "[--all] [--store-path PATH] [-j] [-o COLS] [--sysroot DIR]",
	.about = "Explain why CXL memory is missing, offline, in the wrong zone or in the\n"
		 "wrong tier: kernel features, modules, memdevs without regions, regions\n"
		 "without dax devices, dax devices in devdax mode, offline or ZONE_NORMAL\n"
		 "blocks, the kernel's auto-online policy, nodes without a tier; in the event\n"
		 "history, a device whose corrected errors are rising or that reported a\n"
		 "failure. Each problem comes with the command that fixes it.",
	.notes = "JSON: {\"findings\":[{\"check\",\"object\",\"status\",\"finding\",\"fix\"}]}",
	.exit_help = "Exit: 0 healthy, 1 problems found.",
	.opts = opts,
	.tables = tables,
	.args_size = sizeof(struct doctor_args),
	.max_operands = 0,
	.run = run,
};
