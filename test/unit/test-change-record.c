// SPDX-License-Identifier: GPL-2.0-only
/* lib/change/change-record.c on a tree: the record of a region change
 * written, rewritten and removed with the signals held meanwhile; records
 * listed with their owner's state, a malformed or linked one refused; and
 * lib/change/region-recover.c undoing a killed create on a captured tree */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tap.h"
#include "tree.h"
#include "change/change-record.h"
#include "change/region.h"
#include "core/context.h"

static char root[256];
#define DEV "/sys/bus/cxl/devices"

static void put(const char *path, const char *text)
{
	tree_put_run(root, path, text);
}

static const char *get(const char *path)
{
	return tree_get(root, path);
}

static bool blocked(int sig)
{
	sigset_t now;

	sigprocmask(SIG_BLOCK, NULL, &now);
	return sigismember(&now, sig) == 1;
}

static void pure(void)
{
	struct ct_change_record r, back;
	char text[1024];

	ct_change_record_init(&r, CT_CHANGE_CREATE, "decoder0.0");
	r.owner = (struct ct_owner){ 42, 123456 };
	ct_change_record_add(&r, "decoder2.0", "mem0");
	ct_change_record_add(&r, "decoder3.0", NULL);
	ct_change_record_format(&r, text, sizeof(text));
	is_str(text, "pid 42\nstart 123456\ncommand create\nroot decoder0.0\ndecoder decoder2.0 mem0\ndecoder decoder3.0\n",
	       "a create's record before the region is known");
	ok(ct_change_record_parse(text, &back) == 0 && back.owner.pid == 42 && back.owner.start == 123456 &&
	   back.kind == CT_CHANGE_CREATE && back.ndecoders == 2 && !strcmp(back.memdevs[0], "mem0") &&
	   !back.memdevs[1][0] && !back.region[0], "read back");
	ct_strlcpy(r.region, "region3", sizeof(r.region));
	r.kind = CT_CHANGE_DESTROY;
	ct_change_record_format(&r, text, sizeof(text));
	ok(ct_change_record_parse(text, &back) == 0 && back.kind == CT_CHANGE_DESTROY && !strcmp(back.region, "region3"),
	   "a destroy's, with its region, read back");

	ok(ct_change_record_parse("pid 1\nstart 2\ncommand create\n", &back) < 0, "no root decoder: refused");
	ok(ct_change_record_parse("start 2\ncommand create\nroot decoder0.0\n", &back) < 0, "no pid: refused");
	ok(ct_change_record_parse("pid 1\nstart 2\ncommand grow\nroot decoder0.0\n", &back) < 0, "an unknown command: refused");
	ok(ct_change_record_parse("pid 1\nstart 2\ncommand create\nroot decoder0.0\ncolour red\n", &back) < 0,
	   "an unknown line: refused");
	ok(ct_change_record_parse("pid 1\nstart 2\ncommand create\nroot decoder0.0\ndecoder ../../etc mem0\n", &back) < 0,
	   "a decoder that is no decoder's name: refused");
	ok(ct_change_record_parse("pid 1\nstart 2\ncommand create\nroot decoder0.0\ndecoder decoder2.0 mem0 x\n", &back) < 0,
	   "a line with more than it should: refused");
	ok(ct_change_record_parse("pid 1\nstart 2\ncommand create\nroot decoder0.0", &back) < 0,
	   "cut short (no last newline): refused");
	ok(ct_change_record_parse("pid 1\npid 2\nstart 2\ncommand create\nroot decoder0.0\n", &back) < 0, "two pids: refused");
	ok(ct_change_record_parse("pid 1\nstart 2\ncommand create\nroot decoder0.0\n", &back) == 0, "the least one: taken");

	/* a --reonline's: its block, nothing of a region */
	ct_change_record_init_reonline(&r, 34);
	r.owner = (struct ct_owner){ 42, 7 };
	ct_change_record_format(&r, text, sizeof(text));
	is_str(text, "pid 42\nstart 7\ncommand reonline\nblock memory34\n", "a reonline's record");
	ok(ct_change_record_parse(text, &back) == 0 && back.kind == CT_CHANGE_REONLINE && !strcmp(back.block, "memory34") &&
	   !back.root[0], "read back");
	ok(ct_change_record_parse("pid 1\nstart 2\ncommand reonline\n", &back) < 0, "a reonline without its block: refused");
	ok(ct_change_record_parse("pid 1\nstart 2\ncommand reonline\nblock memory3\nroot decoder0.0\n", &back) < 0,
	   "a reonline with a root decoder: refused");
	ok(ct_change_record_parse("pid 1\nstart 2\ncommand reonline\nblock memory3.4\n", &back) < 0 &&
	   ct_change_record_parse("pid 1\nstart 2\ncommand reonline\nblock memory\n", &back) < 0 &&
	   ct_change_record_parse("pid 1\nstart 2\ncommand reonline\nblock ../memory3\n", &back) < 0,
	   "a block that is no block's name: refused");
	ok(ct_change_record_parse("pid 1\nstart 2\ncommand create\nroot decoder0.0\nblock memory3\n", &back) < 0,
	   "a create with a block: refused");
}

static void on_tree(struct ct_context *ctx)
{
	struct ct_change_record r;
	struct ct_change_found *v;
	char path[512], file[64], text[256];
	size_t n;

	snprintf(file, sizeof(file), "/run/cxltier/region-change.%d", (int)getpid());
	ct_change_record_init(&r, CT_CHANGE_CREATE, "decoder0.0");
	ct_change_record_add(&r, "decoder2.0", "mem0");
	ok(!blocked(SIGTERM), "SIGTERM not blocked before");
	ok(ct_change_record_begin(ctx, &r) == 0, "begun");
	ok(blocked(SIGINT) && blocked(SIGTERM) && blocked(SIGHUP) && blocked(SIGQUIT), "the ending signals held");
	snprintf(text, sizeof(text), "pid %d\n", (int)getpid());
	ok(!strncmp(get(file), text, strlen(text)) && strstr(get(file), "decoder decoder2.0 mem0\n") &&
	   !strstr(get(file), "region "), "the record is there, this run's, no region yet");
	ct_strlcpy(r.region, "region0", sizeof(r.region));
	ok(ct_change_record_update(ctx, &r) == 0 && strstr(get(file), "\nregion region0\n"), "rewritten with the region");
	snprintf(path, sizeof(path), "%s%s.new", root, file);
	ok(access(path, F_OK) != 0, "no .new left behind");
	ok(ct_change_record_list(ctx, &v, &n) == 0 && n == 1 && v[0].state == CT_OWNER_RUNS &&
	   !strcmp(v[0].rec.region, "region0"), "listed: its owner runs");
	free(v);
	ct_change_record_end(&r, false);
	is_str(get(file), "(none)", "removed at the end");
	ok(!blocked(SIGTERM) && !blocked(SIGINT), "the signals given back");

	ct_change_record_init(&r, CT_CHANGE_DESTROY, "decoder0.0");
	ok(ct_change_record_begin(ctx, &r) == 0, "begun again");
	ct_change_record_end(&r, true);
	ok(strstr(get(file), "command destroy\n") != NULL && !blocked(SIGTERM), "kept when asked, the signals given back");
	snprintf(path, sizeof(path), "%s%s", root, file);
	unlink(path);

	/* a killed run's: its pid not running */
	put("/run/cxltier/region-change.999999", "pid 999999\nstart 5\ncommand create\nroot decoder0.0\n");
	ok(ct_change_record_list(ctx, &v, &n) == 0 && n == 1 && v[0].state == CT_OWNER_GONE &&
	   !strcmp(v[0].rec.file, "region-change.999999"), "a killed run's record: its owner gone");
	free(v);
	/* this pid, another start time: another process now */
	snprintf(text, sizeof(text), "pid %d\nstart 1\ncommand create\nroot decoder0.0\n", (int)getpid());
	put("/run/cxltier/region-change.999999", text);
	ok(ct_change_record_list(ctx, &v, &n) == 0 && n == 1 && v[0].state == CT_OWNER_GONE, "its pid reused: gone");
	free(v);
	put("/run/cxltier/region-change.999999.new", "pid 9");
	put("/run/cxltier/other-file", "pid 9");
	ok(ct_change_record_list(ctx, &v, &n) == 0 && n == 1, "a .new and other files are not records");
	free(v);
	ok(ct_change_record_remove(ctx, "region-change.999999") == 0 && !strcmp(get("/run/cxltier/region-change.999999"), "(none)"),
	   "removed");
	ok(ct_change_record_remove(ctx, "../etc/passwd") < 0, "only a record's name is removed");

	put("/run/cxltier/region-change.77", "pid 77\nstart 5\ncommand create\nroot ../x\n");
	ok(ct_change_record_list(ctx, &v, &n) < 0 && strstr(ct_context_message(ctx), "region-change.77 is not a record"),
	   "a malformed record refused, named");
	is_str(get("/run/cxltier/region-change.77"), "pid 77\nstart 5\ncommand create\nroot ../x\n", "and left as it is");
	snprintf(path, sizeof(path), "%s/run/cxltier/region-change.77", root);
	unlink(path);

	put("/etc/target", "pid 1\nstart 2\ncommand create\nroot decoder0.0\n");
	symlink("../../etc/target", path);
	ok(ct_change_record_list(ctx, &v, &n) < 0 && strstr(ct_context_message(ctx), "symlink"), "a symlinked record refused");
	unlink(path);
	ct_error_clear(&ctx->err);
}

/* a killed create: region0 never made, decoder2.0 holding DPA for no region */
static void recover(struct ct_context *ctx)
{
	struct ct_region_recovery res[4];
	char path[512], self[1024];
	size_t n;

	put(DEV "/decoder2.0/dpa_size", "0x40000000\n");
	put(DEV "/decoder2.0/dpa_resource", "0\n");
	put(DEV "/decoder2.0/mode", "ram\n");
	ok(ct_region_recover(ctx, res, 4, &n) == 0 && n == 0, "no record: nothing to do");
	/* a run still going: left alone */
	{
		struct ct_owner me;
		ok(ct_owner_self(&ctx->sys, &me) == 0, "this process's identity in the tree");
		snprintf(self, sizeof(self), "pid %d\nstart %llu\ncommand create\nroot decoder0.0\ndecoder decoder2.0 mem0\n",
			 me.pid, (unsigned long long)me.start);
	}
	snprintf(path, sizeof(path), "/run/cxltier/region-change.%d", (int)getpid());
	put(path, self);
	ok(ct_region_recover(ctx, res, 4, &n) == 0 && n == 0, "a record whose run goes on: left alone");
	is_str(get(DEV "/decoder2.0/dpa_size"), "0x40000000\n", "its decoder untouched");
	snprintf(self, sizeof(self), "%s%s", root, path);
	unlink(self);

	put("/run/cxltier/region-change.999999",
	    "pid 999999\nstart 5\ncommand create\nroot decoder0.0\nregion region0\ndecoder decoder2.0 mem0\ndecoder decoder3.0 mem1\n");
	/* another decoder allocated after it, not the killed run's: it cannot be freed first */
	put(DEV "/decoder2.1/dpa_size", "0x10000000\n");
	put(DEV "/decoder2.1/dpa_resource", "0x40000000\n");
	put(DEV "/decoder2.1/mode", "ram\n");
	ok(ct_region_recover(ctx, res, 4, &n) < 0 && n == 1 && res[0].failed, "a recovery that cannot be done: an error");
	ok(strstr(ct_context_message(ctx), "decoder2.0 (mem0) holds DPA for no region, but decoder2.1 was allocated after it") &&
	   strstr(ct_context_message(ctx), "the record stays"), "naming the decoders and the record: %s", ct_context_message(ctx));
	ok(strcmp(get("/run/cxltier/region-change.999999"), "(none)") != 0, "the record kept");
	is_str(get(DEV "/decoder2.0/dpa_size"), "0x40000000\n", "nothing freed");
	put(DEV "/decoder2.1/dpa_size", "0\n");
	ct_error_clear(&ctx->err);

	ok(ct_region_recover(ctx, res, 4, &n) == 0 && n == 1, "a killed create: recovered");
	is_str(res[0].command, "create", "a create");
	is_int(res[0].pid, 999999, "its pid");
	is_str(res[0].outcome, "undone", "undone");
	is_str(res[0].done, "region0 was already gone, decoder2.0 freed", "what was done");
	is_str(res[0].decoders, "decoder2.0, decoder3.0", "the decoders recorded");
	is_str(get(DEV "/decoder2.0/dpa_size"), "0", "decoder2.0's DPA freed");
	is_str(get("/run/cxltier/region-change.999999"), "(none)", "the record removed");

	/* a --reonline killed between its halves: the block onlined movable */
	put("/sys/devices/system/memory/memory32/state", "offline\n");
	put("/run/cxltier/region-change.999999", "pid 999999\nstart 5\ncommand reonline\nblock memory32\n");
	ok(ct_region_recover(ctx, res, 4, &n) == 0 && n == 1, "a killed reonline: recovered");
	is_str(res[0].command, "reonline", "a reonline");
	is_str(res[0].block, "memory32", "its block");
	is_str(res[0].outcome, "finished", "finished");
	is_str(res[0].done, "memory32 onlined movable", "what was done");
	is_str(get("/sys/devices/system/memory/memory32/state"), "online_movable", "the block onlined movable");
	is_str(get("/run/cxltier/region-change.999999"), "(none)", "the record removed");
	/* one whose block is online again (someone onlined it): left */
	put("/sys/devices/system/memory/memory32/state", "online\n");
	put("/run/cxltier/region-change.999999", "pid 999999\nstart 5\ncommand reonline\nblock memory32\n");
	ok(ct_region_recover(ctx, res, 4, &n) == 0 && n == 1 && !strcmp(res[0].outcome, "left"), "online again: left");
	is_str(get("/sys/devices/system/memory/memory32/state"), "online\n", "not written");
	/* one whose block is gone (its memory removed): nothing to do */
	put("/run/cxltier/region-change.999999", "pid 999999\nstart 5\ncommand reonline\nblock memory999\n");
	ok(ct_region_recover(ctx, res, 4, &n) == 0 && n == 1 && !strcmp(res[0].done, "memory999 is gone (its memory was removed)"),
	   "a block gone: said, the record removed");
	is_str(get("/run/cxltier/region-change.999999"), "(none)", "the record removed");
}

int main(void)
{
	struct ct_context *ctx;
	char stat[1024], path[1024], cmd[1024];
	FILE *f;

	pure();
	if (!mkdtemp(tap_tmp_template(root, sizeof(root), "cxltier-test-change-record")))
		return 1;
	snprintf(cmd, sizeof(cmd), "tar xzf '%s/lab-two-devices-idle.tar.gz' -C '%s'", CXLTIER_FIXTURES, root);
	if (system(cmd))
		return 1;
	/* this process in the tree's /proc, as it is (the record's identity) */
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)getpid());
	f = fopen(path, "r");
	if (!f || !fgets(stat, sizeof(stat), f))
		return 1;
	fclose(f);
	put(path, stat);
	ok(ct_context_new(&ctx, root) == 0, "context on the tree");
	on_tree(ctx);
	recover(ctx);
	ct_context_free(ctx);
	tap_rm_tree(root);
	return tap_done();
}
