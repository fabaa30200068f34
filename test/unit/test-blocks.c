// SPDX-License-Identifier: GPL-2.0-only
/* test-blocks.c - executing a plan against a kernel that says no: the
 * state writes go through a stand-in for the kernel (linked with
 * --wrap=ct_sysfs_write_str), which keeps state and valid_zones as the
 * kernel would, and fails, races or signals where a test asks; and the
 * plan of blocks named twice */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "change/blocks.h"
#include "tree.h"

#define MEM "/sys/devices/system/memory"

int __real_ct_sysfs_write_str(struct ct_sysfs *s, const char *path, const char *val);

static char root[256];
static volatile sig_atomic_t stop;

/* the caller's one-shot timer: what it was last armed with, and what it
 * was armed with when an offline write came */
static unsigned armed, armed_at_offline;
static void arm_timer(unsigned ms)
{
	armed = ms;
}

/* what the stand-in does on a block's next write of a state */
static struct {
	unsigned long long id;
	const char *state;	/* the write it acts on */
	int err;		/* returned instead of taking the write (0: take it) */
	const char *other;	/* before that: someone else puts the block here ("online Movable") */
	bool signal;		/* the write is taken, and a SIGINT "arrives" */
	unsigned times;		/* how many writes it acts on (0: every one) */
	const char *into;	/* the write is taken, the block goes into this zone instead */
} fault[4];
static unsigned nfault;

static void put_block(unsigned long long id, const char *state, const char *zones)
{
	char p[128], line[64];

	snprintf(p, sizeof(p), MEM "/memory%llu/state", id);
	snprintf(line, sizeof(line), "%s\n", state);
	tree_put(root, p, line);
	snprintf(p, sizeof(p), MEM "/memory%llu/valid_zones", id);
	snprintf(line, sizeof(line), "%s\n", zones);
	tree_put(root, p, line);
}

static void read_block(unsigned long long id, char *state, char *zones)
{
	char p[640];
	FILE *f;

	state[0] = zones[0] = '\0';
	snprintf(p, sizeof(p), "%s" MEM "/memory%llu/state", root, id);
	if ((f = fopen(p, "r"))) {
		if (fscanf(f, "%31s", state) != 1)
			state[0] = '\0';
		fclose(f);
	}
	snprintf(p, sizeof(p), "%s" MEM "/memory%llu/valid_zones", root, id);
	if ((f = fopen(p, "r"))) {
		if (fscanf(f, "%31s", zones) != 1)
			zones[0] = '\0';
		fclose(f);
	}
}

/* the kernel's state_store: the current state again is EINVAL */
int __wrap_ct_sysfs_write_str(struct ct_sysfs *s, const char *path, const char *val);
int __wrap_ct_sysfs_write_str(struct ct_sysfs *s, const char *path, const char *val)
{
	unsigned long long id;
	char state[32], zones[32];

	if (sscanf(path, MEM "/memory%llu/state", &id) != 1)
		return __real_ct_sysfs_write_str(s, path, val);
	for (unsigned i = 0; i < nfault; i++) {
		if (fault[i].id != id || strcmp(fault[i].state, val) || fault[i].times == ~0u)
			continue;
		if (fault[i].times && --fault[i].times == 0)
			fault[i].times = ~0u;	/* used up */
		if (fault[i].other) {
			char st[16], zn[16];
			if (sscanf(fault[i].other, "%15s %15s", st, zn) != 2)
				snprintf(zn, sizeof(zn), "Movable");
			put_block(id, st, zn);
		}
		if (fault[i].signal)
			stop = 1;
		if (fault[i].err)
			return ct_fail(s->err, fault[i].err, "stand-in: %s to memory%llu refused", val, id);
		if (fault[i].into) {
			put_block(id, "online", fault[i].into);
			return 0;
		}
		break;
	}
	read_block(id, state, zones);
	if (!strcmp(val, "offline")) {
		armed_at_offline = armed;
		if (!strcmp(state, "offline"))
			return ct_fail(s->err, EINVAL, "stand-in: offline already");
		put_block(id, "offline", "Normal Movable");
	} else {
		if (!strcmp(state, "online"))
			return ct_fail(s->err, EINVAL, "stand-in: online already");
		put_block(id, "online", !strcmp(val, "online_movable") ? "Movable" : "Normal");
	}
	return 0;
}

static struct ct_error err;
static struct ct_sysfs sys;

static void setup(void)
{
	if (root[0]) {
		ct_sysfs_close(&sys);
		tap_rm_tree(root);
	}
	memset(fault, 0, sizeof(fault));
	nfault = 0;
	stop = 0;
	if (!mkdtemp(tap_tmp_template(root, sizeof(root), "cxltier-test-blocks")) || ct_sysfs_open(&sys, root, &err)) {
		fprintf(stderr, "# no tree\n");
		exit(1);
	}
}

static void teardown(void)
{
	ct_sysfs_close(&sys);
	tap_rm_tree(root);
	root[0] = '\0';
}

static int run(struct ct_blocks_plan *p, enum ct_blocks_want want, bool reonline, bool rollback)
{
	struct ct_blocks_opts o = { rollback, 0, &stop, NULL, NULL, NULL, NULL, NULL };

	ct_blocks_plan_decide(p, want, reonline);
	return ct_blocks_execute(&sys, p, &o);
}

static void plan_of(struct ct_blocks_plan *p, unsigned long long first, unsigned n)
{
	memset(p, 0, sizeof(*p));
	for (unsigned i = 0; i < n; i++)
		if (ct_blocks_plan_add(&sys, p, first + i, "dax0.0", 1))
			fprintf(stderr, "# memory%llu: %s\n", first + i, err.msg);
}

#define is_block(id, st, zn, ...) do { char _s[32], _z[32]; read_block(id, _s, _z); \
	ok(!strcmp(_s, st) && !strcmp(_z, zn), __VA_ARGS__); \
	if (strcmp(_s, st) || strcmp(_z, zn)) fprintf(stderr, "#   memory%llu: %s %s\n", (unsigned long long)(id), _s, _z); \
} while (0)

/* someone else put the block where the run wanted it: as asked */
static void raced_into_place(void)
{
	struct ct_blocks_plan p;

	setup();
	put_block(34, "offline", "Normal Movable");
	put_block(35, "offline", "Normal Movable");
	fault[nfault++] = (typeof(fault[0])){ .id = 34, .state = "online_movable", .other = "online Movable" };
	plan_of(&p, 34, 2);
	is_int(run(&p, CT_WANT_MOVABLE, false, false), 0, "online: a block a udev rule onlined movable first is no failure");
	is_str(ct_blocks_result_name(p.op[0].result), "unchanged", "it is unchanged (%s)", ct_blocks_note_of(&p.op[0]));
	ok(strstr(ct_blocks_note_of(&p.op[0]), "someone else") != NULL, "with a note saying who did it");
	is_str(ct_blocks_result_name(p.op[1].result), "done", "the next block is onlined");
	ct_blocks_plan_free(&p);

	setup();
	put_block(34, "online", "Movable");
	fault[nfault++] = (typeof(fault[0])){ .id = 34, .state = "offline", .other = "offline Movable" };
	plan_of(&p, 34, 1);
	is_int(run(&p, CT_WANT_OFFLINE, false, false), 0, "offline: a block someone else offlined first is no failure");
	is_str(ct_blocks_result_name(p.op[0].result), "unchanged", "unchanged");
	ct_blocks_plan_free(&p);

	setup();
	put_block(34, "offline", "Normal Movable");
	fault[nfault++] = (typeof(fault[0])){ .id = 34, .state = "online_movable", .other = "online Normal" };
	plan_of(&p, 34, 1);
	is_int(run(&p, CT_WANT_MOVABLE, false, false), 1, "but one onlined into ZONE_NORMAL by someone else is not as asked");
	is_str(ct_blocks_result_name(p.op[0].result), "raced", "raced");
	ct_blocks_plan_free(&p);
}

/* online --kernel: a block someone else onlined into ZONE_NORMAL first is
 * as asked; one onlined movable is not */
static void raced_into_kernel(void)
{
	struct ct_blocks_plan p;

	setup();
	put_block(34, "offline", "Normal Movable");
	fault[nfault++] = (typeof(fault[0])){ .id = 34, .state = "online_kernel", .other = "online Normal" };
	plan_of(&p, 34, 1);
	is_int(run(&p, CT_WANT_KERNEL, false, false), 0, "online --kernel: a block someone else onlined into Normal first is no failure");
	is_str(ct_blocks_result_name(p.op[0].result), "unchanged", "it is unchanged (%s)", ct_blocks_note_of(&p.op[0]));
	ct_blocks_plan_free(&p);

	setup();
	put_block(34, "offline", "Normal Movable");
	fault[nfault++] = (typeof(fault[0])){ .id = 34, .state = "online_kernel", .other = "online Movable" };
	plan_of(&p, 34, 1);
	is_int(run(&p, CT_WANT_KERNEL, false, false), 1, "online --kernel: one someone else onlined movable is not as asked");
	is_str(ct_blocks_result_name(p.op[0].result), "raced", "raced, not unchanged (%s)", ct_blocks_note_of(&p.op[0]));
	ct_blocks_plan_free(&p);
}

/* EBUSY is retried within the block's time: a block busy at the first
 * write is changed at a later one */
static void busy_retried(void)
{
	struct ct_blocks_plan p;
	struct ct_blocks_opts o = { false, 2000, &stop, NULL, NULL, NULL, NULL, NULL };

	setup();
	put_block(34, "offline", "Normal Movable");
	fault[nfault++] = (typeof(fault[0])){ .id = 34, .state = "online_movable", .err = EBUSY, .times = 1 };
	plan_of(&p, 34, 1);
	ct_blocks_plan_decide(&p, CT_WANT_MOVABLE, false);
	is_int(ct_blocks_execute(&sys, &p, &o), 0, "online: busy at the first write, taken at the next");
	is_str(ct_blocks_result_name(p.op[0].result), "done", "done (%s)", ct_blocks_note_of(&p.op[0]));
	is_block(34, "online", "Movable", "online, movable");
	ct_blocks_plan_free(&p);

	setup();
	put_block(34, "online", "Normal");
	fault[nfault++] = (typeof(fault[0])){ .id = 34, .state = "offline", .err = EBUSY, .times = 2 };
	plan_of(&p, 34, 1);
	ct_blocks_plan_decide(&p, CT_WANT_OFFLINE, false);
	is_int(ct_blocks_execute(&sys, &p, &o), 0, "offline: busy twice, taken at the third write");
	is_str(ct_blocks_result_name(p.op[0].result), "done", "done (%s)", ct_blocks_note_of(&p.op[0]));
	ct_blocks_plan_free(&p);
}

/* a block named twice (overlapping targets) is planned once, before and
 * after the plan's set of ids has grown (at the 65th block) */
static void named_twice(void)
{
	struct ct_topology t = { .block_size = 128ull << 20 };
	struct ct_blocks_plan p;
	unsigned times[120] = { 0 }, wrong = 0;

	setup();
	for (unsigned id = 30; id < 120; id++)
		put_block(id, "offline", "Normal Movable");
	memset(&p, 0, sizeof(p));
	is_int(ct_blocks_plan_add_target(&sys, &t, &p, "memory32-111", NULL), 0, "memory32-111 planned %s", err.msg);
	is_int(p.n, 80, "its 80 blocks");
	is_int(ct_blocks_plan_add_target(&sys, &t, &p, "memory100-119", NULL), 0, "then memory100-119 %s", err.msg);
	is_int(ct_blocks_plan_add_target(&sys, &t, &p, "memory30-40", NULL), 0, "then memory30-40 %s", err.msg);
	is_int(p.n, 90, "the blocks named twice are planned once: 90 blocks, memory30-119");
	for (size_t i = 0; i < p.n; i++)
		if (p.op[i].before.id < 120)
			times[p.op[i].before.id]++;
	for (unsigned id = 30; id < 120; id++)
		wrong += times[id] != 1;
	is_int(wrong, 0, "each block once in the plan");
	ct_blocks_plan_free(&p);
}

/* a write that failed otherwise than "already there" (EINVAL) is a failure,
 * wherever the block is after it; a block the kernel onlined into another
 * zone than Movable is not onlined as asked */
static void not_as_asked(void)
{
	struct ct_blocks_plan p;

	setup();
	put_block(34, "offline", "Normal Movable");
	fault[nfault++] = (typeof(fault[0])){ .id = 34, .state = "online_movable", .other = "online Movable", .err = EIO };
	plan_of(&p, 34, 1);
	is_int(run(&p, CT_WANT_MOVABLE, false, false), 1, "online: a write refused with EIO is a failure");
	is_str(ct_blocks_result_name(p.op[0].result), "failed", "failed, though the block reads online (%s)", ct_blocks_note_of(&p.op[0]));
	ct_blocks_plan_free(&p);

	setup();
	put_block(34, "offline", "Normal Movable");
	fault[nfault++] = (typeof(fault[0])){ .id = 34, .state = "online_movable", .into = "Normal" };
	plan_of(&p, 34, 1);
	is_int(run(&p, CT_WANT_MOVABLE, false, false), 1, "online: the kernel took online_movable and chose Normal");
	is_str(ct_blocks_result_name(p.op[0].result), "failed", "failed");
	ok(strstr(ct_blocks_note_of(&p.op[0]), "into Normal instead of Movable") != NULL, "saying so: %s", ct_blocks_note_of(&p.op[0]));
	ct_blocks_plan_free(&p);
}

/* --reonline --rollback: a reonlined block goes back to Normal through offline */
static void reonline_rollback(void)
{
	struct ct_blocks_plan p;

	setup();
	put_block(34, "online", "Normal");
	put_block(35, "online", "Normal");
	fault[nfault++] = (typeof(fault[0])){ .id = 35, .state = "offline", .err = EBUSY };
	plan_of(&p, 34, 2);
	is_int(run(&p, CT_WANT_MOVABLE, true, true), 1, "the second block cannot be offlined: one not as asked");
	is_str(ct_blocks_result_name(p.op[0].result), "rolled_back", "the first, reonlined, is rolled back (%s)", ct_blocks_note_of(&p.op[0]));
	is_block(34, "online", "Normal", "online in ZONE_NORMAL again");
	is_str(ct_blocks_result_name(p.op[1].result), "failed", "the second failed");
	is_block(35, "online", "Normal", "and stayed where it was");
	ct_blocks_plan_free(&p);
}

/* the online half of a reonline fails */
static void reonline_half(void)
{
	struct ct_blocks_plan p;

	setup();
	put_block(34, "online", "Normal");
	fault[nfault++] = (typeof(fault[0])){ .id = 34, .state = "online_movable", .err = EHWPOISON };
	plan_of(&p, 34, 1);
	is_int(run(&p, CT_WANT_MOVABLE, true, false), 1, "online_movable refused after the offline: not as asked");
	is_str(ct_blocks_result_name(p.op[0].result), "failed", "failed (%s)", ct_blocks_note_of(&p.op[0]));
	ok(strstr(ct_blocks_note_of(&p.op[0]), "put back online") != NULL, "saying the block was put back");
	is_block(34, "online", "Normal", "online where it was, not left offline");
	ct_blocks_plan_free(&p);

	setup();
	put_block(34, "online", "Normal");
	fault[nfault++] = (typeof(fault[0])){ .id = 34, .state = "online_movable", .err = EHWPOISON };
	fault[nfault++] = (typeof(fault[0])){ .id = 34, .state = "online_kernel", .err = EHWPOISON };
	plan_of(&p, 34, 1);
	is_int(run(&p, CT_WANT_MOVABLE, true, false), 1, "neither online write taken");
	is_str(ct_blocks_result_name(p.op[0].result), "half_done", "half_done, not failed (%s)", ct_blocks_note_of(&p.op[0]));
	ok(p.op[0].after.state == CT_BLOCK_OFFLINE && strstr(ct_blocks_note_of(&p.op[0]), "now offline"), "the block offline, said so");
	ct_blocks_plan_free(&p);

	setup();
	put_block(34, "online", "Normal");
	fault[nfault++] = (typeof(fault[0])){ .id = 34, .state = "online_movable", .err = EHWPOISON };
	fault[nfault++] = (typeof(fault[0])){ .id = 34, .state = "online_kernel", .err = ENOMEM, .times = 1 };
	plan_of(&p, 34, 1);
	is_int(run(&p, CT_WANT_MOVABLE, true, true), 1, "with --rollback: not as asked");
	is_str(ct_blocks_result_name(p.op[0].result), "rolled_back", "the rollback onlines the half-done block (%s)", ct_blocks_note_of(&p.op[0]));
	is_block(34, "online", "Normal", "online where it was");
	ct_blocks_plan_free(&p);

	/* SIGINT while the offline half ran: the online half is made all the same */
	setup();
	put_block(34, "online", "Normal");
	put_block(35, "online", "Normal");
	fault[nfault++] = (typeof(fault[0])){ .id = 34, .state = "offline", .signal = true };
	plan_of(&p, 34, 2);
	is_int(run(&p, CT_WANT_MOVABLE, true, false), 1, "a signal during the offline half: the run stops after the block");
	is_str(ct_blocks_result_name(p.op[0].result), "done", "the block being reonlined ends done (%s)", ct_blocks_note_of(&p.op[0]));
	is_block(34, "online", "Movable", "online, movable: never left offline");
	is_str(ct_blocks_result_name(p.op[1].result), "interrupted", "the next one is not started");
	is_block(35, "online", "Normal", "and is where it was");
	ct_blocks_plan_free(&p);
}

/* --rollback after an online run: undoing it is an offline write, which
 * the kernel may block in; it is timed as the run's own offline writes */
static void rollback_timed(void)
{
	struct ct_blocks_plan p;
	struct ct_blocks_opts o = { true, 300, &stop, NULL, arm_timer, NULL, NULL, NULL };

	setup();
	put_block(34, "offline", "Normal Movable");
	put_block(35, "offline", "Normal Movable");
	fault[nfault++] = (typeof(fault[0])){ .id = 35, .state = "online_movable", .err = EBUSY };
	plan_of(&p, 34, 2);
	armed = armed_at_offline = 0;
	ct_blocks_plan_decide(&p, CT_WANT_MOVABLE, false);
	is_int(ct_blocks_execute(&sys, &p, &o), 1, "the second block cannot be onlined");
	is_str(ct_blocks_result_name(p.op[0].result), "rolled_back", "the first is rolled back");
	ok(armed_at_offline > 0 && armed_at_offline <= 300, "its offline write ran under the run's timer (%u ms)",
	   armed_at_offline);
	is_int(armed, 0, "disarmed after");
	ct_blocks_plan_free(&p);
}

int main(void)
{
	raced_into_place();
	raced_into_kernel();
	busy_retried();
	named_twice();
	not_as_asked();
	reonline_rollback();
	reonline_half();
	rollback_timed();
	teardown();
	return tap_done();
}
