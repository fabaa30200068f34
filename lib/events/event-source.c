// SPDX-License-Identifier: LGPL-2.1-or-later
/* event-source.c - tracefs instances for CXL tracepoints (libtracefs): their
 * lifecycle (who owns them: event-owner.c), reading and following their
 * records */
#include <poll.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <tracefs.h>
#include <event-parse.h>
#include "core/context.h"
#include "events/event-keep.h"
#include "events/event-owner.h"
#include "events/event-source.h"
#include "events/event-trace.h"
#include "core/lock.h"

#define PRIVATE_BUFFER_KB 256	/* per CPU: CXL records are rare and read often */
/* per CPU, the kept instance: rare records too, but held until a run reads
 * them; set once, when cxltier creates it (a resize would drop pages), not
 * the kernel's 1408 KiB on every CPU of a large machine */
#define SHARED_BUFFER_KB 512
#define MAX_STALE 16

struct ct_event_source {
	struct ct_context *ctx;
	struct tep_handle *tep;
	struct tracefs_instance *inst;
	char name[96];
	bool shared, created;
	bool reenabled;			/* the shared instance was found not recording */
	bool idle;			/* ... and, opened to read, left so */
	unsigned buffer_kb;		/* per CPU, when made */
	uint64_t recording_since_ns;	/* wall-clock ns when the instance was recording for sure */
	clockid_t clock;		/* what the instance's trace clock counts */
	int64_t clock_to_real;		/* ns to add to a record's time for the wall clock */
	unsigned long lost;
	/* one read */
	ct_event_fn fn;
	void *arg;
	int fn_rc;
	struct ct_event_keep *keep;		/* the shared read: where records fn keeps go */
	int keep_rc;
	size_t keep_added, keep_failed;	/* records ct_event_keep_add took, and could not take */
	char *stale[MAX_STALE];
	size_t nstale;
};

/* ---- open / close ---- */

static clockid_t clock_of(struct tracefs_instance *inst)
{
	char *c = tracefs_get_clock(inst);
	clockid_t id = CLOCK_MONOTONIC;	/* local, global, perf: sched_clock, close to it */

	if (c && !strcmp(c, "boot"))
		id = CLOCK_BOOTTIME;
	else if (c && !strcmp(c, "tai"))
		id = CLOCK_TAI;
	free(c);
	return id;
}

static int enable(struct ct_event_source *s, const char *const *events)
{
	struct ct_context *ctx = s->ctx;

	if (tracefs_instance_file_write(s->inst, "trace_clock", "boot") < 0)
		return ct_fail(&ctx->err, errno ? errno : EIO, "tracefs instance %s: cannot set trace_clock", s->name);
	if (!events && tracefs_event_enable(s->inst, "cxl", NULL) < 0)
		return ct_fail(&ctx->err, errno ? errno : EIO, "cannot enable the cxl events in tracefs instance %s: %s",
			       s->name, strerror(errno));
	for (size_t i = 0; events && events[i]; i++) {
		if (!tep_find_event_by_name(s->tep, "cxl", events[i]))
			return ct_fail(&ctx->err, EOPNOTSUPP, "this kernel has no tracepoint cxl:%s", events[i]);
		if (tracefs_event_enable(s->inst, "cxl", events[i]) < 0)
			return ct_fail(&ctx->err, errno ? errno : EIO, "cannot enable cxl:%s in tracefs instance %s: %s",
				       events[i], s->name, strerror(errno));
	}
	if (tracefs_trace_on(s->inst) < 0)
		return ct_fail(&ctx->err, errno ? errno : EIO, "cannot turn tracing on in tracefs instance %s", s->name);
	return 0;
}

/* every cxl event of the instance on, and its tracing on */
static bool recording(struct ct_event_source *s)
{
	char *enabled = tracefs_instance_file_read(s->inst, "events/cxl/enable", NULL);
	bool on = enabled && enabled[0] == '1' && tracefs_trace_is_on(s->inst) == 1;

	free(enabled);
	return on;
}

static void free_source(struct ct_event_source *s)
{
	if (s->inst)
		tracefs_instance_free(s->inst);
	if (s->tep)
		tep_free(s->tep);
	for (size_t i = 0; i < s->nstale; i++)
		free(s->stale[i]);
	free(s);
}

/* the formats of the cxl events (and the ring buffer's page header) alone:
 * tracefs_local_events_system() also parses /proc/kallsyms, saved_cmdlines
 * and printk_formats, which no CXL record needs (a second under emulation,
 * minutes under ASan: a follower started by a unit waited on it) */
static struct tep_handle *cxl_formats(void)
{
	struct tep_handle *tep = tep_alloc();
	char **events, *text, file[256];
	int size;

	if (!tep)
		return NULL;
	if ((text = tracefs_instance_file_read(NULL, "events/header_page", &size))) {
		tep_parse_header_page(tep, text, size, sizeof(long));
		free(text);
	}
	events = tracefs_system_events(NULL, "cxl");
	for (size_t i = 0; events && events[i]; i++) {
		snprintf(file, sizeof(file), "events/cxl/%s/format", events[i]);
		if ((text = tracefs_instance_file_read(NULL, file, &size))) {
			tep_parse_event(tep, text, size, "cxl");	/* one it cannot parse stays out */
			free(text);
		}
	}
	tracefs_list_free(events);
	return tep;
}

/* tracefs: the running system's, or sys/kernel/tracing under the context's
 * sysroot (a tree of format files and instances that tests make) */
static int tracing_dir(struct ct_context *ctx)
{
	char dir[4096];

	if (!ctx->sys.root[0])
		return 0;
	if ((size_t)snprintf(dir, sizeof(dir), "%s/sys/kernel/tracing", ctx->sys.root) >= sizeof(dir))
		return ct_fail(&ctx->err, ENAMETOOLONG, "%s: too long a path", ctx->sys.root);
	if (tracefs_set_tracing_dir(dir) < 0)
		return ct_fail(&ctx->err, errno ? errno : ENOMEM, "cannot use %s as tracefs", dir);
	return 0;
}

int ct_event_source_open(struct ct_context *ctx, const struct ct_event_source_opts *o,
			 struct ct_event_source **out)
{
	struct ct_event_owner self;
	struct ct_event_source *s;
	int rc;

	*out = NULL;
	if ((rc = tracing_dir(ctx)))
		return rc;
	if (!tracefs_tracing_dir())
		return ct_fail(&ctx->err, ENOENT, "tracefs is not mounted (mount -t tracefs tracefs /sys/kernel/tracing)");
	if (!(s = calloc(1, sizeof(*s))))
		return ct_fail(&ctx->err, ENOMEM, "out of memory");
	s->ctx = ctx;
	s->shared = o->shared;
	s->tep = cxl_formats();
	if (!s->tep || !tep_find_event_by_name(s->tep, "cxl", "cxl_general_media")) {
		free_source(s);
		if (access(tracefs_tracing_dir(), W_OK))
			return ct_fail(&ctx->err, EACCES, "cannot read the tracepoints in %s: %s (run as root)",
				       tracefs_tracing_dir(), strerror(errno));
		return ct_fail(&ctx->err, EOPNOTSUPP, "this kernel has no CXL record tracepoints "
			       "(cxl:cxl_general_media: 6.3 and later, with cxl_core)");
	}
	if (s->shared && o->existing && !tracefs_instance_exists(CT_EVENT_SHARED_INSTANCE)) {
		free_source(s);
		return -ENODATA;	/* a read: nothing to read, nothing made */
	}
	if ((rc = ct_event_owner_self(ctx, o->role ? o->role : "private", &self))) {
		free_source(s);
		return rc;
	}
	s->nstale = ct_event_owner_remove_stale(ctx, &self, s->stale, MAX_STALE);
	if (s->shared)
		snprintf(s->name, sizeof(s->name), CT_EVENT_SHARED_INSTANCE);
	else if ((rc = ct_event_owner_name(&self, s->name, sizeof(s->name)))) {
		free_source(s);
		return ct_fail(&ctx->err, rc, "the role '%s' makes too long an instance name", self.role);
	}
	if (s->shared && o->existing) {	/* found above: opened, changed in nothing */
		if (!(s->inst = tracefs_instance_alloc(NULL, s->name))) {
			rc = errno ? errno : ENOMEM;
			free_source(s);
			return ct_fail(&ctx->err, rc, "cannot open the tracefs instance %s: %s", s->name, strerror(rc));
		}
		s->idle = !recording(s);
		goto opened;
	}
	s->inst = tracefs_instance_create(s->name);
	if (!s->inst) {
		rc = errno ? errno : EIO;
		free_source(s);
		return ct_fail(&ctx->err, rc, "cannot create the tracefs instance %s: %s (root?)", s->name, strerror(rc));
	}
	s->created = tracefs_instance_is_new(s->inst);
	if (!s->shared && !s->created) {
		free_source(s);	/* never take over what someone else made */
		return ct_fail(&ctx->err, EEXIST, "the tracefs instance %s exists already", s->name);
	}
	if (s->created) {
		s->buffer_kb = s->shared ? SHARED_BUFFER_KB : PRIVATE_BUFFER_KB;
		tracefs_instance_set_buffer_size(s->inst, s->buffer_kb, -1);
	}
	if (s->created && (rc = enable(s, o->events))) {
		tracefs_instance_destroy(s->inst);
		free_source(s);
		return rc;
	}
	/* the shared instance as an earlier run left it: recording, unless the
	 * cxl events came back off (cxl_core reloaded: a module's events are
	 * added to existing instances disabled) or its tracing was turned off
	 * (a --stop that could not remove it) */
	if (!s->created && !recording(s)) {
		if ((rc = enable(s, NULL))) {
			free_source(s);
			return rc;
		}
		s->reenabled = true;
	}
opened:
	s->clock = clock_of(s->inst);
	{
		struct timespec now;
		clock_gettime(CLOCK_REALTIME, &now);
		s->recording_since_ns = (uint64_t)now.tv_sec * 1000000000ULL + (uint64_t)now.tv_nsec;
	}
	*out = s;
	return 0;
}

int ct_event_source_close(struct ct_event_source *s)
{
	int rc = 0;

	if (!s)
		return 0;
	if (!s->shared) {
		struct ct_context *ctx = s->ctx;
		char name[sizeof(s->name)];
		snprintf(name, sizeof(name), "%s", s->name);
		tracefs_instance_free(s->inst);
		s->inst = NULL;
		rc = ct_event_owner_remove(ctx, name);
	}
	free_source(s);
	return rc;
}

int ct_event_shared_remove(struct ct_context *ctx, bool *removed)
{
	int rc;

	if ((rc = tracing_dir(ctx)))
		return rc;
	*removed = tracefs_instance_exists(CT_EVENT_SHARED_INSTANCE);
	return *removed ? ct_event_owner_remove(ctx, CT_EVENT_SHARED_INSTANCE) : 0;
}

const char *ct_event_source_instance(const struct ct_event_source *s)
{
	return s->name;
}

bool ct_event_source_created(const struct ct_event_source *s)
{
	return s->created;
}

unsigned ct_event_source_buffer_kb(const struct ct_event_source *s)
{
	return s->buffer_kb;
}

bool ct_event_source_idle(const struct ct_event_source *s)
{
	return s->idle;
}

bool ct_event_source_reenabled(const struct ct_event_source *s)
{
	return s->reenabled;
}

uint64_t ct_event_source_recording_since(const struct ct_event_source *s)
{
	return s->recording_since_ns;
}

unsigned long ct_event_source_lost(const struct ct_event_source *s)
{
	return s->lost;
}

size_t ct_event_source_stale_removed(const struct ct_event_source *s, const char *const **names)
{
	*names = (const char *const *)s->stale;
	return s->nstale;
}

/* ---- reading ---- */

static int64_t ns_of(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* the shared read: a record for later runs (the first failure is kept too) */
static void keep_raw(struct ct_event_source *s, const char *event, uint64_t ts, uint64_t real_time, int cpu,
		     const void *data, int size)
{
	int rc;

	if (!s->keep)
		return;
	rc = ct_event_keep_add(s->keep, event, ts, real_time, cpu, data, size > 0 ? (uint32_t)size : 0);
	if (!rc) {
		s->keep_added++;
	} else {
		s->keep_failed++;
		if (!s->keep_rc)
			s->keep_rc = rc;
	}
}

/* one cxl record to fn; kept for later runs when fn answers CT_EVENT_KEEP,
 * or when fn has stopped (the shared read loses nothing it consumed) */
static void deliver(struct ct_event_source *s, struct tep_event *ev, struct tep_record *r, int cpu,
		    uint64_t real_time)
{
	struct ct_event e;

	if (!s->fn_rc) {
		ct_event_from_trace(ev, r, &e);
		e.trace_time = real_time;
		s->fn_rc = s->fn(&e, s->arg);
		if (s->fn_rc != CT_EVENT_KEEP)
			return;
		s->fn_rc = 0;
	}
	keep_raw(s, ev->name, r->ts, real_time, cpu, r->data, r->size);
}

static int on_record(struct tep_event *ev, struct tep_record *r, int cpu, void *arg)
{
	struct ct_event_source *s = arg;

	if (r->missed_events)
		s->lost += r->missed_events > 0 ? (unsigned long)r->missed_events : 1;
	/* a non-zero return would drop the rest of the page: keep consuming */
	if (ev->system && !strcmp(ev->system, "cxl"))
		deliver(s, ev, r, cpu, (uint64_t)((int64_t)r->ts + s->clock_to_real));
	return 0;
}

/* the records earlier runs kept, decoded with this kernel's format, given
 * to fn again (those of a tracepoint it no longer has are dropped) */
static void replay(struct ct_event_source *s, const struct ct_event_keep *old, struct ct_event_keep_report *rep)
{
	for (size_t i = 0; i < old->n; i++) {
		const struct ct_event_keep_record *k = &old->r[i];
		struct tep_event *ev = tep_find_event_by_name(s->tep, "cxl", k->event);
		struct tep_record r = { .ts = k->ts, .cpu = k->cpu, .size = (int)k->size, .data = k->data };
		if (ev)
			deliver(s, ev, &r, k->cpu, k->real_time);
		else
			rep->undecodable++;
	}
}

int ct_event_source_read(struct ct_event_source *s, ct_event_fn fn, void *arg)
{
	int rc, err;

	s->fn = fn;
	s->arg = arg;
	s->fn_rc = 0;
	s->clock_to_real = ns_of(CLOCK_REALTIME) - ns_of(s->clock);
	rc = tracefs_iterate_raw_events(s->tep, s->inst, NULL, 0, on_record, s);
	if (rc < 0) {
		err = errno ? errno : EIO;
		/* gone, or going: rmdir takes the instance's files away before
		 * its directory, and a slow machine can read in between: a
		 * per-CPU file of our own instance missing (ENOENT), or one
		 * whose trace array is gone (ENODEV), means just that */
		if (!tracefs_instance_exists(s->name) || err == ENOENT || err == ENODEV)
			return ct_fail(&s->ctx->err, ENOENT, "the tracefs instance %s disappeared (removed by "
				       "someone else?): no more events are collected", s->name);
		return ct_fail(&s->ctx->err, err, "cannot read the trace buffer of tracefs instance %s: %s",
			       s->name, strerror(err));
	}
	return s->fn_rc < 0 ? s->fn_rc : 0;
}

int ct_event_source_read_shared(struct ct_event_source *s, ct_event_fn fn, void *arg, unsigned timeout_ms,
				struct ct_event_keep_report *rep)
{
	struct ct_sysfs *sys = &s->ctx->sys;
	struct ct_event_keep old, now = { 0 };
	size_t replayed, fresh;
	int lock_fd, rc;

	memset(rep, 0, sizeof(*rep));
	/* nothing is read unless what must be kept can be: else a filtered
	 * run would lose what it hides */
	if ((rc = ct_event_keep_load(sys, timeout_ms, NULL, &lock_fd, &old, &rep->damaged_bytes)))
		return rc;
	s->keep = &now;
	s->keep_rc = 0;
	s->keep_added = s->keep_failed = 0;
	s->fn = fn;
	s->arg = arg;
	s->fn_rc = 0;
	replay(s, &old, rep);
	replayed = s->keep_added;
	rc = s->fn_rc < 0 ? s->fn_rc : 0;
	if (!s->fn_rc)
		rc = ct_event_source_read(s, fn, arg);
	rep->kept = now.n;
	rep->dropped = now.dropped;
	/* a record that could not be held is lost; the others are stored */
	rep->hold_rc = s->keep_rc;
	rep->unkept = s->keep_failed;
	rep->store_rc = ct_event_keep_store(sys, &now);
	if (rep->store_rc) {
		/* the old store is still there: what it held is not lost (what
		 * this run showed of it shows again); this run's own are */
		fresh = s->keep_added - replayed;
		if (fresh > now.n)
			fresh = now.n;
		rep->unkept += fresh;
		rep->kept = now.n - fresh;	/* those still in the old store */
	}
	s->keep = NULL;
	ct_lock_release(lock_fd);
	ct_event_keep_free(&old);
	ct_event_keep_free(&now);
	return rc;
}

int ct_event_source_follow(struct ct_event_source *s, ct_event_fn fn, int (*tick)(void *arg), void *arg,
			   const volatile sig_atomic_t *stop, unsigned interval_ms, int watch_fd)
{
	struct pollfd w = { .fd = watch_fd, .events = 0 };
	int rc;

	while (!*stop) {
		if ((rc = ct_event_source_read(s, fn, arg)) || s->fn_rc)
			return rc;
		if (tick && (rc = tick(arg)))
			return rc;
		if (!tracefs_instance_exists(s->name))
			return ct_fail(&s->ctx->err, ENOENT, "the tracefs instance %s disappeared (removed by "
				       "someone else?): no more events are collected", s->name);
		/* the pause between reads; a signal ends it early, and so does the
		 * reader of watch_fd going away (POLLERR on a pipe, POLLHUP), or
		 * watch_fd closed (POLLNVAL: nothing can be written) */
		if (poll(&w, 1, (int)interval_ms) > 0 && (w.revents & (POLLERR | POLLHUP | POLLNVAL)))
			return ct_fail(&s->ctx->err, EPIPE, "the reader of the events went away");
	}
	/* what arrived before the stop */
	return ct_event_source_read(s, fn, arg);
}

int ct_event_collect(struct ct_context *ctx, const char *role, const char *const *events,
		     int (*action)(void *arg), void *action_arg, ct_event_fn fn, void *fn_arg)
{
	struct ct_event_source_opts o = { .role = role, .events = events };
	struct ct_event_source *s;
	int rc, arc, crc;

	if ((rc = ct_event_source_open(ctx, &o, &s)))
		return rc;
	arc = action(action_arg);
	rc = arc ? arc : ct_event_source_read(s, fn, fn_arg);
	crc = ct_event_source_close(s);
	return rc ? rc : crc;
}
