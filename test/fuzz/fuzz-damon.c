// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: DAMON's sysfs interface under --sysroot, built from the
 * input (see fuzz-tree.h): the admin tree cxltier sets up, the tried regions
 * it reads back (names, start, end, nr_accesses, age), and what tells that
 * the kernel runs DAMON itself (damon_stat parameters, kdamond threads in
 * /proc). Then `migrate --hot/--cold`'s sampling and doctor's DAMON state.
 * The library writes into this tree: those files are made afresh each time.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/context.h"
#include "mm/damon.h"
#include "fuzz-tree.h"
#include "core/kernel.h"

#define ADMIN "sys/kernel/mm/damon/admin/kdamonds"
#define CTX ADMIN "/0/contexts/0"
#define SCHEME CTX "/schemes/0"
#define P(...) ct_path(path, sizeof(path), __VA_ARGS__)

static const char *const setup_files[] = {
	ADMIN "/0/contexts/nr_contexts", CTX "/operations",
	CTX "/monitoring_attrs/intervals/sample_us", CTX "/monitoring_attrs/intervals/aggr_us",
	CTX "/monitoring_attrs/intervals/update_us", CTX "/monitoring_attrs/nr_regions/min",
	CTX "/monitoring_attrs/nr_regions/max", CTX "/targets/nr_targets", CTX "/targets/0/pid_target",
	CTX "/schemes/nr_schemes", SCHEME "/action",
	SCHEME "/access_pattern/sz/min", SCHEME "/access_pattern/sz/max",
	SCHEME "/access_pattern/nr_accesses/min", SCHEME "/access_pattern/nr_accesses/max",
	SCHEME "/access_pattern/age/min", SCHEME "/access_pattern/age/max",
	ADMIN "/0/state",
};

static const char *const odd_names[] = { "00", "1x", "-1", "99999999999999999999", "total_bytes", ".1", "1.5", "x" };

/* returns how many tried regions it made */
static unsigned build(struct ft_tree *t, struct ft_in *in, unsigned *nproc)
{
	char path[512], name[64];
	uint64_t start = 0x7f0000000000ULL;
	unsigned n;

	t->rewrite = true;
	ft_attr_dir(t, in, "sys/kernel/mm/damon/admin");
	ft_attr_num(t, in, ADMIN "/nr_kdamonds", "%llu", 0);
	for (size_t i = 0; i < sizeof(setup_files) / sizeof(setup_files[0]); i++)
		ft_attr_str(t, in, setup_files[i], "0");
	ft_attr_dir(t, in, SCHEME "/tried_regions");
	ft_attr_num(t, in, SCHEME "/tried_regions/total_bytes", "%llu", 0);
	n = ft_pick(in, 3, 12);
	for (unsigned i = 0; i < n; i++) {
		unsigned c = ft_u8(in);
		uint64_t len = (uint64_t)(1 + ft_u8(in)) << 12;
		if (c >= 128)
			snprintf(name, sizeof(name), "%s", odd_names[c % 8]);
		else
			snprintf(name, sizeof(name), "%u", i);
		ft_attr_dir(t, in, P(SCHEME "/tried_regions/%s", name));
		ft_attr_num(t, in, P(SCHEME "/tried_regions/%s/start", name), "%llu", start);
		ft_attr_num(t, in, P(SCHEME "/tried_regions/%s/end", name), "%llu", start + len);
		ft_attr_num(t, in, P(SCHEME "/tried_regions/%s/nr_accesses", name), "%llu", ft_u8(in) % 21);
		ft_attr_num(t, in, P(SCHEME "/tried_regions/%s/age", name), "%llu", ft_u8(in));
		start += len;
	}
	t->rewrite = false;
	ft_attr_str(t, in, "sys/module/damon_stat/parameters/enabled", ft_u8(in) & 1 ? "Y" : "N");
	ft_attr_num(t, in, "sys/module/damon_stat/parameters/kdamond_pid", "%lld", 77);
	*nproc = ft_pick(in, 2, 4);
	ft_attr_dir(t, in, "proc");
	for (unsigned i = 0; i < *nproc; i++) {
		unsigned c = ft_u8(in);
		if (c >= 128)
			snprintf(name, sizeof(name), "%s", odd_names[c % 8]);
		else
			snprintf(name, sizeof(name), "%u", 77 + i);
		ft_attr_str(t, in, P("proc/%s/comm", name), c & 1 ? "bash" : "kdamond.0");
	}
	return n;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	ft_root();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ft_in in = { data, size, 0 };
	struct ft_tree *tree = ft_begin();
	struct ct_context *ctx;
	struct ct_access_region *r = NULL;
	struct ct_kernel_damon d;
	struct ct_damon_run run = { 0 };
	volatile sig_atomic_t stop = 0;
	unsigned made, nproc;
	size_t n = 0;

	made = build(tree, &in, &nproc);
	ft_make(tree);
	if (ct_context_new(&ctx, ft_root())) {
		ct_context_free(ctx);
		abort();
	}
	if (ct_damon_sample(&ctx->sys, 4242, 0, &stop, &r, &n, &run) == 0) {
		if (n > 2 * made || (n && !r))
			abort();
	} else if (r || n) {
		abort();	/* a failure hands back nothing */
	}
	free(r);
	ct_error_clear(&ctx->err);
	ct_kernel_damon_state(ctx, &d);
	if (d.kdamonds > nproc)
		abort();
	ct_context_free(ctx);
	return 0;
}
