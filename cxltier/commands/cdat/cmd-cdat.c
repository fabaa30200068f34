// SPDX-License-Identifier: GPL-2.0-only
/* cmd-cdat.c - `cxltier cdat`: decode CDAT tables from the kernel or a file,
 * beside what the kernel derived from them (as JSON: cdat-json.c; as
 * tables: cdat-table.c) */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include "cli/cli.h"
#include "cli/filter.h"
#include "cli/json-build.h"
#include "cdat-json.h"
#include "cdat-table.h"
#include "core/context.h"
#include "cxl/cdat.h"
#include "cxl/cdat-source.h"
#include "cxl/memdev-view.h"
#include "cxl/topology.h"
#include "mm/access.h"

struct cdat_args {
	struct name_filter files;	/* --file, each whole */
	bool raw, force;
};

/* how the tables went */
struct cdat_count {
	size_t ok, failed, unsupported;
};

/* the kernel's qos_class and figures beside a memdev's table */
static void add_kernel_view(struct cmd_env *env, json_object *tab, const struct ct_cdat_source *s,
			    const struct ct_topology *topo, const struct cdat_table *t)
{
	struct ct_memdev_view v;
	struct ct_access perf;

	if (!s->memdev[0])
		return;
	if (!cdat_volatile_perf(t, &perf))
		perf.read_latency = 0;
	if (ct_memdev_view_load(env->ctx, topo, s->memdev, perf.read_latency, &v))
		cmd_warn(env, "%s: %s", s->memdev, ct_context_message(env->ctx));
	cdat_kernel_json(tab, &v);
	ct_memdev_view_free(&v);
}

/* one table: 0 ok, or an exit code; *tab is set when something is shown */
static int decode_one(struct cmd_env *env, const struct ct_cdat_source *s, const struct cdat_args *a,
		      const struct ct_topology *topo, json_object **tab)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	struct cdat_table t;
	struct ct_error derr = { 0 };
	int rc, code = EXIT_OK;

	*tab = NULL;
	if ((rc = ct_cdat_source_read(env->ctx, s, &buf, &len)))
		return cmd_fail(env, rc == -EOPNOTSUPP ? EXIT_UNSUPPORTED : EXIT_FAIL);
	rc = cdat_decode(buf, len, &t, &derr);
	if (rc) {
		cmd_err(env, "%s: %s", s->device, derr.msg);
		if (a->force)
			cmd_warn(env, "%s: showing the %zu structures decoded before the fault (--force)", s->device, t.n);
		code = EXIT_FAIL;
	}
	if (!rc || a->force) {
		*tab = cdat_table_json(&t, buf, len, a->raw);
		json_object_object_add(*tab, "device", json_object_new_string(s->device));
		jb_str(*tab, "memdev", s->memdev);
		jb_str(*tab, "source", s->path);
		jb_bool(*tab, "valid", rc == 0);
		if (!s->is_file)
			add_kernel_view(env, *tab, s, topo, &t);
	}
	cdat_free(&t);
	free(buf);
	return code;
}

/* the sources: the files, the devices named, or every port with a CDAT;
 * an exit code */
static int sources(struct cmd_env *env, const struct name_filter *files, int argc, char **argv,
		   struct ct_cdat_source **src, size_t *nsrc, struct cdat_count *n)
{
	*src = NULL;
	*nsrc = 0;
	if (files->count) {
		*src = calloc(files->count, sizeof(**src));
		for (size_t i = 0; *src && i < files->count; i++)
			ct_cdat_source_file(files->names[i], &(*src)[(*nsrc)++]);
	} else if (argc) {
		*src = calloc(argc, sizeof(**src));
		for (int i = 0; *src && i < argc; i++) {
			int r = ct_cdat_source_resolve(env->ctx, argv[i], &(*src)[*nsrc]);
			if (r)
				cmd_err(env, "%s", ct_context_message(env->ctx));
			if (r == -EINVAL)
				return EXIT_USAGE;
			if (r)
				n->failed++;
			else
				(*nsrc)++;
		}
	} else if (ct_cdat_sources_all(env->ctx, src, nsrc)) {
		return cmd_fail(env, EXIT_FAIL);
	}
	return EXIT_OK;
}

/* {"tables":[...]}: every source decoded, counted in n */
static json_object *decode_all(struct cmd_env *env, const struct cdat_args *a, const struct ct_cdat_source *src,
			       size_t nsrc, const struct ct_topology *topo, struct cdat_count *n)
{
	json_object *root = json_object_new_object(), *tables = jb_arr(root, "tables");

	for (size_t i = 0; i < nsrc; i++) {
		json_object *tab;
		int r = decode_one(env, &src[i], a, topo, &tab);
		if (tab)
			json_object_array_add(tables, tab);
		if (r == EXIT_OK)
			n->ok++;
		else if (r == EXIT_UNSUPPORTED)
			n->unsupported++;
		else
			n->failed++;
	}
	return root;
}

static int outcome(const struct cdat_count *n)
{
	if (!n->failed && !n->unsupported)
		return EXIT_OK;
	if (n->ok)
		return EXIT_PARTIAL;
	return n->unsupported && !n->failed ? EXIT_UNSUPPORTED : EXIT_FAIL;
}

static int run(struct cmd_env *env, void *args, int argc, char **argv)
{
	const struct cdat_args *a = args;
	struct ct_cdat_source *src = NULL;
	struct cdat_count n = { 0 };
	struct ct_topology topo = { 0 };
	bool have_topo = false;
	json_object *root;
	size_t nsrc = 0;
	int rc;

	if (a->files.count && argc) {	/* (before the context: a usage error first) */
		cmd_err(env, "give either devices or --file, not both");
		return EXIT_USAGE;
	}
	if ((rc = cmd_context(env)) || (rc = sources(env, &a->files, argc, argv, &src, &nsrc, &n))) {
		free(src);
		return rc;
	}
	if (!a->files.count && !(have_topo = ct_topology_load(env->ctx, &topo) == 0))
		cmd_info(env, 1, "no kernel cross-check: %s", ct_context_message(env->ctx));
	root = decode_all(env, a, src, nsrc, have_topo ? &topo : NULL, &n);
	if (!nsrc && !n.failed && !env->out.json)
		fprintf(stderr, "cxltier cdat: no CXL port with a CDAT on this system\n");
	if (!(rc = cdat_print(env, root, a->raw)))
		rc = outcome(&n);
	if (have_topo)
		ct_topology_free(&topo);
	json_object_put(root);
	free(src);
	return rc;
}

#define ARG(field) offsetof(struct cdat_args, field)
static const struct cli_opt opts[] = {
	{ .name = "file", .arg = "BLOB", .store = CLI_APPEND, .offset = ARG(files), .complete = CLI_C_FILE,
	  .help = "decode a file instead (repeatable)" },
	{ .name = "hex", .store = CLI_FLAG, .offset = ARG(raw),
	  .help = "hex dump of the table beside the decode (JSON: \"raw\")" },
	{ .name = "force", .store = CLI_FLAG, .offset = ARG(force),
	  .help = "show the valid part of a malformed table (still exit 1)" },
	{ NULL },
};
static const struct out_table *const tables[] = { &cdat_out_table, NULL };

const struct cli_command command_cdat = {
	.name = "cdat",
	.summary = "decode the CDAT tables of CXL devices (or of a file)",
	.synopsis = "[MEMDEV|ENDPOINT|PORT...] [--file BLOB] [--raw] [--force] [-j]",
	.about = "Decode CDAT tables: DSMAS, DSLBIS, DSMSCIS, DSIS, DSEMTS and SSLBIS, with latency\n"
		 "and bandwidth in real units, beside what the kernel derived (qos_class, region\n"
		 "and node access0/access1 figures). Without arguments: every port with a CDAT.",
	.notes = "JSON: {\"tables\":[{\"device\",...,\"structures\":[...],\"kernel\":{...}}]}",
	.opts = opts,
	.tables = tables,
	.args_size = sizeof(struct cdat_args),
	.operands = "MEMDEV|ENDPOINT|PORT",
	.operand_kind = CLI_C_ENDPOINT,
	.max_operands = -1,
	.flags = CLI_NO_CONTEXT,
	.run = run,
};
