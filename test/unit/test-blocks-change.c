// SPDX-License-Identifier: GPL-2.0-only
/* test-blocks-change.c - lib/jobs/blocks-change.c and policy-online.c on a
 * captured tree (lab-region-online: dax0.0's eight blocks online movable,
 * memory34-41): one call each, its report and its status; what it has to
 * tell said through the context's sink, never printed; a stop that the
 * caller's handler set before the first block ends the run with nothing
 * written */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "tree.h"
#include "core/context.h"
#include "core/say.h"
#include "jobs/blocks-change.h"
#include "jobs/policy-online.h"

#define MEM "/sys/devices/system/memory"

static char root[256];
static char said[8192];		/* what the jobs said, a line each: "E text", "W text", "0 text"... */
static unsigned errors;
static volatile sig_atomic_t stop;

static void sink(void *arg, int kind, const char *text)
{
	size_t n = strlen(said);
	char k = kind == CT_SAY_ERROR ? 'E' : kind == CT_SAY_WARNING ? 'W' : (char)('0' + kind);

	(void)arg;
	errors += kind == CT_SAY_ERROR;
	snprintf(said + n, sizeof(said) - n, "%c %s\n", k, text);
}

static void forget(void)
{
	said[0] = '\0';
	errors = 0;
}

static const char *state(unsigned block)
{
	static char buf[256];
	char path[128];

	snprintf(path, sizeof(path), MEM "/memory%u/state", block);
	snprintf(buf, sizeof(buf), "%s", tree_get(root, path));
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static enum ct_job_end change(struct ct_context *ctx, enum ct_blocks_want want, char *target, bool dry,
				 struct ct_blocks_change_report *r)
{
	char *targets[] = { target };
	struct ct_blocks_change_opts o = { .want = want, .targets = targets, .ntargets = 1, .dry_run = dry,
					   .timeout_s = 1, .signals = { &stop, NULL, NULL } };

	forget();
	return ct_blocks_change(ctx, &o, r);
}

static void dry_and_bad(struct ct_context *ctx)
{
	struct ct_blocks_change_report r;

	is_int(change(ctx, CT_WANT_OFFLINE, "dax0.0", true, &r), CT_JOB_DONE, "a dry run of offline dax0.0: ok");
	ok(r.shown && r.dry_run, "a report to show, of a dry run");
	is_int(r.plan.n, 8, "its eight blocks planned");
	is_int(r.would_change, 8, "each would change");
	ok(r.plan.n && r.plan.op[0].action == CT_ACT_OFFLINE && r.plan.op[0].result == CT_RES_PLANNED,
	   "offline decided, only planned");
	ok(r.memdevs.n == 1 && !strcmp(r.memdevs.m[0].memdev, "mem0"), "the memdev behind them: mem0");
	is_str(state(34), "online", "nothing written");
	is_int(errors, 0, "nothing went wrong: no error said");
	ct_blocks_change_report_free(&r);

	is_int(change(ctx, CT_WANT_MOVABLE, "frob", true, &r), CT_JOB_BAD_INPUT, "a word that is no target: bad input");
	ok(!r.shown, "no report to show");
	ok(errors == 1 && strstr(said, "'frob' is not a target"), "said once, as an error");
	ct_blocks_change_report_free(&r);

	is_int(change(ctx, CT_WANT_MOVABLE, "region7", true, &r), CT_JOB_FAILED, "a region that is not there: failed");
	ok(errors == 1 && strstr(said, "no region 'region7'"), "said, as an error");
	ct_blocks_change_report_free(&r);
}

static void runs(struct ct_context *ctx)
{
	struct ct_blocks_change_report r;

	stop = 1;	/* the caller's handler took a signal before the first block */
	is_int(change(ctx, CT_WANT_OFFLINE, "dax0.0", false, &r), CT_JOB_FAILED, "stopped before any block: failed");
	ok(r.shown && r.stopped, "a report, which says the run was stopped");
	ok(r.plan.n && r.plan.op[0].result == CT_RES_INTERRUPTED, "its blocks interrupted");
	is_str(state(34), "online", "nothing written");
	ct_blocks_change_report_free(&r);
	stop = 0;

	is_int(change(ctx, CT_WANT_OFFLINE, "dax0.0", false, &r), CT_JOB_DONE, "offline dax0.0: ok");
	ok(r.done == 8 && r.failed == 0 && !r.stopped, "eight blocks done, none failed");
	is_int(r.changed_bytes, 8ull << 27, "1 GiB changed (eight blocks of 128 MiB)");
	is_str(state(34), "offline", "the state written");
	is_str(state(41), "offline", "to the last block");
	is_int(errors, 0, "no error said");
	ct_blocks_change_report_free(&r);

	is_int(change(ctx, CT_WANT_OFFLINE, "dax0.0", false, &r), CT_JOB_DONE, "again: ok");
	ok(r.done == 0 && r.unchanged == 8, "every block unchanged, as asked already");
	ct_blocks_change_report_free(&r);
}

static void policy(struct ct_context *ctx)
{
	struct ct_blocks_change_report r;
	char conf[512];
	struct ct_policy_online_opts o = { .config = "/nonexistent/cxltier.conf", .dry_run = true,
					   .signals = { &stop, NULL, NULL } };

	forget();
	is_int(ct_policy_online(ctx, &o, &r), CT_JOB_FAILED, "--policy with a policy file given that is not there: failed");
	ok(!r.shown && errors == 1, "said once, no report");
	ct_blocks_change_report_free(&r);

	forget();
	snprintf(conf, sizeof(conf), "%s/etc/cxltier-test.conf", root);
	tree_put(root, "/etc/cxltier-test.conf", "[defaults]\nzone = movable\n");
	o.config = conf;
	is_int(ct_policy_online(ctx, &o, &r), CT_JOB_DONE, "--policy, movable, dry: ok");
	ok(r.shown && r.want == CT_WANT_MOVABLE, "a report; movable wanted");
	is_int(r.would_change, 8, "dax0.0's eight offline blocks would be onlined");
	ok(r.nnew_regions == 0, "no memdev without a region");
	ct_blocks_change_report_free(&r);
}

int main(void)
{
	struct ct_context *ctx;
	char cmd[1024];

	if (!mkdtemp(tap_tmp_template(root, sizeof(root), "cxltier-test-blocks-change")))
		return 1;
	snprintf(cmd, sizeof(cmd), "tar xzf '%s/lab-region-online.tar.gz' -C '%s'", CXLTIER_FIXTURES, root);
	if (system(cmd))
		return 1;
	ok(ct_context_new(&ctx, root) == 0, "context on the tree");
	ctx->say = (struct ct_say){ sink, NULL };
	dry_and_bad(ctx);
	runs(ctx);
	policy(ctx);
	ct_context_free(ctx);
	tap_rm_tree(root);
	return tap_done();
}
