// SPDX-License-Identifier: GPL-2.0-only
/* poison-change.c - `cxltier poison inject|clear MEMDEV DPA [LENGTH]`: the
 * test tools. Inject makes the device report (and, on real media, return)
 * poison for that memory; clear writes zeroes over it. Both destroy the
 * data there, so both want --yes-really (poison-change.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "poison-change.h"
#include "core/context.h"

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

int poison_change_args(struct cmd_env *env, bool inject, int argc, char **argv, bool yes, uint64_t *dpa,
		       uint64_t *len)
{
	*len = CT_POISON_LINE;
	if (parse_u64(argv[1], dpa) || (argc == 3 && parse_u64(argv[2], len))) {
		cmd_err(env, "'%s%s%s': addresses and lengths are numbers (0x... or decimal; K, M)", argv[1],
			argc == 3 ? " " : "", argc == 3 ? argv[2] : "");
		return EXIT_USAGE;
	}
	if (!yes) {
		cmd_err(env, "poison %s is a test tool that destroys the data at %s DPA 0x%" PRIx64 " (%s): "
			"add --yes-really if that is what you want", inject ? "inject" : "clear", argv[0], *dpa,
			inject ? "reads of it then fail; in use, that is a machine check" : "it is overwritten with zeroes");
		return EXIT_USAGE;
	}
	return 0;
}

const struct ct_memdev *poison_change_memdev(struct cmd_env *env, const struct ct_topology *t, const char *spec)
{
	const struct ct_memdev *m = NULL;
	size_t matches = 0;

	for (size_t k = 0; k < t->nmemdevs; k++)
		if (ct_memdev_matches(&t->memdevs[k], spec)) {
			m = &t->memdevs[k];
			matches++;
		}
	if (matches > 1) {
		cmd_err(env, "'%s' names %zu memdevs: name one (memN)", spec, matches);
		return NULL;
	}
	if (!m)
		cmd_err(env, "no memdev '%s' (see 'cxltier list')", spec);
	return m;
}

int poison_change_apply(struct cmd_env *env, const struct ct_memdev *m, bool inject, uint64_t dpa, uint64_t len,
			struct ct_poison_list *traced)
{
	const char *what = inject ? "inject" : "clear";
	uint64_t done = 0;
	int rc;

	rc = (inject ? ct_poison_inject : ct_poison_clear)(env->ctx, m->name, m->ram_size + m->pmem_size, dpa, len,
							   traced, &done);
	if (rc) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		if (done)
			cmd_err(env, "%s: DPA 0x%" PRIx64 "-0x%" PRIx64 " was %sed before that; the rest was not",
				m->name, dpa, dpa + done - 1, what);
		return rc == -EOPNOTSUPP ? EXIT_UNSUPPORTED : EXIT_FAIL;
	}
	cmd_info(env, 0, "%sed poison at %s DPA 0x%" PRIx64 "-0x%" PRIx64 " (%" PRIu64 " cacheline%s)%s", what, m->name,
		 dpa, dpa + len - 1, len / CT_POISON_LINE, len == CT_POISON_LINE ? "" : "s",
		 traced->n ? "" : "; the kernel traced nothing (no cxl_poison tracepoint here)");
	return 0;
}
