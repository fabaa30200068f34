// SPDX-License-Identifier: GPL-2.0-only
/* test-blocks-session.c - lib/change/blocks-session.c on a captured tree
 * (lab-region-online: dax0.0's eight blocks online movable): the lock taken,
 * waited for and given up (by time or the caller's stop flag), released by
 * the run; a dry run that takes none and writes nothing; a killed run's
 * hold of auto_online_blocks undone, left, or not undone (said, the run
 * goes on) */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "tap.h"
#include "tree.h"
#include "change/auto-online-hold.h"
#include "change/blocks-session.h"
#include "core/lock.h"

#define MEM "/sys/devices/system/memory"
#define AUTO MEM "/auto_online_blocks"
#define RECORD "/run/cxltier/" CT_AUTO_ONLINE_RECORD

static char root[256];
static volatile sig_atomic_t stop;
static const struct ct_blocks_opts opts = { false, 0, &stop, NULL, NULL, NULL, NULL, NULL };

static void put(const char *path, const char *text)
{
	tree_put_run(root, path, text);
}

/* the text without its last newline */
static const char *get(const char *path)
{
	static char buf[256];
	size_t n;

	snprintf(buf, sizeof(buf), "%s", tree_get(root, path));
	n = strlen(buf);
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return buf;
}

/* the blocks of dax0.0, as the session loads them */
static int plan_dax(struct ct_blocks_session *s, struct ct_topology *t, struct ct_blocks_plan *p)
{
	char *targets[] = { "dax0.0" };
	const struct ct_dax *devdax = NULL;

	memset(t, 0, sizeof(*t));
	memset(p, 0, sizeof(*p));
	if (ct_blocks_session_load(s, targets, 1, false, t))
		return -1;
	return ct_blocks_plan_add_target(&s->ctx->sys, t, p, "dax0.0", &devdax);
}

static unsigned count_result(const struct ct_blocks_plan *p, enum ct_blocks_result r)
{
	unsigned n = 0;

	for (size_t i = 0; i < p->n; i++)
		n += p->op[i].result == r;
	return n;
}

static void lock_and_recovery(struct ct_context *ctx)
{
	struct ct_blocks_session s = CT_BLOCKS_SESSION_INIT, other = CT_BLOCKS_SESSION_INIT;
	char text[128], path[600];
	struct timespec t0, t1;

	ct_blocks_session_end(&s);
	ok(!ct_blocks_session_locked(&s), "a session not begun: ending it does nothing");

	/* a dry run: no lock */
	ok(ct_blocks_session_begin(&s, ctx, &opts, 0, true) == 0 && !ct_blocks_session_locked(&s),
	   "a dry run begins without the lock");
	is_str(get("/run/cxltier/" CT_LOCK_NAME), "(none)", "no lock file made");
	ct_blocks_session_end(&s);

	ok(ct_blocks_session_begin(&s, ctx, &opts, 0, false) == 0 && ct_blocks_session_locked(&s), "the lock taken");
	is_int(s.recovery, CT_BLOCKS_RECOVERY_NONE, "no killed run's hold to undo");
	snprintf(text, sizeof(text), "%11d", (int)getpid());
	is_str(get("/run/cxltier/" CT_LOCK_NAME), text, "the lock file names this process");

	is_int(ct_blocks_session_begin(&other, ctx, &opts, 0, false), -EWOULDBLOCK, "held: a second run is refused");
	snprintf(text, sizeof(text), "another cxltier (pid %d) is changing memory blocks; waited 0 ms for ", (int)getpid());
	ok(!strncmp(ct_context_message(ctx), text, strlen(text)), "naming the holder: %s", ct_context_message(ctx));
	ok(!ct_blocks_session_locked(&other), "and holds nothing");
	ct_error_clear(&ctx->err);

	stop = 1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	is_int(ct_blocks_session_begin(&other, ctx, &opts, 60000, false), -EINTR,
	       "the wait for the lock ends on the caller's stop flag (said as a stop: %s)", ct_context_message(ctx));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ok(t1.tv_sec - t0.tv_sec < 5, "at once, not after the time given");
	stop = 0;
	ct_error_clear(&ctx->err);

	ok(ct_blocks_session_begin(&other, ctx, &opts, 0, true) == 0, "a dry run goes on while another run holds it");
	ct_blocks_session_end(&other);

	ct_blocks_session_end(&s);
	ct_blocks_session_end(&s);
	ok(!ct_blocks_session_locked(&s), "released (twice: harmless)");
	ok(ct_blocks_session_begin(&other, ctx, &opts, 0, false) == 0, "and taken again");
	ct_blocks_session_end(&other);

	/* a killed run's hold (its pid not running) */
	put(RECORD, "pid 999999\nstart 5\nvalue online_movable\n");
	put(AUTO, "offline\n");
	ok(ct_blocks_session_begin(&s, ctx, &opts, 0, false) == 0, "a killed run's hold: the run begins");
	is_int(s.recovery, CT_BLOCKS_RECOVERY_RESTORED, "the hold undone");
	is_str(s.restored, "online_movable", "the value put back");
	is_str(get(AUTO), "online_movable", "auto_online_blocks set back");
	is_str(get(RECORD), "(none)", "the record removed");
	ct_blocks_session_end(&s);

	put(RECORD, "pid 999999\nstart 5\nvalue online\n");
	put(AUTO, "online_movable\n");
	ok(ct_blocks_session_begin(&s, ctx, &opts, 0, false) == 0 && s.recovery == CT_BLOCKS_RECOVERY_LEFT,
	   "set by the administrator since: left");
	is_str(get(AUTO), "online_movable", "as the administrator set it");
	ct_blocks_session_end(&s);

	put(RECORD, "pid 999999\nstart 5\nvalue online\n");
	ok(ct_blocks_session_begin(&s, ctx, &opts, 0, true) == 0 && s.recovery == CT_BLOCKS_RECOVERY_NONE,
	   "a dry run undoes nothing");
	is_str(get(RECORD), "pid 999999\nstart 5\nvalue online", "the record stays");
	ct_blocks_session_end(&s);

	/* a record that fails the run directory's checks: not undone, said */
	snprintf(path, sizeof(path), "%s" RECORD, root);
	unlink(path);
	put("/etc/target", "pid 999999\nstart 5\nvalue online\n");
	if (symlink("../../etc/target", path))
		fprintf(stderr, "# no symlink\n");
	ok(ct_blocks_session_begin(&s, ctx, &opts, 0, false) == 0 && ct_blocks_session_locked(&s),
	   "a record that cannot be undone: the run begins all the same");
	is_int(s.recovery, CT_BLOCKS_RECOVERY_FAILED, "the recovery failed");
	ok(s.recovery_error[0] != '\0', "with why: %s", s.recovery_error);
	is_int(ctx->err.code, 0, "the context's error left clear");
	ct_blocks_session_end(&s);
	unlink(path);
}

static void run(struct ct_context *ctx)
{
	struct ct_blocks_session s = CT_BLOCKS_SESSION_INIT, other = CT_BLOCKS_SESSION_INIT;
	struct ct_blocks_plan p;
	struct ct_topology t;

	/* a dry run: decided, nothing written */
	ok(ct_blocks_session_begin(&s, ctx, &opts, 0, true) == 0, "a dry run");
	is_int(plan_dax(&s, &t, &p), 0, "dax0.0 loaded and planned");
	is_int(p.n, 8, "its eight blocks");
	is_int(ct_blocks_session_run(&s, &p, CT_WANT_OFFLINE, false), 0, "run");
	ok(p.n && p.op[0].action == CT_ACT_OFFLINE, "offline decided");
	is_int(count_result(&p, CT_RES_PLANNED), 8, "every block only planned");
	is_str(get(MEM "/memory34/state"), "online", "nothing written");
	ct_blocks_plan_free(&p);
	ct_topology_free(&t);

	ok(ct_blocks_session_begin(&s, ctx, &opts, 0, false) == 0, "a run");
	is_int(plan_dax(&s, &t, &p), 0, "dax0.0 loaded and planned");
	is_int(ct_blocks_session_run(&s, &p, CT_WANT_OFFLINE, false), 0, "every block as wanted");
	is_int(count_result(&p, CT_RES_DONE), 8, "eight offlined");
	is_str(get(MEM "/memory34/state"), "offline", "the state written");
	is_str(get(MEM "/memory41/state"), "offline", "to the last block");
	ok(!ct_blocks_session_locked(&s), "the lock released by the run");
	ok(ct_blocks_session_begin(&other, ctx, &opts, 0, false) == 0, "another run takes it");
	ct_blocks_session_end(&other);
	ct_blocks_session_end(&s);
	ct_blocks_plan_free(&p);
	ct_topology_free(&t);
}

int main(void)
{
	struct ct_context *ctx;
	char cmd[1024];

	if (!mkdtemp(tap_tmp_template(root, sizeof(root), "cxltier-test-session")))
		return 1;
	snprintf(cmd, sizeof(cmd), "tar xzf '%s/lab-region-online.tar.gz' -C '%s'", CXLTIER_FIXTURES, root);
	if (system(cmd))
		return 1;
	ok(ct_context_new(&ctx, root) == 0, "context on the tree");
	lock_and_recovery(ctx);
	run(ctx);
	ct_context_free(ctx);
	tap_rm_tree(root);
	return tap_done();
}
