// SPDX-License-Identifier: GPL-2.0-only
/* `online --policy` planned (ct_policy_plan) on the offline lab tree: a
 * device whose blocks cannot be read after the topology was loaded (a state
 * file gone bad meanwhile) is an error named on the device, none of its
 * blocks planned, never a device quietly half planned; the other devices are
 * planned all the same; blocks kmem never added are no error */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "core/context.h"
#include "change/policy-plan.h"

static char root[256];

/* a shell command on the tree: %1$s is its memory block directory */
static void mem_sh(const char *fmt, ...)
{
	char cmd[1024], mem[400];
	va_list ap;

	snprintf(mem, sizeof(mem), "%s/sys/devices/system/memory", root);
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	setenv("M", mem, 1);
	if (system(cmd))
		abort();
}

/* the policy's plan (the default policy: online, movable) of target, or of
 * every device */
static int plan_for(struct ct_context *ctx, const struct ct_topology *t, const char *target,
		    struct ct_blocks_plan *plan, struct ct_policy_outcome **out, size_t *nout)
{
	struct ct_policy pol = { 0 };
	char *targets[1] = { (char *)target };
	bool movable;

	pol.defaults = (struct ct_policy_rule){ .online = -1, .movable = -1, .create_region = -1, .reonline = -1 };
	memset(plan, 0, sizeof(*plan));
	return ct_policy_plan(&ctx->sys, t, &pol, targets, target ? 1 : 0, plan, &movable, out, nout);
}

static size_t blocks_of(const struct ct_blocks_plan *p, const char *dax)
{
	size_t n = 0;

	for (size_t i = 0; i < p->n; i++)
		n += !strcmp(p->op[i].owner, dax);
	return n;
}

static void one_device(void)
{
	struct ct_context *ctx;
	struct ct_topology t = { 0 };
	struct ct_blocks_plan plan;
	struct ct_policy_outcome *out;
	size_t nout;
	int rc;

	is_int(ct_context_new(&ctx, root), 0, "a context on the offline lab tree");
	is_int(ct_topology_load(ctx, &t), 0, "its topology: %s", ctx->err.msg);
	is_int(plan_for(ctx, &t, "dax0.0", &plan, &out, &nout), 0, "dax0.0 planned");
	is_int(blocks_of(&plan, "dax0.0"), 8, "its 8 blocks");
	ct_blocks_plan_free(&plan);
	free(out);

	/* a block kmem did not add: left out, no error */
	mem_sh("mv \"$M/memory41\" \"$M/away41\"");
	is_int(plan_for(ctx, &t, "dax0.0", &plan, &out, &nout), 0, "a block not there: planned");
	is_int(blocks_of(&plan, "dax0.0"), 7, "the 7 that are");
	ok(!ctx->err.code, "no error: %s", ctx->err.msg);
	ct_blocks_plan_free(&plan);
	free(out);
	mem_sh("mv \"$M/away41\" \"$M/memory41\"");

	/* the state of one of its blocks cannot be read (since the load) */
	mem_sh("rm \"$M/memory36/state\" && mkdir \"$M/memory36/state\"");
	rc = plan_for(ctx, &t, "dax0.0", &plan, &out, &nout);
	is_int(rc, 0, "planned: the failure is the device's");
	is_int(blocks_of(&plan, "dax0.0"), 0, "none of its blocks planned: the device is not half planned");
	is_int(nout, 1, "one device decided on");
	is_int(nout ? out[0].err : 0, -EISDIR, "its error: the state is a directory");
	ok(nout && strstr(out[0].why, "memory36/state"), "naming the file: %s", nout ? out[0].why : "");
	ok(!ctx->err.code, "the context holds no error of it: %s", ctx->err.msg);
	ct_blocks_plan_free(&plan);
	free(out);
	ct_error_clear(&ctx->err);
	ct_topology_free(&t);
	ct_context_free(ctx);
}

/* a second device (dax1.0 over memory42-45) beside dax0.0, one of whose
 * blocks (memory36, as above) cannot be read: dax1.0 planned whole */
static void two_devices(void)
{
	struct ct_context *ctx;
	struct ct_topology t = { 0 };
	struct ct_blocks_plan plan;
	struct ct_policy_outcome *out;
	struct ct_dax *d;
	size_t nout;

	mem_sh("for b in 42 43 44 45; do cp -a \"$M/memory34\" \"$M/memory$b\"; done");
	is_int(ct_context_new(&ctx, root), 0, "a context");
	mem_sh("mv \"$M/memory36/state\" \"$M/state36\" && echo offline > \"$M/memory36/state\"");
	is_int(ct_topology_load(ctx, &t), 0, "the topology: %s", ctx->err.msg);
	mem_sh("rm \"$M/memory36/state\" && mv \"$M/state36\" \"$M/memory36/state\"");
	if (t.nregions != 1 || t.regions[0].ndax != 1 || !(d = realloc(t.regions[0].dax, 2 * sizeof(*d)))) {
		ok(0, "the lab tree has one region with one dax device");
		ct_topology_free(&t);
		ct_context_free(ctx);
		return;
	}
	t.regions[0].dax = d;
	d[1] = d[0];
	snprintf(d[1].name, sizeof(d[1].name), "dax1.0");
	d[1].resource = d[0].resource + d[0].size;
	d[1].size = 4 * t.block_size;
	t.regions[0].ndax = 2;
	is_int(plan_for(ctx, &t, NULL, &plan, &out, &nout), 0, "every device planned");
	is_int(nout, 2, "two devices decided on");
	is_int(blocks_of(&plan, "dax1.0"), 4, "dax1.0's 4 blocks");
	is_int(blocks_of(&plan, "dax0.0"), 0, "none of dax0.0's");
	ok(nout == 2 && out[0].err == -EISDIR && !strcmp(out[0].dax, "dax0.0") && !out[1].err &&
	   !strcmp(out[1].dax, "dax1.0"), "dax0.0 has the error, dax1.0 none");
	ct_blocks_plan_free(&plan);
	free(out);
	ct_error_clear(&ctx->err);
	ct_topology_free(&t);
	ct_context_free(ctx);
}

int main(void)
{
	char cmd[600];

	if (!mkdtemp(tap_tmp_template(root, sizeof(root), "cxltier-test-policy-plan")))
		return 1;
	snprintf(cmd, sizeof(cmd), "tar xzf '%s/lab-region-offline.tar.gz' -C '%s'", CXLTIER_FIXTURES, root);
	if (system(cmd))
		return 1;
	one_device();
	two_devices();
	tap_rm_tree(root);
	return tap_done();
}
