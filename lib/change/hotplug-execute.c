// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "change/hotplug.h"

#define MEMDIR "/sys/devices/system/memory"

const char *ct_hotplug_action_name(enum ct_hotplug_action a)
{
	static const char *const n[] = { "none", "online_movable", "online_kernel", "offline", "reonline_movable", "refuse" };
	return a <= CT_ACT_REFUSE ? n[a] : "?";
}

const char *ct_hotplug_result_name(enum ct_hotplug_result r)
{
	static const char *const n[] = { "planned", "done", "unchanged", "failed", "raced", "refused", "rolled_back",
					 "interrupted", "rollback_failed", "half_done" };
	return r <= CT_RES_HALF_DONE ? n[r] : "?";
}

static int block_node(struct ct_sysfs *s, uint64_t id)
{
	char path[128], **names;
	size_t n;
	int node = -1;

	if (ct_sysfs_list(s, ct_path(path, sizeof(path), MEMDIR "/memory%llu", (unsigned long long)id), "node",
			  &names, &n))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (names[i][4] >= '0' && names[i][4] <= '9')
			node = atoi(names[i] + 4);
	ct_strv_free(names, n);
	return node;
}

int ct_hotplug_plan_add(struct ct_sysfs *s, struct ct_hotplug_plan *p, uint64_t id, const char *owner, int node)
{
	struct ct_block_op *op;
	int rc;

	for (size_t i = 0; i < p->n; i++)
		if (p->op[i].before.id == id)
			return 0;
	op = realloc(p->op, (p->n + 1) * sizeof(*op));
	if (!op)
		return ct_fail(s->err, ENOMEM, "out of memory");
	p->op = op;
	op = &p->op[p->n];
	memset(op, 0, sizeof(*op));
	rc = ct_block_read_state(s, id, &op->before);
	if (!rc && (op->before.state != CT_BLOCK_OFFLINE || p->all_zones))
		ct_block_read_zones(s, &op->before);
	if (rc == -ENOENT)
		return ct_fail(s->err, ENOENT, "memory block memory%llu does not exist (not hot-added, or not memory)",
			       (unsigned long long)id);
	if (rc)
		return rc;
	op->node = node >= 0 ? node : block_node(s, id);
	ct_error_clear(s->err);
	if (owner)
		ct_strlcpy(op->owner, owner, sizeof(op->owner));
	op->after = op->before;
	p->n++;
	return 0;
}

static bool zone_offered(const struct ct_block *b, enum ct_zone z)
{
	for (unsigned i = 0; i < b->nzones; i++)
		if (b->zones[i] == z)
			return true;
	return false;
}

static enum ct_zone online_zone(const struct ct_block *b)
{
	return b->state == CT_BLOCK_ONLINE && b->nzones == 1 ? b->zones[0] : CT_ZONE_NONE;
}

void ct_hotplug_plan_decide(struct ct_hotplug_plan *p, enum ct_hotplug_want want, bool reonline)
{
	for (size_t i = 0; i < p->n; i++) {
		struct ct_block_op *op = &p->op[i];
		const struct ct_block *b = &op->before;
		enum ct_zone z = online_zone(b);

		op->note[0] = '\0';
		op->result = CT_RES_PLANNED;
		if (b->state == CT_BLOCK_GOING_OFFLINE || b->state == CT_BLOCK_UNKNOWN) {
			op->action = CT_ACT_REFUSE;
			snprintf(op->note, sizeof(op->note), "in state %s: try again later", ct_block_state_name(b->state));
			continue;
		}
		switch (want) {
		case CT_WANT_OFFLINE:
			op->action = b->state == CT_BLOCK_OFFLINE ? CT_ACT_NONE : CT_ACT_OFFLINE;
			if (op->action == CT_ACT_OFFLINE && b->nzones == 1 && b->zones[0] == CT_ZONE_NONE) {
				op->action = CT_ACT_REFUSE;
				snprintf(op->note, sizeof(op->note), "spans several zones (valid_zones: none): the kernel cannot offline it");
			}
			break;
		case CT_WANT_KERNEL:
			if (b->state == CT_BLOCK_ONLINE && z == CT_ZONE_MOVABLE) {
				/* not as asked: refused, as a Normal block is for movable */
				op->action = CT_ACT_REFUSE;
				snprintf(op->note, sizeof(op->note),
					 "online in ZONE_MOVABLE, not normal: offline it first to change the zone");
			} else if (b->state == CT_BLOCK_ONLINE) {
				op->action = CT_ACT_NONE;
			} else {
				op->action = CT_ACT_ONLINE_KERNEL;
			}
			break;
		case CT_WANT_MOVABLE:
			if (b->state == CT_BLOCK_OFFLINE) {
				if (b->nzones && !zone_offered(b, CT_ZONE_MOVABLE)) {
					op->action = CT_ACT_REFUSE;
					snprintf(op->note, sizeof(op->note), "the kernel does not offer ZONE_MOVABLE for it (valid_zones: %s)",
						 ct_zone_name(b->zones[0]));
				} else {
					op->action = CT_ACT_ONLINE_MOVABLE;
				}
			} else if (z == CT_ZONE_MOVABLE) {
				op->action = CT_ACT_NONE;
			} else if (reonline || op->reonline) {
				op->action = CT_ACT_REONLINE;
			} else {
				op->action = CT_ACT_REFUSE;
				snprintf(op->note, sizeof(op->note),
					 "online in ZONE_%s, not movable: it cannot be moved without offlining (--reonline does that)",
					 z == CT_ZONE_NONE ? "NONE" : z == CT_ZONE_NORMAL ? "NORMAL" : ct_zone_name(z));
			}
			break;
		}
	}
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);	/* a signal ends it early: the caller checks stop */
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static int write_state(struct ct_sysfs *s, uint64_t id, const char *state)
{
	char path[128];

	return ct_sysfs_write_str(s, ct_path(path, sizeof(path), MEMDIR "/memory%llu/state", (unsigned long long)id),
				  state);
}

static const char *reason(int err)
{
	switch (err) {
	case EBUSY: return "busy: unmovable or pinned pages (or the range could not be isolated)";
	case EINTR: return "interrupted by a signal";
	case ETIMEDOUT: return "still busy when its time ran out (--timeout): pages that cannot migrate (pinned, under I/O, or unmovable)";
	case EINVAL: return "invalid: the block is already in that state, spans zones, or the zone is not allowed";
	case ENOMEM: return "out of memory";
	case EPERM: case EACCES: return "permission denied: run as root";
	case EAGAIN: return "try again";
	default: return strerror(err);
	}
}

/* one state write, retrying EBUSY with back-off until the block's time is
 * up; a write the kernel blocks in (offline migrating pages) is ended by
 * the caller's timer. While another writer holds the hotplug lock the
 * kernel restarts the write whatever signal comes: the timer goes on
 * ticking after its deadline, so that the write, once it has the lock, is
 * still ended. Online writes are not timed: the kernel never waits in them
 * for long. 0, -ETIMEDOUT, -EINTR (stopped) or -errno. */
static int change(struct ct_sysfs *s, struct ct_block_op *op, const char *state, const struct ct_hotplug_opts *o)
{
	long deadline = now_ms() + o->block_timeout_ms;
	bool timed = o->arm_timer && o->block_timeout_ms && !strcmp(state, "offline");
	unsigned backoff = 50;
	int rc;

	if (o->timed_out)
		*o->timed_out = 0;
	for (;;) {
		long left = deadline - now_ms();
		if (o->stop && *o->stop)
			return -EINTR;
		if (timed)
			o->arm_timer(left > 0 ? (unsigned)left : 1);
		rc = write_state(s, op->before.id, state);
		if (timed)
			o->arm_timer(0);
		if (rc == -EINTR && o->timed_out && *o->timed_out && !(o->stop && *o->stop))
			return -ETIMEDOUT;
		if (rc == 0 || rc == -EINTR)
			return rc;
		if ((rc == -EBUSY || rc == -EAGAIN) && now_ms() < deadline) {
			sleep_ms(backoff);
			if (backoff < 1000)
				backoff *= 2;
			continue;
		}
		return rc;
	}
}

static const char *state_for(enum ct_hotplug_action a)
{
	switch (a) {
	case CT_ACT_ONLINE_MOVABLE: return "online_movable";
	case CT_ACT_ONLINE_KERNEL: return "online_kernel";
	case CT_ACT_OFFLINE: return "offline";
	default: return NULL;
	}
}

/* the same state, and online in the same zone (an offline block's candidate
 * zones are not compared: they change with its neighbours, and are not
 * always read) */
static bool same_place(const struct ct_block *a, const struct ct_block *b)
{
	return a->state == b->state && (a->state != CT_BLOCK_ONLINE || online_zone(a) == online_zone(b));
}

/* the block, read back after a refused write, is where the action takes it */
static bool as_wanted(enum ct_hotplug_action a, const struct ct_block *b)
{
	enum ct_zone z = online_zone(b);

	switch (a) {
	case CT_ACT_OFFLINE:
		return b->state == CT_BLOCK_OFFLINE;
	case CT_ACT_ONLINE_MOVABLE:
	case CT_ACT_REONLINE:
		return z == CT_ZONE_MOVABLE;
	case CT_ACT_ONLINE_KERNEL:
		return b->state == CT_BLOCK_ONLINE && z != CT_ZONE_MOVABLE && z != CT_ZONE_NONE;
	default:
		return false;
	}
}

/* --reonline offlined the block, and onlining it movable failed (rc): it
 * goes back online where it was; true when it could not (half_done, the
 * block offline and named), false to report the failure as any other */
static bool half_done(struct ct_sysfs *s, struct ct_block_op *op, int rc, const struct ct_hotplug_opts *o)
{
	int back;

	ct_block_read(s, op->before.id, &op->after);
	ct_error_clear(s->err);
	if (op->after.state != CT_BLOCK_OFFLINE)
		return false;	/* online after all (someone else): as any refused write */
	back = change(s, op, "online_kernel", o);
	ct_block_read(s, op->before.id, &op->after);
	ct_error_clear(s->err);
	op->err = -rc;
	if (!back && same_place(&op->after, &op->before)) {
		op->result = CT_RES_FAILED;
		snprintf(op->note, sizeof(op->note), "offlined, then onlining it movable failed (%s): put back online "
			 "where it was", reason(-rc));
		return true;
	}
	op->result = CT_RES_HALF_DONE;
	snprintf(op->note, sizeof(op->note), "offlined for --reonline, then onlining it failed (%s; back where it "
		 "was: %s): now %s, its memory lost to the system until onlined", reason(-rc),
		 back ? reason(-back) : "the kernel took the write, but the block did not go back",
		 ct_block_state_name(op->after.state));
	return true;
}

static void run_one(struct ct_sysfs *s, struct ct_block_op *op, const struct ct_hotplug_opts *o)
{
	int rc;

	if (op->action == CT_ACT_NONE) {
		op->result = CT_RES_UNCHANGED;
		return;
	}
	if (op->action == CT_ACT_REFUSE) {
		op->result = CT_RES_REFUSED;
		return;
	}
	if (o->stop && *o->stop) {
		op->result = CT_RES_INTERRUPTED;
		return;
	}
	if (op->action == CT_ACT_REONLINE) {
		rc = change(s, op, "offline", o);
		if (!rc) {
			/* the block is offline now: the online half is made
			 * whatever signal came meanwhile (an online write is short) */
			struct ct_hotplug_opts go_on = *o;
			go_on.stop = NULL;
			if ((rc = change(s, op, "online_movable", &go_on)) && half_done(s, op, rc, &go_on))
				return;
		}
	} else {
		rc = change(s, op, state_for(op->action), o);
	}
	if (rc) {
		ct_block_read(s, op->before.id, &op->after);
		ct_error_clear(s->err);
		op->err = -rc;
		/* someone else (udev, daxctl, the kernel's auto-online) put it
		 * where it was wanted first: as asked */
		if (rc == -EINVAL && as_wanted(op->action, &op->after)) {
			op->result = CT_RES_UNCHANGED;
			op->err = 0;
			snprintf(op->note, sizeof(op->note), "put %s by someone else while cxltier ran",
				 op->after.state == CT_BLOCK_OFFLINE ? "offline" : "online in that zone");
			return;
		}
		/* the zones of an offline block are read when the kernel refuses it */
		if (rc == -EINVAL && op->action == CT_ACT_ONLINE_MOVABLE && op->after.state == CT_BLOCK_OFFLINE &&
		    op->after.nzones && !zone_offered(&op->after, CT_ZONE_MOVABLE)) {
			op->before = op->after;
			op->result = CT_RES_REFUSED;
			snprintf(op->note, sizeof(op->note), "the kernel does not offer ZONE_MOVABLE for it (valid_zones: %s)",
				 ct_zone_name(op->after.zones[0]));
			return;
		}
		/* someone else (udev, the kernel's auto-online) got there first */
		if (rc == -EINVAL && !same_place(&op->after, &op->before)) {
			op->result = CT_RES_RACED;
			snprintf(op->note, sizeof(op->note), "changed by someone else while cxltier ran: now %s%s%s",
				 ct_block_state_name(op->after.state), op->after.state == CT_BLOCK_ONLINE && op->after.nzones ? " in " : "",
				 op->after.state == CT_BLOCK_ONLINE && op->after.nzones ? ct_zone_name(op->after.zones[0]) : "");
			return;
		}
		op->result = rc == -EINTR ? CT_RES_INTERRUPTED : CT_RES_FAILED;
		snprintf(op->note, sizeof(op->note), "%s", reason(-rc));
		return;
	}
	/* the kernel took the write: the state is the one written; an online
	 * block's zone is read back (the kernel may pick another than asked),
	 * and its state too when the zones do not look online */
	op->after = op->before;
	op->after.state = op->action == CT_ACT_OFFLINE ? CT_BLOCK_OFFLINE : CT_BLOCK_ONLINE;
	op->after.nzones = 0;
	if (op->after.state == CT_BLOCK_ONLINE) {
		ct_block_read_zones(s, &op->after);
		if (op->after.nzones != 1)
			ct_block_read(s, op->before.id, &op->after);
		ct_error_clear(s->err);
	}
	op->result = CT_RES_DONE;
	if (op->after.state != (op->action == CT_ACT_OFFLINE ? CT_BLOCK_OFFLINE : CT_BLOCK_ONLINE)) {
		op->result = CT_RES_FAILED;
		op->err = EIO;
		snprintf(op->note, sizeof(op->note), "the kernel took the write, but the block reads %s",
			 ct_block_state_name(op->after.state));
	} else if ((op->action == CT_ACT_ONLINE_MOVABLE || op->action == CT_ACT_REONLINE) &&
		   op->after.nzones && online_zone(&op->after) != CT_ZONE_MOVABLE) {
		/* the kernel may pick another zone than asked (daxctl checks this too) */
		op->result = CT_RES_FAILED;
		op->err = EBUSY;
		snprintf(op->note, sizeof(op->note), "onlined, but into %s instead of Movable", ct_zone_name(op->after.zones[0]));
	}
}

/* each block once more, within the run's per-block time (2 s of EBUSY
 * retries when none was given): an offline write (undoing an online) is
 * bounded by it as the run's own are, since the kernel's offline_pages
 * retries migration until it succeeds or a signal comes. No stop flag:
 * after a SIGINT the blocks are still put back */
static void roll_back(struct ct_sysfs *s, struct ct_hotplug_plan *p, const struct ct_hotplug_opts *o)
{
	struct ct_hotplug_opts once = { false, o->block_timeout_ms ? o->block_timeout_ms : 2000, NULL, o->timed_out,
				     o->block_timeout_ms ? o->arm_timer : NULL };

	for (size_t i = p->n; i-- > 0;) {
		struct ct_block_op *op = &p->op[i];
		const char *back;
		int rc = 0;
		if (op->result != CT_RES_DONE && op->result != CT_RES_HALF_DONE)
			continue;
		if (op->before.state == CT_BLOCK_OFFLINE)
			back = "offline";
		else
			back = online_zone(&op->before) == CT_ZONE_MOVABLE ? "online_movable" : "online_kernel";
		/* a reonlined block is online: back to another zone through offline */
		if (op->action == CT_ACT_REONLINE && op->result == CT_RES_DONE)
			rc = change(s, op, "offline", &once);
		if (!rc)
			rc = change(s, op, back, &once);
		ct_block_read(s, op->before.id, &op->after);
		/* as before, whoever put it back */
		if (same_place(&op->after, &op->before)) {
			if (op->result == CT_RES_HALF_DONE)
				snprintf(op->note, sizeof(op->note), "offlined for --reonline, onlining it movable failed (%s); "
					 "the rollback put it back online", reason(op->err));
			op->result = CT_RES_ROLLED_BACK;
			continue;
		}
		op->result = CT_RES_ROLLBACK_FAILED;
		op->err = rc ? -rc : EIO;
		snprintf(op->note, sizeof(op->note), "changed, then the rollback to %s failed (%s): now %s%s%s", back,
			 rc ? reason(-rc) : "the kernel took the write, but the block did not go back",
			 ct_block_state_name(op->after.state), op->after.state == CT_BLOCK_ONLINE && op->after.nzones ? " in " : "",
			 op->after.state == CT_BLOCK_ONLINE && op->after.nzones ? ct_zone_name(op->after.zones[0]) : "");
	}
	ct_error_clear(s->err);
}

int ct_hotplug_plan_execute(struct ct_sysfs *s, struct ct_hotplug_plan *p, const struct ct_hotplug_opts *o)
{
	int bad = 0;

	for (size_t i = 0; i < p->n; i++) {
		run_one(s, &p->op[i], o);
		switch (p->op[i].result) {
		case CT_RES_DONE:
		case CT_RES_UNCHANGED:
			break;
		default:
			bad++;
		}
	}
	if (bad && o->rollback)
		roll_back(s, p, o);
	return bad;
}

void ct_hotplug_plan_free(struct ct_hotplug_plan *p)
{
	free(p->op);
	p->op = NULL;
	p->n = 0;
}

/* ---- targets ---- */

static int add_dax(struct ct_sysfs *s, uint64_t bs, struct ct_hotplug_plan *p, const struct ct_dax *d,
		   const struct ct_dax **devdax)
{
	struct ct_block_walk w;
	uint64_t first, id;
	unsigned count;
	int rc;

	if (strcmp(d->mode, "system-ram")) {
		if (devdax)
			*devdax = d;
		return ct_fail(s->err, EMEDIUMTYPE, "%s is in %s mode, not system-ram: its memory is not hot-plugged "
			       "(--convert switches it to system-ram)", d->name, d->mode);
	}
	if ((rc = ct_block_range_checked(s, d->name, d->resource, d->size, bs, &first, &count)) ||
	    (rc = ct_block_walk_begin(s, first, count, &w)))
		return rc;
	while (ct_block_walk_next(&w, &id))
		if ((rc = ct_hotplug_plan_add(s, p, id, d->name, d->target_node)) && rc != -ENOENT)
			break;	/* (ENOENT: kmem skips what it could not add) */
	ct_block_walk_end(&w);
	return rc == -ENOENT ? 0 : rc;
}

/* every dax device of a region: the blocks of each system-ram one are
 * planned, whatever comes before it; a device in another mode stops none
 * of them (one of each mode can share a region: daxctl create-device) and
 * is reported at the end (-EMEDIUMTYPE, the first one in *devdax) */
static int add_region(struct ct_sysfs *s, uint64_t bs, struct ct_hotplug_plan *p, const struct ct_region *r,
		      const struct ct_dax **devdax)
{
	const struct ct_dax *first = NULL;
	int rc = 0;

	for (size_t j = 0; j < r->ndax && !rc; j++) {
		if (strcmp(r->dax[j].mode, "system-ram")) {
			if (!first)
				first = &r->dax[j];
			continue;
		}
		rc = add_dax(s, bs, p, &r->dax[j], NULL);
	}
	if (rc || !first)
		return rc;
	return add_dax(s, bs, p, first, devdax && !*devdax ? devdax : NULL);	/* its message, *devdax */
}

static const struct ct_dax *find_dax_of_block(const struct ct_topology *t, uint64_t id, uint64_t bs)
{
	for (size_t i = 0; i < t->nregions; i++)
		for (size_t j = 0; j < t->regions[i].ndax; j++) {
			const struct ct_dax *d = &t->regions[i].dax[j];
			uint64_t first;
			unsigned count;
			ct_block_range(d->resource, d->size, bs, &first, &count);
			if (id >= first && id < first + count)
				return d;
		}
	return NULL;
}

int ct_hotplug_plan_add_target(struct ct_sysfs *s, const struct ct_topology *t, struct ct_hotplug_plan *p,
		       const char *target, const struct ct_dax **devdax)
{
	uint64_t bs = t->block_size;
	bool found = false;
	char *end, first_msg[256];
	unsigned medium = 0;
	int rc = 0;

	if (!bs && (rc = ct_block_size(s, &bs)))
		return rc;
	if (!strcmp(target, "all")) {
		for (size_t i = 0; i < t->nregions && !rc; i++)
			for (size_t j = 0; j < t->regions[i].ndax && !rc; j++)
				if (!strcmp(t->regions[i].dax[j].mode, "system-ram"))
					rc = add_dax(s, bs, p, &t->regions[i].dax[j], devdax);
		return rc;
	}
	if (!strncmp(target, "dax", 3)) {
		for (size_t i = 0; i < t->nregions; i++)
			for (size_t j = 0; j < t->regions[i].ndax; j++)
				if (!strcmp(t->regions[i].dax[j].name, target))
					return add_dax(s, bs, p, &t->regions[i].dax[j], devdax);
		return ct_fail(s->err, ENOENT, "no CXL dax device '%s' (see 'cxltier list')", target);
	}
	if (!strncmp(target, "region", 6)) {
		for (size_t i = 0; i < t->nregions && !rc; i++) {
			if (strcmp(t->regions[i].name, target))
				continue;
			found = true;
			if (!t->regions[i].ndax)
				return ct_fail(s->err, ENOENT, "%s has no dax device: is dax_cxl loaded and the region a RAM region?",
					       target);
			rc = add_region(s, bs, p, &t->regions[i], devdax);
		}
		return found ? rc : ct_fail(s->err, ENOENT, "no region '%s' (see 'cxltier list')", target);
	}
	if (!strncmp(target, "mem", 3) && strncmp(target, "memory", 6)) {
		if (!ct_topology_memdev(t, target))
			return ct_fail(s->err, ENOENT, "no memdev '%s' (see 'cxltier list')", target);
		for (size_t i = 0; i < t->nregions && !rc; i++) {
			if (!ct_region_has_memdev(&t->regions[i], target))
				continue;
			found = true;
			if (!t->regions[i].ndax)	/* as for the region itself */
				return ct_fail(s->err, ENOENT, "%s: %s has no dax device: is dax_cxl loaded and the region a RAM "
					       "region?", target, t->regions[i].name);
			if ((rc = add_region(s, bs, p, &t->regions[i], devdax)) == -EMEDIUMTYPE) {
				if (!medium)
					ct_strlcpy(first_msg, s->err->msg, sizeof(first_msg));
				medium++;
				rc = 0;
			}
		}
		if (!rc && medium)
			rc = ct_fail(s->err, EMEDIUMTYPE, "%s", first_msg);
		return found ? rc : ct_fail(s->err, ENOENT, "%s is in no region: create one first (cxl create-region)", target);
	}
	if (!strncmp(target, "node", 4)) {
		char path[64], **names;
		size_t n;
		long node = strtol(target + 4, &end, 10);
		if (end == target + 4 || *end)
			return ct_fail(s->err, EINVAL, "'%s' is not a node name (node1)", target);
		rc = ct_sysfs_list(s, ct_path(path, sizeof(path), "/sys/devices/system/node/node%ld", node), "memory",
				   &names, &n);
		if (rc)
			return ct_fail(s->err, ENOENT, "no NUMA node %ld", node);
		for (size_t i = 0; i < n && !rc; i++) {
			const struct ct_dax *d;
			uint64_t id;
			if (names[i][6] < '0' || names[i][6] > '9')
				continue;
			id = strtoull(names[i] + 6, NULL, 10);
			d = find_dax_of_block(t, id, bs);
			rc = ct_hotplug_plan_add(s, p, id, d ? d->name : NULL, (int)node);
		}
		ct_strv_free(names, n);
		return rc;
	}
	if (!strncmp(target, "memory", 6)) {
		unsigned long long a = strtoull(target + 6, &end, 10), b = a;
		if (end == target + 6)
			return ct_fail(s->err, EINVAL, "'%s' is not a block name (memory34, memory34-41)", target);
		if (*end == '-')
			b = strtoull(end + 1, &end, 10);
		if (*end || b < a || b - a > 1u << 20)
			return ct_fail(s->err, EINVAL, "'%s' is not a block name or range (memory34, memory34-41)", target);
		for (unsigned long long id = a; id <= b && !rc; id++) {
			const struct ct_dax *d = find_dax_of_block(t, id, bs);
			rc = ct_hotplug_plan_add(s, p, id, d ? d->name : NULL, d ? d->target_node : -1);
		}
		return rc;
	}
	return ct_fail(s->err, EINVAL, "'%s' is not a target: give daxX.Y, regionN, memN, nodeN, memoryN[-M] or all", target);
}
