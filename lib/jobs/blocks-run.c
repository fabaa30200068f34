// SPDX-License-Identifier: GPL-2.0-only
/* blocks-change.c - shared by `cxltier online` and `cxltier offline`: the
 * signal handlers and the timer a run's session honours (its lock, recovery,
 * loading and execution are lib's: change/blocks-session.h), --timeout and
 * -o, the warnings, the blocks' report and the exit code */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "blocks-change.h"
#include "cli/json-build.h"
#include "core/context.h"
#include "core/kernel.h"
#include "mm/memblock.h"
#include "change/blocks-session.h"

static volatile sig_atomic_t stop_flag;
static volatile sig_atomic_t timer_fired;
static volatile sig_atomic_t timer_armed;	/* a timed state write is under way */
static bool handlers_on;			/* installed for the run under way */
/* the run under way (the lock, what was recovered): one at a time, as the
 * signal handlers that stop it are the process's */
static struct ct_blocks_session session = CT_BLOCKS_SESSION_INIT;

/* after the deadline (or a stop) the timer ticks on until disarmed: a
 * state write the kernel restarts while another writer holds the hotplug
 * lock (lock_device_hotplug_sysfs: -ERESTARTNOINTR, restarted whatever the
 * handler) takes the signal and goes on as if none had come; the next tick
 * reaches it once it has the lock and migrates pages (offline_pages ends on
 * any pending signal) */
#define TICK_US 50000

static void on_signal(int sig)
{
	if (sig == SIGALRM) {
		timer_fired = 1;
		return;
	}
	if (stop_flag) {	/* the second INT/TERM/HUP/QUIT: as if no handler were there */
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	stop_flag = 1;
	if (timer_armed) {	/* the write may have taken this one in a restart */
		struct itimerval it = { { 0, TICK_US }, { 0, TICK_US } };
		setitimer(ITIMER_REAL, &it, NULL);
	}
}

/* ms > 0: SIGALRM after ms, then every TICK_US until disarmed (0) */
static void arm_timer(unsigned ms)
{
	struct itimerval it = { { 0, ms ? TICK_US : 0 }, { ms / 1000, (long)(ms % 1000) * 1000 } };

	timer_armed = 0;
	setitimer(ITIMER_REAL, &it, NULL);
	timer_armed = ms != 0;
}

static void install_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: a blocked state write returns EINTR */
	sigemptyset(&sa.sa_mask);
	/* HUP (the ssh session or terminal gone) and QUIT end a run as INT
	 * and TERM do: at a block's boundary, a --reonline's online half made */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	handlers_on = true;
}

static void restore_handlers(void)
{
	arm_timer(0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	signal(SIGALRM, SIG_DFL);
	handlers_on = false;
}

/* -vv: where a run's time goes, phase by phase (ms since the last one) */
void change_phase(const struct cmd_env *env, const char *what)
{
	static struct timespec last;
	struct timespec now;

	if (env->verbose < 2)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (last.tv_sec)
		cmd_info(env, 2, "%s: %.2f ms", what,
			 (now.tv_sec - last.tv_sec) * 1e3 + (now.tv_nsec - last.tv_nsec) / 1e6);
	last = now;
}

static const char *const levels[] = { "blocks", NULL };
static void fmt_from(json_object *rec, char *buf, size_t len);
static void fmt_now(json_object *rec, char *buf, size_t len);
static const struct out_column columns[] = {
	{ "BLOCK", "block", OUT_STR, 0.1, 0, "memory block", NULL },
	{ "NODE", "node", OUT_NUM, 0.1, 0, "NUMA node", NULL },
	{ "DEVICE", "device", OUT_STR, 0.1, 0, "the dax device it belongs to", NULL },
	{ "FROM", "from_state", OUT_STR, 0.1, 0, "state and zone(s) before", fmt_from },
	{ "ACTION", "action", OUT_STR, 0.1, 0, "what cxltier does (or would do)", NULL },
	{ "RESULT", "result", OUT_STR, 0.1, 0, "done, unchanged, failed, raced, refused, rolled_back, rollback_failed, half_done, interrupted, planned", NULL },
	{ "NOW", "state", OUT_STR, 0.1, 0, "state and zone after", fmt_now },
	{ "NOTE", "note", OUT_STR, 0.1, 0, "why, when it did not go as asked", NULL },
};
static const struct out_table table = {
	levels, NULL, columns, sizeof(columns) / sizeof(columns[0]), "BLOCK,NODE,DEVICE,FROM,ACTION,RESULT,NOW,NOTE",
};

static void zones_str(json_object *z, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; z && i < json_object_array_length(z) && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? "," : "", json_object_get_string(json_object_array_get_idx(z, i)));
}

static void fmt_state(json_object *rec, const char *skey, const char *zkey, char *buf, size_t len)
{
	json_object *st = out_lookup(rec, skey);
	char z[64];

	zones_str(out_lookup(rec, zkey), z, sizeof(z));
	snprintf(buf, len, "%s%s%s%s", st ? json_object_get_string(st) : "", z[0] ? " (" : "", z, z[0] ? ")" : "");
}

static void fmt_from(json_object *rec, char *buf, size_t len)
{
	fmt_state(rec, "from_state", "from_zones", buf, len);
}

static void fmt_now(json_object *rec, char *buf, size_t len)
{
	fmt_state(rec, "state", "zones", buf, len);
}

static json_object *zones_json(const struct ct_block *b)
{
	json_object *a = json_object_new_array();

	for (unsigned i = 0; i < b->nzones; i++)
		json_object_array_add(a, json_object_new_string(ct_zone_name(b->zones[i])));
	return a;
}

static json_object *op_json(const struct ct_block_op *op, bool dry)
{
	json_object *o = json_object_new_object();
	char name[32];

	snprintf(name, sizeof(name), "memory%llu", (unsigned long long)op->before.id);
	jb_str(o, "block", name);
	jb_u64(o, "id", op->before.id);
	jb_int_known(o, "node", op->node);
	jb_str(o, "device", op->owner);
	jb_str(o, "from_state", ct_block_state_name(op->before.state));
	if (op->before.nzones)	/* absent when not read (an offline block in a real run) */
		json_object_object_add(o, "from_zones", zones_json(&op->before));
	jb_str(o, "action", ct_blocks_action_name(op->action));
	jb_str(o, "result", ct_blocks_result_name(op->result));
	if (!dry) {
		jb_str(o, "state", ct_block_state_name(op->after.state));
		if (op->after.nzones)
			json_object_object_add(o, "zones", zones_json(&op->after));
	}
	if (op->err) {
		jb_int(o, "errno", op->err);
		jb_str(o, "error", strerror(op->err));
	}
	jb_str(o, "note", ct_blocks_note_of(op));
	return o;
}

/* the plan's ops as records, made one at a time while they are printed */
struct op_rows {
	const struct ct_blocks_plan *plan;
	bool dry;
};

static json_object *op_row(void *ctx, size_t i)
{
	const struct op_rows *r = ctx;

	return op_json(&r->plan->op[i], r->dry);
}

int change_parse_timeout(struct cmd_env *env, const char *arg, struct change_opts *o)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (*end || end == arg || v < 0 || v > 86400) {
		cmd_err(env, "--timeout %s: give seconds (0-86400)", arg);
		return EXIT_USAGE;
	}
	o->timeout_s = (unsigned)v;
	return EXIT_OK;
}

int change_begin_load(struct cmd_env *env, const struct change_opts *o, char **targets, int n, bool full,
		      struct ct_topology *t)
{
	int rc;

	change_phase(env, "start");
	if (!ct_kernel_has_memory_hotplug(env->ctx)) {
		cmd_err(env, "this kernel has no memory hotplug (no memory blocks in sysfs: CONFIG_MEMORY_HOTPLUG)");
		return EXIT_UNSUPPORTED;
	}
	if ((rc = change_begin(env, o)))
		return rc;
	change_phase(env, "lock");
	if ((rc = change_load(env, targets, n, full, t)))
		change_end();
	change_phase(env, "topology");
	return rc;
}

int change_load(struct cmd_env *env, char **targets, int n, bool full, struct ct_topology *t)
{
	if (ct_blocks_session_load(&session, targets, n, full, t)) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

void change_warn_auto_online(struct cmd_env *env)
{
	struct ct_auto_online a;

	ct_kernel_auto_online(env->ctx, &a);
	if (a.known && a.onlines && !a.movable)
		cmd_warn(env, "the kernel onlines hot-added memory itself (auto_online_blocks=%s): new CXL memory can land "
			 "in ZONE_NORMAL before cxltier runs and then never be removable; set it to offline "
			 "(memhp_default_state=offline on the kernel command line)", a.blocks);
	if (a.movable_node)
		cmd_info(env, 1, "movable_node is on the kernel command line");
}

/* what the session found of a run killed while it held the kernel's own
 * onlining off, said */
static void say_recovery(struct cmd_env *env, const struct ct_blocks_session *hs)
{
	switch (hs->recovery) {
	case CT_BLOCKS_RECOVERY_FAILED:
		cmd_warn(env, "%s", hs->recovery_error);
		break;
	case CT_BLOCKS_RECOVERY_RESTORED:
		cmd_warn(env, "an earlier cxltier was killed while it held the kernel's own onlining off: "
			 "auto_online_blocks set back to %s", hs->restored);
		break;
	case CT_BLOCKS_RECOVERY_LEFT:
		cmd_info(env, 1, "an earlier cxltier was killed while it held the kernel's own onlining off; "
			 "auto_online_blocks has been set since: left as it is");
		break;
	case CT_BLOCKS_RECOVERY_NONE:
		break;
	}
}

/* the region creates and destroys killed runs left, and what this run did
 * of them (the one that failed is said by the error that follows) */
static void say_regions(struct cmd_env *env, const struct ct_blocks_session *hs)
{
	for (size_t i = 0; i < hs->nregions; i++) {
		const struct ct_region_recovery *r = &hs->regions[i];
		if (r->failed)
			continue;
		if (r->block[0]) {
			cmd_warn(env, "a --reonline (pid %d, %s) was killed midway: %s: %s", r->pid, r->block, r->outcome,
				 r->done);
			continue;
		}
		cmd_warn(env, "a region %s (pid %d%s%s%s%s) was killed midway: %s: %s", r->command, r->pid,
			 r->region[0] ? ", " : "", r->region, r->decoders[0] ? ", decoders " : "", r->decoders,
			 r->outcome, r->done);
	}
}

const struct ct_region_recovery *change_recovered(size_t *n)
{
	*n = session.nregions;
	return session.regions;
}

/* root["recovered"]: the region changes of killed runs this run finished
 * or undone first, when there were any (region, online, offline -j) */
void change_recovered_json(json_object *root)
{
	size_t n;
	const struct ct_region_recovery *v = change_recovered(&n);
	json_object *a;

	if (!n)
		return;
	a = jb_arr(root, "recovered");
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_new_object(), *d = json_object_new_array();
		char names[sizeof(v[i].decoders)], *save = NULL;
		jb_int(o, "pid", v[i].pid);
		jb_str(o, "command", v[i].command);
		if (v[i].region[0])
			jb_str(o, "region", v[i].region);
		if (v[i].block[0])
			jb_str(o, "block", v[i].block);
		snprintf(names, sizeof(names), "%s", v[i].decoders);
		for (char *tok = strtok_r(names, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save))
			json_object_array_add(d, json_object_new_string(tok));
		json_object_object_add(o, "decoders", d);
		jb_str(o, "outcome", v[i].outcome);
		jb_str(o, "done", v[i].done);
		json_object_array_add(a, o);
	}
}

int change_begin(struct cmd_env *env, const struct change_opts *o)
{
	struct ct_blocks_opts eo;

	change_exec_opts(o, &eo);
	if (!o->dry_run) {
		stop_flag = 0;
		install_handlers();
	}
	if (ct_blocks_session_begin(&session, env->ctx, &eo, o->timeout_s * 1000, o->dry_run)) {
		if (handlers_on)
			restore_handlers();
		say_regions(env, &session);
		cmd_err(env, "%s", ct_context_message(env->ctx));
		return EXIT_FAIL;
	}
	say_recovery(env, &session);
	say_regions(env, &session);
	return EXIT_OK;
}

void change_end(void)
{
	ct_blocks_session_end(&session);
	if (handlers_on)
		restore_handlers();
}

void change_exec_opts(const struct change_opts *o, struct ct_blocks_opts *eo)
{
	*eo = (struct ct_blocks_opts){ o->rollback, o->timeout_s * 1000, &stop_flag, &timer_fired, arm_timer, NULL };
}

int change_check_columns(struct cmd_env *env)
{
	char err[256];

	if (!out_check_columns(&env->out, &table, err, sizeof(err)))
		return EXIT_OK;
	cmd_err(env, "%s", err);
	return EXIT_USAGE;
}

int change_run(struct cmd_env *env, struct ct_topology *t, char **targets, int n, struct ct_blocks_plan *plan,
	       const struct change_opts *o)
{
	struct op_rows rows = { plan, o->dry_run };
	json_object *root;
	size_t done = 0, unchanged = 0, bad = 0, rolled = 0, stuck = 0, half = 0;
	uint64_t bytes = 0, bs = 0;
	char err[256];

	change_phase(env, "plan (blocks read)");
	ct_blocks_session_run(&session, plan, o->want, o->reonline);	/* the lock released */
	change_end();
	change_phase(env, "execute (blocks written, read back)");
	ct_block_size_cached(env->ctx, &bs);
	ct_error_clear(&env->ctx->err);
	root = json_object_new_object();
	jb_arr(root, "blocks");	/* its records are made as they are printed */
	for (size_t i = 0; i < plan->n; i++) {
		const struct ct_block_op *op = &plan->op[i];
		switch (op->result) {
		case CT_RES_DONE: done++; bytes += bs; break;
		case CT_RES_UNCHANGED: unchanged++; break;
		case CT_RES_PLANNED:
			if (op->action != CT_ACT_REFUSE)
				break;
			bad++;
			cmd_err(env, "memory%llu%s%s%s: refused: %s", (unsigned long long)op->before.id,
				op->owner[0] ? " (" : "", op->owner, op->owner[0] ? ")" : "", ct_blocks_note_of(op));
			break;
		case CT_RES_ROLLED_BACK: rolled++; break;
		case CT_RES_ROLLBACK_FAILED:
			stuck++;	/* changed, and stays so */
			bytes += bs;
			cmd_err(env, "memory%llu%s%s%s: rollback_failed: %s", (unsigned long long)op->before.id,
				op->owner[0] ? " (" : "", op->owner, op->owner[0] ? ")" : "", ct_blocks_note_of(op));
			break;
		case CT_RES_HALF_DONE:
			half++;	/* not as asked, and not as before either */
			bad++;
			cmd_err(env, "memory%llu%s%s%s: half_done: %s", (unsigned long long)op->before.id,
				op->owner[0] ? " (" : "", op->owner, op->owner[0] ? ")" : "", ct_blocks_note_of(op));
			break;
		default:
			bad++;
			cmd_err(env, "memory%llu%s%s%s: %s%s%s", (unsigned long long)op->before.id,
				op->owner[0] ? " (" : "", op->owner, op->owner[0] ? ")" : "", ct_blocks_result_name(op->result),
				ct_blocks_note_of(op)[0] ? ": " : "", ct_blocks_note_of(op));
		}
	}
	scope_report(env, t, targets, n, plan, root);
	if (env->out.json)
		change_recovered_json(root);
	if (o->regions)
		json_object_object_add(root, "new_regions", json_object_get(o->regions));
	if (out_print_rows(&env->out, &table, root, "blocks", plan->n, op_row, &rows, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		json_object_put(root);
		return EXIT_USAGE;
	}
	json_object_put(root);
	change_phase(env, "report");
	if (o->dry_run) {
		size_t change = 0;
		for (size_t i = 0; i < plan->n; i++)
			change += plan->op[i].action != CT_ACT_NONE && plan->op[i].action != CT_ACT_REFUSE;
		fprintf(stderr, "cxltier %s: dry run: %zu of %zu blocks would change; nothing was changed\n",
			env->cmd, change, plan->n);
		/* the status the real run would have */
		if (o->regions_failed)
			return change || plan->n ? EXIT_PARTIAL : EXIT_FAIL;
		if (o->targets_failed)
			return change ? EXIT_PARTIAL : EXIT_FAIL;
		return !bad ? EXIT_OK : change ? EXIT_PARTIAL : EXIT_FAIL;
	}
	{
		char hs[32], rb[96] = "";
		if (rolled || stuck)
			snprintf(rb, sizeof(rb), "; rolled back %zu of the %zu that had changed", rolled, rolled + stuck);
		fprintf(stderr, "cxltier %s: %zu blocks changed (%s), %zu already as asked, %zu not%s\n", env->cmd,
			done + stuck, out_human_size(bytes, hs, sizeof(hs)), unchanged, bad + rolled, rb);
	}
	if (stop_flag)
		cmd_err(env, "stopped by a signal before every block was handled");
	if (half)
		cmd_err(env, "%zu block%s left OFFLINE by --reonline (named above): 'cxltier online' them again once the cause "
			"is gone", half, half == 1 ? "" : "s");
	if ((done || stuck) && bad)
		cmd_err(env, "memory left partly %s: see the blocks named above", o->want == CT_WANT_OFFLINE ? "offlined" : "onlined");
	if (o->regions_failed)	/* named before the blocks */
		return done || unchanged || stuck || half || o->regions_made ? EXIT_PARTIAL : EXIT_FAIL;
	if (o->targets_failed)	/* named before the blocks */
		return done || stuck || half ? EXIT_PARTIAL : EXIT_FAIL;
	if (!bad)
		return EXIT_OK;
	if (stuck || half)
		return EXIT_PARTIAL;	/* the rollback left some changed, or a reonline half done */
	if (rolled)
		return EXIT_FAIL;	/* nothing changed in the end */
	return done || o->regions_made ? EXIT_PARTIAL : EXIT_FAIL;
}
