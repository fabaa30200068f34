// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "mm/damon.h"
#include "mm/damon-owner.h"
#include "core/owner.h"

#define ADMIN "/sys/kernel/mm/damon/admin/kdamonds"
#define KD ADMIN "/0"
#define CTX KD "/contexts/0"
#define SCHEME CTX "/schemes/0"
#define MODPARAM "/sys/module/%s/parameters/enabled"
#define LOCK_WAIT_MS 60000	/* beyond the interval: another cxltier's sampling */
#define SNAPSHOTS 3		/* of the regions at the end of the interval, made one */
#define SNAPSHOT_GAP_MS 300	/* between them: three aggregation intervals */
#define BUSY_TRIES 50		/* of a write or read that met damon_sysfs_lock held... */
#define BUSY_GAP_MS 10		/* ... this far apart: half a second in all */

static int w(struct ct_sysfs *s, const char *path, const char *val)
{
	return ct_sysfs_write_str(s, path, val);
}

/* DAMON's sysfs files take damon_sysfs_lock by trylock and fail with EBUSY
 * while it is held: by the kdamond itself after every sample up to 6.13
 * (damon_sysfs_cmd_request_callback), or by any other reader of DAMON's
 * sysfs for a moment. The writes and reads that must not fail for that are
 * tried again a few times. */
static const struct ct_sysfs_busy busy = { BUSY_TRIES, BUSY_GAP_MS };

static int w_busy(struct ct_sysfs *s, const char *path, const char *val)
{
	return ct_sysfs_write_str_busy(s, &busy, path, val);
}

static int read_str_busy(struct ct_sysfs *s, const char *path, char *buf, size_t len)
{
	return ct_sysfs_read_str_busy(s, &busy, path, buf, len);
}

static int setup(struct ct_sysfs *s, int pid)
{
	char v[32];
	static const struct { const char *path, *val; } steps[] = {
		{ ADMIN "/nr_kdamonds", "1" },
		{ KD "/contexts/nr_contexts", "1" },
		{ CTX "/operations", "vaddr" },
		{ CTX "/monitoring_attrs/intervals/sample_us", "5000" },
		{ CTX "/monitoring_attrs/intervals/aggr_us", "100000" },
		{ CTX "/monitoring_attrs/intervals/update_us", "1000000" },
		{ CTX "/monitoring_attrs/nr_regions/min", "10" },
		{ CTX "/monitoring_attrs/nr_regions/max", "2000" },
		{ CTX "/targets/nr_targets", "1" },
		{ CTX "/schemes/nr_schemes", "1" },
		{ SCHEME "/action", "stat" },
		{ SCHEME "/access_pattern/sz/min", "0" },
		{ SCHEME "/access_pattern/sz/max", "18446744073709551615" },
		{ SCHEME "/access_pattern/nr_accesses/min", "0" },
		{ SCHEME "/access_pattern/nr_accesses/max", "4294967295" },
		{ SCHEME "/access_pattern/age/min", "0" },
		{ SCHEME "/access_pattern/age/max", "4294967295" },
	};
	int rc;

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		if (i == 9) {	/* after the target count: the target's pid */
			snprintf(v, sizeof(v), "%d", pid);
			if ((rc = w(s, CTX "/targets/0/pid_target", v)))
				return rc;
		}
		if ((rc = w(s, steps[i].path, steps[i].val)))
			return rc;
	}
	return 0;
}

/* the kdamond off and gone: 0 only when nr_kdamonds reads 0 afterwards
 * (a running kdamond refuses nr_kdamonds with EBUSY) */
static int teardown(struct ct_sysfs *s)
{
	char st[16];
	uint64_t nr = 1;
	int rc = 0;

	if (read_str_busy(s, KD "/state", st, sizeof(st)) == 0 && !strcmp(st, "on"))
		rc = w_busy(s, KD "/state", "off");
	ct_error_clear(s->err);
	if (!rc)
		rc = w_busy(s, ADMIN "/nr_kdamonds", "0");
	if (!rc && !(rc = ct_sysfs_read_u64(s, ADMIN "/nr_kdamonds", 10, &nr)) && nr)
		rc = -EBUSY;
	if (rc)
		return ct_fail(s->err, -rc, "cannot tear down the DAMON setup cxltier made (" ADMIN "/0): %s; the "
			       "next run removes it (or echo off > " KD "/state; echo 0 > " ADMIN "/nr_kdamonds)",
			       strerror(-rc));
	return 0;
}

static bool module_enabled(struct ct_sysfs *s, const char *module)
{
	char path[128], v[8];
	bool on = ct_sysfs_read_str(s, ct_path(path, sizeof(path), MODPARAM, module), v, sizeof(v)) == 0 && v[0] == 'Y';

	ct_error_clear(s->err);
	return on;
}

/* DAMON_STAT on again; it fails while another context holds DAMON */
static int stat_enable(struct ct_sysfs *s)
{
	char path[128];
	int rc = w_busy(s, ct_path(path, sizeof(path), MODPARAM, "damon_stat"), "Y");

	ct_error_clear(s->err);
	return rc;
}

static int read_int(struct ct_sysfs *s, const char *path, int64_t *v)
{
	int rc = ct_sysfs_read_s64(s, path, v);

	ct_error_clear(s->err);
	return rc;
}

/* the kdamond's pid, -1 when it does not run */
static int64_t kdamond_pid(struct ct_sysfs *s)
{
	char v[32];
	int64_t pid = -1;

	if (read_str_busy(s, KD "/pid", v, sizeof(v)) == 0)
		pid = strtoll(v, NULL, 10);
	ct_error_clear(s->err);
	return pid;
}

/* is the one kdamond there what the record says its owner set up? Its
 * target is the recorded one, and either
 * - it is the whole setup (vaddr, a stat scheme), and it runs as the
 *   recorded kdamond, or runs while the record has none yet (killed between
 *   "on" and the record's update), or no longer runs (a vaddr kdamond stops
 *   by itself when its target exits: pid -1, state off, nr_kdamonds 1);
 * - or it never ran and the record has no kdamond: a setup cut short
 *   after its target was written.
 * A setup without the recorded target is never taken for the owner's. */
static bool left_by(struct ct_sysfs *s, const struct ct_damon_record *left)
{
	int64_t target, kdamond;
	char ops[16] = "", action[16] = "";
	bool whole, running;

	if (read_int(s, CTX "/targets/0/pid_target", &target) || target != left->target)
		return false;
	ct_sysfs_read_str(s, CTX "/operations", ops, sizeof(ops));
	ct_sysfs_read_str(s, SCHEME "/action", action, sizeof(action));
	ct_error_clear(s->err);
	whole = !strcmp(ops, "vaddr") && !strcmp(action, "stat");
	kdamond = kdamond_pid(s);
	running = kdamond >= 0;
	if (!running && left->kdamond < 0)
		return true;
	return whole && (!running || left->kdamond < 0 || kdamond == left->kdamond);
}

/* DAMON_STAT on again for a record that paused it; when it cannot be (held
 * by another context), this run takes the duty over: its own record says
 * so, and its undo enables it. No record is dropped while DAMON_STAT is
 * left off. */
static void stat_resume(struct ct_sysfs *s, struct ct_damon_owner *own, const struct ct_damon_record *left)
{
	if (left->stat_paused && stat_enable(s))
		own->rec.stat_paused = true;
}

/* under the lock: a setup left by a killed cxltier is removed; anyone else's is refused */
static int clear_leftovers(struct ct_sysfs *s, struct ct_damon_owner *own, struct ct_damon_run *run)
{
	struct ct_damon_record left;
	bool has_record = ct_damon_owner_read(s, own, &left) == 0;
	char comm[32];
	uint64_t nr;
	int rc;

	if ((rc = ct_sysfs_read_u64(s, ADMIN "/nr_kdamonds", 10, &nr)))
		return rc;
	if (has_record && ct_owner_check(s, &left.owner, comm, sizeof(comm)) == CT_OWNER_RUNS)
		return ct_fail(s->err, EBUSY, "DAMON is in use by cxltier pid %d (%s); try again when it is done",
			       left.owner.pid, comm);
	if (has_record && (!nr || (nr == 1 && left_by(s, &left)))) {
		/* its owner is gone (killed, or its PID is another process's now) */
		if (nr && (rc = teardown(s)))
			return rc;	/* the record stays for the next run */
		run->stale_owner = left.owner.pid;
		stat_resume(s, own, &left);
		/* (a record of this run that keeps the duty replaces the old one at once) */
		if (own->rec.stat_paused)
			return ct_damon_owner_write(s, own);
		ct_damon_owner_remove(own);
		return 0;
	}
	/* what it left is gone; what is there is not ours. Its record goes,
	 * unless DAMON_STAT it paused cannot be turned on again yet */
	if (has_record && !(left.stat_paused && stat_enable(s)))
		ct_damon_owner_remove(own);
	if (nr)	/* writing nr_kdamonds would rebuild someone else's setup */
		return ct_fail(s->err, EBUSY, "DAMON is set up by another tool (%llu kdamond%s): cxltier does not "
			       "disturb it; stop that tool (or echo 0 > " ADMIN "/nr_kdamonds) and try again",
			       (unsigned long long)nr, nr == 1 ? "" : "s");
	return 0;
}

/* DAMON_STAT, DAMON_RECLAIM and DAMON_LRU_SORT hold DAMON exclusively:
 * "on" fails with EBUSY. Statistics may pause; policies are someone's.
 * With none of them on, an EBUSY is damon_sysfs_lock held for a moment
 * (state_store takes it by trylock): "on" is tried again, as teardown is. */
static int turn_on(struct ct_sysfs *s, struct ct_damon_owner *own, struct ct_damon_run *run)
{
	static const char *const policies[] = { "damon_reclaim", "damon_lru_sort" };
	char path[128];
	int rc = w(s, KD "/state", "on");

	if (rc != -EBUSY)
		return rc;
	for (size_t i = 0; i < sizeof(policies) / sizeof(policies[0]); i++)
		if (module_enabled(s, policies[i]))
			return ct_fail(s->err, EBUSY, "DAMON is held by the kernel's %s (" MODPARAM " is Y): cxltier "
				       "does not stop it; --hot/--cold need it off", policies[i], policies[i]);
	if (!module_enabled(s, "damon_stat")) {
		ct_error_clear(s->err);
		return w_busy(s, KD "/state", "on");
	}
	own->rec.stat_paused = true;	/* recorded before it changes */
	if ((rc = ct_damon_owner_write(s, own)))
		return rc;
	if ((rc = w(s, ct_path(path, sizeof(path), MODPARAM, "damon_stat"), "N")))
		return rc;
	run->stat_paused = true;
	return w_busy(s, KD "/state", "on");
}

/* the tried regions, asked for again while none are there: a process with
 * memory always has some, but under load the kdamond may not have filled
 * them in yet when the update returns (seen under TCG). Still none after
 * that: -ENODATA, nothing was measured (which is not "nothing is hot"). */
static int tried_regions(struct ct_sysfs *s, volatile sig_atomic_t *stop, char ***names, size_t *count)
{
	bool some = false;
	int rc = 0;

	*names = NULL;
	*count = 0;
	for (int attempt = 0; attempt < 10 && !rc && !(stop && *stop); attempt++) {
		struct timespec ts = { 0, 200 * 1000000L };
		if (attempt)
			nanosleep(&ts, NULL);
		ct_strv_free(*names, *count);
		*names = NULL;
		*count = 0;
		if ((rc = w(s, KD "/state", "update_schemes_tried_regions")) ||
		    (rc = ct_sysfs_list(s, SCHEME "/tried_regions", NULL, names, count)))
			break;
		for (size_t i = 0; i < *count && !some; i++)
			some = (*names)[i][0] >= '0' && (*names)[i][0] <= '9';
		if (some)
			break;
	}
	if (!rc && !some && !(stop && *stop))
		rc = ct_fail(s->err, ENODATA, "DAMON reported no region of the process during the interval (" SCHEME
			     "/tried_regions stayed empty): nothing was measured, so nothing is chosen or moved");
	return rc;
}

static int collect(struct ct_sysfs *s, volatile sig_atomic_t *stop, struct ct_access_region **out, size_t *n)
{
	char **names = NULL, path[256];
	size_t count = 0;
	int rc = tried_regions(s, stop, &names, &count);

	if (!rc && count) {
		*out = calloc(count, sizeof(**out));
		if (!*out)
			rc = ct_fail(s->err, ENOMEM, "out of memory");
	}
	for (size_t i = 0; !rc && i < count; i++) {
		struct ct_access_region *r = &(*out)[*n];
		uint64_t v;
		if (names[i][0] < '0' || names[i][0] > '9')
			continue;	/* total_bytes */
		if (ct_sysfs_read_u64(s, ct_path(path, sizeof(path), SCHEME "/tried_regions/%s/start", names[i]), 10, &r->start) ||
		    ct_sysfs_read_u64(s, ct_path(path, sizeof(path), SCHEME "/tried_regions/%s/end", names[i]), 10, &r->end))
			continue;
		if (ct_sysfs_read_u64(s, ct_path(path, sizeof(path), SCHEME "/tried_regions/%s/nr_accesses", names[i]), 10, &v) == 0)
			r->nr_accesses = (unsigned)v;
		if (ct_sysfs_read_u64(s, ct_path(path, sizeof(path), SCHEME "/tried_regions/%s/age", names[i]), 10, &v) == 0)
			r->age = (unsigned)v;
		(*n)++;
	}
	if (!rc)
		ct_error_clear(s->err);	/* (a region that went away meanwhile) */
	ct_strv_free(names, count);
	return rc;
}

static void wait_ms(unsigned ms, volatile sig_atomic_t *stop)
{
	for (unsigned waited = 0; waited < ms && !(stop && *stop); waited += 50) {
		struct timespec ts = { 0, 50 * 1000000L };
		nanosleep(&ts, NULL);
	}
}

/* the regions at the end of the interval, from up to SNAPSHOTS snapshots
 * SNAPSHOT_GAP_MS apart (as many as fit in half the interval): a region
 * counts as untouched only when no snapshot saw an access in it */
static int sample(struct ct_sysfs *s, unsigned interval_ms, volatile sig_atomic_t *stop,
		  struct ct_access_region **out, size_t *n)
{
	unsigned extra = interval_ms / (2 * SNAPSHOT_GAP_MS);
	int rc = 0;

	if (extra > SNAPSHOTS - 1)
		extra = SNAPSHOTS - 1;
	wait_ms(interval_ms - extra * SNAPSHOT_GAP_MS, stop);
	for (unsigned k = 0; k <= extra && !rc && !(stop && *stop); k++) {
		struct ct_access_region *snap = NULL, *merged;
		size_t nsnap = 0, nmerged;
		if (k)
			wait_ms(SNAPSHOT_GAP_MS, stop);
		if ((rc = collect(s, stop, &snap, &nsnap))) {
			if (k && rc == -ENODATA) {	/* an earlier snapshot measured: that stands */
				ct_error_clear(s->err);
				rc = 0;
			}
			break;
		}
		if (!k) {
			*out = snap;
			*n = nsnap;
			continue;
		}
		rc = ct_access_regions_merge(*out, *n, snap, nsnap, &merged, &nmerged);
		free(snap);
		if (rc) {
			rc = ct_fail(s->err, rc, "out of memory");
			break;
		}
		free(*out);
		*out = merged;
		*n = nmerged;
	}
	return rc;
}

/* after sampling (or a failed setup): DAMON torn down, then DAMON_STAT on
 * again, then the record gone; each step only when the one before it
 * worked, so that what is left is what the record says. The first error
 * wins (teardown must not hide why the setup failed). */
static int undo(struct ct_sysfs *s, struct ct_damon_owner *own, int rc)
{
	struct ct_error keep = *s->err;
	int trc = teardown(s);

	if (!trc && own->rec.stat_paused && stat_enable(s))
		trc = ct_fail(s->err, EBUSY, "DAMON_STAT cannot be turned on again (/sys/module/damon_stat/parameters/"
			      "enabled): the next run tries again");
	if (!trc)
		ct_damon_owner_remove(own);
	if (rc || !trc) {
		*s->err = keep;
		return rc;
	}
	return trc;
}

int ct_damon_sample(struct ct_sysfs *s, int pid, unsigned interval_ms, volatile sig_atomic_t *stop,
		    struct ct_access_region **out, size_t *n, struct ct_damon_run *run)
{
	struct ct_damon_owner own;
	int64_t kdamond;
	int rc;

	*out = NULL;
	*n = 0;
	memset(run, 0, sizeof(*run));
	if (!ct_sysfs_exists(s, ADMIN "/nr_kdamonds"))
		return ct_fail(s->err, EOPNOTSUPP, "this kernel has no DAMON sysfs interface (CONFIG_DAMON_SYSFS, "
			       "CONFIG_DAMON_VADDR): cannot tell hot from cold pages");
	if ((rc = ct_damon_own(s, interval_ms + LOCK_WAIT_MS, stop, &own)))
		return rc;
	if ((rc = clear_leftovers(s, &own, run)))
		goto out;
	own.rec.target = pid;
	/* the record first: a run killed from here on leaves what it needs */
	if ((rc = ct_damon_owner_write(s, &own)))
		goto out;
	if ((rc = setup(s, pid)) || (rc = turn_on(s, &own, run)))
		goto undo;
	if ((kdamond = kdamond_pid(s)) >= 0) {
		own.rec.kdamond = (int)kdamond;
		ct_damon_owner_write(s, &own);
		ct_error_clear(s->err);
	}
	rc = sample(s, interval_ms, stop, out, n);
undo:
	rc = undo(s, &own, rc);
out:
	ct_damon_release(&own);
	if (rc) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return rc;
}
