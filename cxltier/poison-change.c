// SPDX-License-Identifier: GPL-2.0-only
/* poison-change.c - `cxltier poison inject|clear MEMDEV DPA [LENGTH]`: the
 * test tools. Inject makes the device report (and, on real media, return)
 * poison for that memory; clear writes zeroes over it. Both destroy the
 * data there, so both want --yes-really. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd-poison.h"
#include "core/context.h"
#include "events/poison.h"
#include "cxl/topology.h"

void poison_change_usage(void)
{
	printf("usage: cxltier poison inject MEMDEV DPA [LENGTH] --yes-really [-j]\n"
	       "       cxltier poison clear MEMDEV DPA [LENGTH] --yes-really [-j]\n\n"
	       "TEST TOOLS, for checking that poison is reported and handled. They destroy data:\n"
	       "inject makes the device report poison for that memory (real media then fails\n"
	       "reads of it: a machine check when the memory is in use), clear writes zeroes\n"
	       "over it. Through the kernel's debugfs files (cxl/MEMDEV/inject_poison and\n"
	       "clear_poison: debugfs mounted, a device with Inject/Clear Poison; root).\n\n"
	       "  MEMDEV              memN, N, a serial or the PCI device\n"
	       "  DPA                 device physical address, 64-byte aligned (0x... or decimal)\n"
	       "  LENGTH              bytes, a multiple of 64 (K/M suffix), 64 by default, at most 64K\n"
	       "      --yes-really    required: the data there is lost\n"
	       "  -j, --json          {\"poison\":[...]} what the kernel traced: DPA, HPA, region\n");
}

/* "4096", "0x1000", "4K", "1M" */
static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	int shift = 0;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -1;
	if (*end == 'k' || *end == 'K')
		shift = 10;
	else if (*end == 'm' || *end == 'M')
		shift = 20;
	else if (*end)
		return -1;
	if (*end && end[1])
		return -1;
	if (v > (~0ULL >> shift))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

static const struct ct_memdev *find(const struct ct_topology *t, const char *spec, size_t *matches)
{
	const struct ct_memdev *m = NULL;

	*matches = 0;
	for (size_t k = 0; k < t->nmemdevs; k++)
		if (ct_memdev_matches(&t->memdevs[k], spec)) {
			m = &t->memdevs[k];
			(*matches)++;
		}
	return m;
}

static int apply(struct cmd_env *env, const struct ct_topology *t, const struct ct_memdev *m, bool inject,
		 uint64_t dpa, uint64_t len)
{
	const char *what = inject ? "inject" : "clear";
	struct ct_poison_list traced;
	struct poison_out out;
	uint64_t done = 0;
	int rc, prc;

	rc = (inject ? ct_poison_inject : ct_poison_clear)(env->ctx, m->name, m->ram_size + m->pmem_size, dpa, len,
							   &traced, &done);
	if (rc) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		if (done)
			cmd_err(env, "%s: DPA 0x%" PRIx64 "-0x%" PRIx64 " was %sed before that; the rest was not",
				m->name, dpa, dpa + done - 1, what);
		ct_poison_list_free(&traced);
		return rc == -EOPNOTSUPP ? EXIT_UNSUPPORTED : EXIT_FAIL;
	}
	cmd_info(env, 0, "%sed poison at %s DPA 0x%" PRIx64 "-0x%" PRIx64 " (%" PRIu64 " cacheline%s)%s", what, m->name,
		 dpa, dpa + len - 1, len / CT_POISON_LINE, len == CT_POISON_LINE ? "" : "s",
		 traced.n ? "" : "; the kernel traced nothing (no cxl_poison tracepoint here)");
	poison_out_init(&out);
	poison_out_add(&out, m, &traced, t, NULL, NULL);
	prc = poison_out_print(env, &out);
	poison_out_free(&out);
	ct_poison_list_free(&traced);
	return prc;
}

int poison_change(int argc, char **argv, struct cmd_env *env, bool inject)
{
	enum { OPT_YES = 0x3001 };
	static const struct option opts[] = {
		{ "yes-really", no_argument, NULL, OPT_YES },
		COMMON_LONG_OPTS,
		{ NULL, 0, NULL, 0 },
	};
	const char *what = inject ? "inject" : "clear";
	const struct ct_memdev *m;
	struct ct_topology t = { 0 };
	uint64_t dpa, len = CT_POISON_LINE;
	bool yes = false;
	size_t matches;
	int c, rc;

	env->opts = opts;
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTS, opts, NULL)) != -1) {
		if (c == OPT_YES)
			yes = true;
		else if ((rc = cmd_common_opt(env, c, optarg, argc, argv, poison_change_usage)))
			return cmd_exit_code(rc);
	}
	if (argc - optind < 2 || argc - optind > 3) {
		cmd_err(env, "poison %s MEMDEV DPA [LENGTH] (see 'cxltier poison %s --help')", what, what);
		return EXIT_USAGE;
	}
	if (parse_u64(argv[optind + 1], &dpa) || (argc - optind == 3 && parse_u64(argv[optind + 2], &len))) {
		cmd_err(env, "'%s%s%s': addresses and lengths are numbers (0x... or decimal; K, M)", argv[optind + 1],
			argc - optind == 3 ? " " : "", argc - optind == 3 ? argv[optind + 2] : "");
		return EXIT_USAGE;
	}
	if (!yes) {
		cmd_err(env, "poison %s is a test tool that destroys the data at %s DPA 0x%" PRIx64 " (%s): "
			"add --yes-really if that is what you want", what, argv[optind], dpa,
			inject ? "reads of it then fail; in use, that is a machine check" : "it is overwritten with zeroes");
		return EXIT_USAGE;
	}
	if ((rc = cmd_context(env)))
		return rc;
	if (!env->ctx->live) {
		cmd_err(env, "poison %s acts on a live device: not possible on a captured tree (--sysroot)", what);
		return EXIT_UNSUPPORTED;
	}
	if (ct_topology_load(env->ctx, &t)) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		return EXIT_FAIL;
	}
	m = find(&t, argv[optind], &matches);
	if (matches > 1) {
		cmd_err(env, "'%s' names %zu memdevs: name one (memN)", argv[optind], matches);
		rc = EXIT_FAIL;
	} else if (!m) {
		cmd_err(env, "no memdev '%s' (see 'cxltier list')", argv[optind]);
		rc = EXIT_FAIL;
	} else
		rc = apply(env, &t, m, inject, dpa, len);
	ct_topology_free(&t);
	return rc;
}
