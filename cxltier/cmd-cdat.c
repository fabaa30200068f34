// SPDX-License-Identifier: GPL-2.0-only
/* cmd-cdat.c - `cxltier cdat`: decode CDAT tables from the kernel or a file,
 * beside what the kernel derived from them */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cdat-json.h"
#include "cli/json-build.h"
#include "mm/access.h"
#include "cxl/cdat.h"
#include "cxl/cdat-source.h"
#include "cxl/memdev-view.h"
#include "core/context.h"
#include "cxl/topology.h"

static void usage(void)
{
	printf("usage: cxltier cdat [MEMDEV|ENDPOINT|PORT...] [--file BLOB] [--raw] [--force] [-j]\n\n"
	       "Decode CDAT tables: DSMAS, DSLBIS, DSMSCIS, DSIS, DSEMTS and SSLBIS, with latency\n"
	       "and bandwidth in real units, beside what the kernel derived (qos_class, region\n"
	       "and node access0/access1 figures). Without arguments: every port with a CDAT.\n\n"
	       "  -f, --file BLOB   decode a file instead (repeatable)\n"
	       "      --raw         hex dump of the table beside the decode (JSON: \"raw\")\n"
	       "      --force       show the valid part of a malformed table (still exit 1)\n"
	       "  -j, --json        {\"tables\":[{\"device\",...,\"structures\":[...],\"kernel\":{...}}]}\n"
	       "  -o, -n, -b, -v, --sysroot DIR   as for every command\n");
	out_columns_help(&cdat_out_table);
}

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
static int decode_one(struct cmd_env *env, const struct ct_cdat_source *s, bool raw, bool force,
		      const struct ct_topology *topo, json_object **tab)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	struct cdat_table t;
	struct ct_error derr = { 0 };
	int rc, code = EXIT_OK;

	*tab = NULL;
	rc = ct_cdat_source_read(env->ctx, s, &buf, &len);
	if (rc) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		return rc == -EOPNOTSUPP ? EXIT_UNSUPPORTED : EXIT_FAIL;
	}
	rc = cdat_decode(buf, len, &t, &derr);
	if (rc) {
		cmd_err(env, "%s: %s", s->device, derr.msg);
		if (force)
			cmd_warn(env, "%s: showing the %zu structures decoded before the fault (--force)", s->device, t.n);
		code = EXIT_FAIL;
	}
	if (!rc || force) {
		*tab = cdat_table_json(&t, buf, len, raw);
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

/* the sources named on the command line (or all): an exit code */
static int sources(struct cmd_env *env, char **files, size_t nfiles, int argc, char **argv,
		   struct ct_cdat_source **src, size_t *nsrc, size_t *failed)
{
	*src = NULL;
	*nsrc = 0;
	if (nfiles) {
		*src = calloc(nfiles, sizeof(**src));
		for (size_t i = 0; *src && i < nfiles; i++)
			ct_cdat_source_file(files[i], &(*src)[(*nsrc)++]);
	} else if (optind < argc) {
		*src = calloc(argc - optind, sizeof(**src));
		for (int i = optind; *src && i < argc; i++) {
			int r = ct_cdat_source_resolve(env->ctx, argv[i], &(*src)[*nsrc]);
			if (r)
				cmd_err(env, "%s", ct_context_message(env->ctx));
			if (r == -EINVAL)
				return EXIT_USAGE;
			if (r)
				(*failed)++;
			else
				(*nsrc)++;
		}
	} else if (ct_cdat_sources_all(env->ctx, src, nsrc)) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* the tables, then (not with -o) the kernel's figures and the hex dumps */
static int show(struct cmd_env *env, json_object *root, bool raw)
{
	json_object *tables = out_lookup(root, "tables"), *k;
	char err[256];
	bool any = false, bug = false;

	if (out_print(&env->out, &cdat_out_table, root, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		return EXIT_USAGE;
	}
	if (env->out.json)
		return EXIT_OK;
	for (size_t i = 0; i < json_object_array_length(tables); i++)
		for (size_t j = 0; (k = out_lookup(json_object_array_get_idx(tables, i), "kernel.figures")) &&
				   j < json_object_array_length(k); j++) {
			json_object *v = out_lookup(json_object_array_get_idx(k, j), "latency_check.verdict");
			any = true;
			bug |= v && !strcmp(json_object_get_string(v), "link_latency_ps_as_ns");
		}
	if (any && !env->out.columns) {
		printf("\nWhat the kernel derived (qos_class; region and node access figures, ns and MB/s):\n");
		out_print(&env->out, &cdat_kernel_out_table, root, err, sizeof(err));
		if (bug)
			printf("link_latency_ps_as_ns: the kernel adds the PCIe link latency in picoseconds to nanoseconds "
			       "(Linux 6.12): trust the CDAT latency\n");
	}
	for (size_t i = 0; raw && i < json_object_array_length(tables); i++)
		cdat_print_hexdump(json_object_array_get_idx(tables, i));
	return EXIT_OK;
}

int cmd_cdat(int argc, char **argv, struct cmd_env *env)
{
	enum { OPT_RAW = 0x2001, OPT_FORCE };
	static const struct option opts[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "raw", no_argument, NULL, OPT_RAW },
		{ "force", no_argument, NULL, OPT_FORCE },
		COMMON_LONG_OPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct ct_cdat_source *src = NULL;
	size_t nsrc = 0, ok = 0, failed = 0, unsupported = 0;
	bool raw = false, force = false;
	struct ct_topology topo = { 0 };
	bool have_topo = false;
	json_object *root = NULL, *tables;
	int c, rc = EXIT_OK;
	char **files = NULL;
	size_t nfiles = 0;

	env->opts = opts;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "f:" COMMON_SHORT_OPTS, opts, NULL)) != -1) {
		if (c == 'f') {
			char **nf = realloc(files, (nfiles + 1) * sizeof(*nf));
			if (!nf)
				goto out;
			files = nf;
			files[nfiles++] = optarg;
		} else if (c == OPT_RAW) {
			raw = true;
		} else if (c == OPT_FORCE) {
			force = true;
		} else if ((rc = cmd_common_opt(env, c, optarg, argc, argv, usage))) {
			rc = cmd_exit_code(rc);
			goto out;
		}
	}
	if (nfiles && optind < argc) {
		cmd_err(env, "give either devices or --file, not both");
		rc = EXIT_USAGE;
		goto out;
	}
	if ((rc = cmd_context(env)) || (rc = sources(env, files, nfiles, argc, argv, &src, &nsrc, &failed)))
		goto out;
	if (!nfiles) {
		have_topo = ct_topology_load(env->ctx, &topo) == 0;
		if (!have_topo)
			cmd_info(env, 1, "no kernel cross-check: %s", ct_context_message(env->ctx));
	}
	root = json_object_new_object();
	tables = jb_arr(root, "tables");
	for (size_t i = 0; i < nsrc; i++) {
		json_object *tab;
		int r = decode_one(env, &src[i], raw, force, have_topo ? &topo : NULL, &tab);
		if (tab)
			json_object_array_add(tables, tab);
		if (r == EXIT_OK)
			ok++;
		else if (r == EXIT_UNSUPPORTED)
			unsupported++;
		else
			failed++;
	}
	if (!nsrc && !failed && !env->out.json)
		fprintf(stderr, "cxltier cdat: no CXL port with a CDAT on this system\n");
	if ((rc = show(env, root, raw)))
		goto out;
	if (!failed && !unsupported)
		rc = EXIT_OK;
	else if (ok)
		rc = EXIT_PARTIAL;
	else if (unsupported && !failed)
		rc = EXIT_UNSUPPORTED;
	else
		rc = EXIT_FAIL;
out:
	if (have_topo)
		ct_topology_free(&topo);
	json_object_put(root);
	free(src);
	free(files);
	return rc;
}
