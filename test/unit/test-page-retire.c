// SPDX-License-Identifier: GPL-2.0-only
/* Page retirement (lib/events/page-retire.c, retire-log.c, the store's
 * new-record hook) on a captured tree (two memdevs interleaved two ways in
 * one region) with /proc/kpageflags and soft_offline_page standing for the
 * kernel's: corrected errors counted per DPA page of a device within the
 * window, below the threshold nothing; at it the page is tried, and what
 * happened written with its reason; the device's own threshold flag acts
 * at once; an uncorrectable record is never acted on; retirement off, an
 * unmapped DPA, a poisoned page, the limit an hour; a page that failed is
 * tried again after a while, without spending the budget of the others; a
 * record stored twice is weighed once; a store of schema 2 upgraded (its
 * record known again, its decisions one a page).
 *
 * And what keeps over a long life: the window counts by the host's clock,
 * whatever the device's says; weighing a record costs the same whatever the
 * store holds of its page; devices with no serial, or the same one, are
 * told apart; an HPA that no longer maps the record's DPA is not acted on;
 * every table stays bounded under the size budget, records never deleted
 * to make room for the decisions. The kernel side of a real retirement is
 * the VM tier's (test/vm/events-retire.bats). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sqlite3.h>
#include "tap.h"
#include "tree.h"
#include "core/context.h"
#include "events/event-blob.h"
#include "events/event-store.h"
#include "events/event-store-db.h"
#include "events/page-retire.h"
#include "events/retire-log.h"

#define NS 1000000000ULL
#define T0 (1764979200ULL * NS)	/* 2025-12-06T00:00:00Z */
#define NO_HPA UINT64_MAX
/* the fixture's region0: mem0 (serial 0x1234) at position 0, mem1 (0x5678)
 * at 1, two ways of 256 bytes from HPA 0x110000000, each from DPA 0 */
#define REGION_HPA 0x110000000ULL
#define MEM0 0
#define MEM1 1

static const char *const memdev_name[] = { "mem0", "mem1" };
static const char *const memdev_host[] = { "0000:0d:00.0", "0000:0e:00.0" };
static const uint64_t memdev_serial[] = { 0x1234, 0x5678 };

static char root[512], db[600];
static struct ct_context *ctx;
static struct ct_event_store *w;
static unsigned new_records;
static uint16_t handle;

/* the HPA of DPA dpa of memdev m, as region0 interleaves them */
static uint64_t hpa_of(int m, uint64_t dpa)
{
	return REGION_HPA + ((dpa / 256) * 2 + (uint64_t)m) * 256 + dpa % 256;
}

/* a media record of memdev m (with serial, else none; host and memdev the
 * given ones) at dpa, device time ts, emitted at emit */
static void media_of(struct ct_event *e, const char *memdev, const char *host, bool has_serial, uint64_t serial,
		     uint64_t ts, uint64_t emit, uint64_t dpa, uint64_t hpa, uint8_t descriptor)
{
	static const uint8_t gm_uuid[16] = { 0xfb, 0xcd, 0x0a, 0x77, 0xc2, 0x60, 0x41, 0x7f,
					     0x85, 0xa9, 0x08, 0x8b, 0x16, 0x21, 0xeb, 0xa6 };

	ct_event_init(e, "cxl_general_media");
	ct_event_add_string(e, "memdev", memdev, strlen(memdev));
	ct_event_add_string(e, "host", host, strlen(host));
	if (has_serial)
		ct_event_add_uint(e, "serial", serial);
	ct_event_add_int(e, "log", 1);
	ct_event_add_bytes(e, "hdr_uuid", CT_FIELD_UUID, gm_uuid, 16, 1);
	ct_event_add_uint(e, "hdr_flags", 1);
	ct_event_add_uint(e, "hdr_handle", ++handle);
	ct_event_add_uint(e, "hdr_timestamp", ts);
	ct_event_add_uint(e, "dpa", dpa);
	ct_event_add_uint(e, "descriptor", descriptor);
	ct_event_add_uint(e, "type", 0);
	if (hpa != NO_HPA) {
		ct_event_add_uint(e, "hpa", hpa);
		ct_event_add_string(e, "region", "region0", 7);
	}
	ct_event_decode_fields(e);
	e->trace_time = emit;
}

/* a media record of the fixture's memdev m: its device clock right */
static void media(struct ct_event *e, int m, uint64_t ts, uint64_t dpa, uint64_t hpa, uint8_t descriptor)
{
	media_of(e, memdev_name[m], memdev_host[m], true, memdev_serial[m], ts, ts + 1000, dpa, hpa, descriptor);
}

/* the HWPOISON flag of the page at phys in the tree's /proc/kpageflags */
static void set_poisoned(uint64_t phys, int on)
{
	char path[600];
	uint64_t flags = on ? 1ULL << 19 : 0;
	int fd;

	snprintf(path, sizeof(path), "%s/proc/kpageflags", root);
	fd = open(path, O_WRONLY | O_CREAT, 0600);
	ok(fd >= 0 && pwrite(fd, &flags, 8, (off_t)(phys / 4096 * 8)) == 8, "page 0x%llx %s", (unsigned long long)phys,
	   on ? "poisoned" : "not poisoned");
	close(fd);
}

static struct {
	struct ct_page_retire_conf conf;
	struct ct_page_retire_outcome out[8];
	size_t n;
	int rc;
	bool skip;		/* store without weighing */
	uint64_t now;		/* the host's time of the weighing */
} seen;

static int on_new(const struct ct_event *e, void *arg)
{
	(void)arg;
	static struct ct_page_retire_outcome more;

	new_records++;
	if (!seen.skip)
		seen.rc = ct_page_retire_consider(ctx, w, e, &seen.conf, seen.now, seen.n < 8 ? &seen.out[seen.n++] : &more);
	return 0;
}

/* e stored and weighed: its outcome */
static struct ct_page_retire_outcome *put_event(struct ct_event *e)
{
	seen.n = 0;
	seen.rc = 0;
	ct_event_store_add(w, e);
	ct_event_store_flush(w, &ctx->err);
	return seen.n == 1 ? &seen.out[0] : NULL;
}

/* a record of memdev m at dpa, device time ts, stored and weighed: its outcome */
static struct ct_page_retire_outcome *put(int m, uint64_t ts, uint64_t dpa, uint64_t hpa, uint8_t desc)
{
	static struct ct_event e;

	media(&e, m, ts, dpa, hpa, desc);
	return put_event(&e);
}

/* what the tree's soft_offline_page was last given */
static const char *offlined(void)
{
	static char buf[64];
	char path[700];
	FILE *f;
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/sys/devices/system/memory/soft_offline_page", root);
	if ((f = fopen(path, "r"))) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

static void counting(void)
{
	struct ct_page_retire_outcome *o;

	ct_page_retire_conf_defaults(&seen.conf);
	ok(!seen.conf.retire && seen.conf.threshold == 50 && seen.conf.window_s == 86400 && seen.conf.limit == 16,
	   "the defaults: off, 50 errors a day, 16 pages an hour");
	seen.conf.retire = true;
	seen.conf.threshold = 3;
	seen.conf.window_s = 3600;
	seen.conf.limit = 2;
	seen.now = T0 + 60 * NS;
	set_poisoned(REGION_HPA + 0x8000000, 0);	/* (the flags of the pages before it: 0) */
	/* an error of two hours ago falls out of the window */
	o = put(MEM0, T0 - 7200 * NS, 0x1040, hpa_of(MEM0, 0x1040), 0);
	ok(o && o->verdict == CT_PAGE_RETIRE_BELOW && o->entry.errors == 0, "an error older than the window: not counted");
	o = put(MEM0, T0, 0x1000, hpa_of(MEM0, 0x1000), 0);
	ok(o && o->verdict == CT_PAGE_RETIRE_BELOW && o->entry.errors == 1, "one corrected error: below (1)");
	/* another device's errors on the same DPA count for that device */
	o = put(MEM1, T0, 0x1000, hpa_of(MEM1, 0x1000), 0);
	ok(o && o->verdict == CT_PAGE_RETIRE_BELOW && o->entry.errors == 1, "another serial: its own count (1)");
	o = put(MEM0, T0 + NS, 0x1080, hpa_of(MEM0, 0x1080), 1);
	ok(o && o->verdict == CT_PAGE_RETIRE_UNCORRECTABLE && o->poison_known && !o->poisoned,
	   "uncorrectable: reported, the page not poisoned, nothing done");
	is_int(seen.rc, 0, "... and no error (the caller would warn the record was not weighed)");
	o = put(MEM0, T0 + 2 * NS, 0x1fc0, hpa_of(MEM0, 0x1fc0), 0);
	ok(o && o->verdict == CT_PAGE_RETIRE_BELOW && o->entry.errors == 2, "the uncorrectable one is not counted (2)");
	ok(o && o->entry.dpa == 0x1000 && o->entry.hpa == (hpa_of(MEM0, 0x1fc0) & ~0xfffULL),
	   "the page's first byte on the device and in the host");
	/* the third: tried; the tree has no soft_offline_page */
	o = put(MEM0, T0 + 3 * NS, 0x1000, hpa_of(MEM0, 0x1000), 0);
	ok(o && o->verdict == CT_PAGE_RETIRE_LOGGED && o->entry.action == CT_RETIRE_FAILED && o->entry.errors == 3,
	   "the third: tried, failed");
	ok(o && strstr(o->entry.message, "CONFIG_MEMORY_FAILURE") && strstr(o->entry.reason, "3 corrected errors within 3600 s"),
	   "says why (%s) and for what (%s)", o ? o->entry.message : "", o ? o->entry.reason : "");
}

/* a page the kernel refused: tried again after a while, not at every
 * record, and its tries do not spend the other pages' budget */
static void failed_page(void)
{
	struct ct_page_retire_outcome *o;
	char want[32];

	tree_put(root, "/sys/devices/system/memory/soft_offline_page", "");
	o = put(MEM0, T0 + 4 * NS, 0x1000, hpa_of(MEM0, 0x1000), 0);
	ok(o && o->verdict != CT_PAGE_RETIRE_LOGGED && !offlined()[0],
	   "a page that failed a second ago: not tried again at its next record");
	/* two pages due: the budget (2 an hour) is the failed page's and theirs */
	put(MEM0, T0 + 5 * NS, 0x3000, hpa_of(MEM0, 0x3000), 0);
	put(MEM0, T0 + 6 * NS, 0x3000, hpa_of(MEM0, 0x3000), 0);
	o = put(MEM0, T0 + 7 * NS, 0x3000, hpa_of(MEM0, 0x3000), 0);
	snprintf(want, sizeof(want), "0x%llx", (unsigned long long)(hpa_of(MEM0, 0x3000) & ~0xfffULL));
	ok(o && o->verdict == CT_PAGE_RETIRE_LOGGED && o->entry.action == CT_RETIRE_FAILED &&
	   strstr(o->entry.message, "not marked HWPOISON") && !strcmp(offlined(), want),
	   "another page due: tried, the failed page's retries spent none of its budget (%s)",
	   o ? o->entry.message : "");
	o = put(MEM0, T0 + 8 * NS, 0x5000, hpa_of(MEM0, 0x5000), 2);
	ok(o && o->verdict == CT_PAGE_RETIRE_LOGGED && o->entry.action == CT_RETIRE_LIMITED &&
	   strstr(o->entry.message, "limit of 2 pages an hour"), "a third page: the limit an hour, not tried (%s)",
	   o ? o->entry.message : "");
	o = put(MEM0, T0 + 9 * NS, 0x5000, hpa_of(MEM0, 0x5000), 2);
	ok(o && o->verdict == CT_PAGE_RETIRE_BEFORE, "limited within the hour: not written again");
	/* minutes later the failed page is tried again */
	tree_put(root, "/sys/devices/system/memory/soft_offline_page", "");
	seen.now = T0 + 1800 * NS;
	o = put(MEM0, T0 + 1790 * NS, 0x1000, hpa_of(MEM0, 0x1000), 0);
	snprintf(want, sizeof(want), "0x%llx", (unsigned long long)(hpa_of(MEM0, 0x1000) & ~0xfffULL));
	ok(o && o->verdict == CT_PAGE_RETIRE_LOGGED && o->entry.action == CT_RETIRE_FAILED && !strcmp(offlined(), want),
	   "half an hour later: the failed page tried again (%s)", offlined());
}

static void decisions(void)
{
	struct ct_page_retire_outcome *o;

	seen.now = T0 + 3600 * NS;
	/* the device's own threshold flag: at the first error */
	o = put(MEM1, T0 + 3590 * NS, 0x7000, hpa_of(MEM1, 0x7000), 2);
	ok(o && o->verdict == CT_PAGE_RETIRE_LOGGED && strstr(o->entry.reason, "the device reports"),
	   "the device's threshold event: acted on at once (%s)", o ? o->entry.reason : "");
	/* a page poisoned already */
	set_poisoned(hpa_of(MEM1, 0x9000), 1);
	seen.conf.threshold = 1;
	o = put(MEM1, T0 + 3591 * NS, 0x9000, hpa_of(MEM1, 0x9000), 0);
	ok(o && o->verdict == CT_PAGE_RETIRE_LOGGED && o->entry.action == CT_RETIRE_ALREADY, "poisoned already: said, not tried");
	o = put(MEM1, T0 + 3592 * NS, 0x9000, hpa_of(MEM1, 0x9000), 0);
	ok(o && o->verdict == CT_PAGE_RETIRE_BEFORE, "... once");
	o = put(MEM1, T0 + 3593 * NS, 0x9000, hpa_of(MEM1, 0x9000), 1);
	ok(o && o->verdict == CT_PAGE_RETIRE_UNCORRECTABLE && o->poison_known && o->poisoned,
	   "uncorrectable on a poisoned page: the kernel's, said");
	is_int(seen.rc, 0, "... and no error");
	o = put(MEM1, T0 + 3594 * NS, 0xb000, NO_HPA, 0);
	ok(o && o->verdict == CT_PAGE_RETIRE_UNMAPPED, "no host address (no region): nothing to retire");
	seen.conf.retire = false;
	o = put(MEM1, T0 + 3595 * NS, 0xc000, hpa_of(MEM1, 0xc000), 0);
	ok(o && o->verdict == CT_PAGE_RETIRE_OFF && strstr(o->entry.reason, "1 corrected errors"),
	   "retire-pages = no: crossed, left alone");
}

static int listed(const struct ct_retirement *r, void *arg)
{
	char *out = arg;

	snprintf(out + strlen(out), 512 - strlen(out), "%s:%s:%llx ", r->memdev, ct_retire_log_action_name(r->action),
		 (unsigned long long)r->dpa);
	return 0;
}

static void log_and_duplicates(void)
{
	static struct ct_event e;
	char out[512] = "";
	unsigned before = new_records;

	is_int(ct_retire_log_each(w, listed, out, &ctx->err), 0, "the retirements listed");
	is_str(out, "mem0:failed:3000 mem0:limited:5000 mem0:failed:1000 mem1:failed:7000 mem1:already_poisoned:9000 ",
	       "each page's last decision written, oldest first");
	/* the same record again (a drain of the shared instance): not weighed twice */
	handle--;
	media(&e, MEM1, T0 + 3595 * NS, 0xc000, hpa_of(MEM1, 0xc000), 0);
	ct_event_store_add(w, &e);
	ct_event_store_flush(w, &ctx->err);
	is_int(new_records, before, "a record stored before: no new-record call");
}

/* the window counts by the host's clock: a device two days behind */
static void host_clock(void)
{
	struct ct_page_retire_outcome *o = NULL;
	static struct ct_event e;
	struct timespec now;
	uint64_t t;

	clock_gettime(CLOCK_REALTIME, &now);
	t = (uint64_t)now.tv_sec * NS + (uint64_t)now.tv_nsec;
	seen.conf.retire = true;
	seen.conf.threshold = 3;
	seen.conf.window_s = 3600;
	seen.conf.limit = 16;
	seen.now = t + NS;
	for (int i = 0; i < 3; i++) {
		media_of(&e, "mem0", memdev_host[MEM0], true, memdev_serial[MEM0], t - 2 * 86400 * NS + i * NS,
			 t + i * 1000, 0x21000 + 64 * i, hpa_of(MEM0, 0x21000 + 64 * i), 0);
		o = put_event(&e);
	}
	ok(o && o->verdict == CT_PAGE_RETIRE_LOGGED && o->entry.errors == 3,
	   "a device two days behind: its three errors of the last second count (%u)", o ? o->entry.errors : 0);
}

/* the statements' steps while a record is weighed */
static uint64_t steps;
static int on_profile(unsigned type, void *arg, void *p, void *x)
{
	(void)arg, (void)x;
	if (type == SQLITE_TRACE_PROFILE)
		steps += (uint64_t)sqlite3_stmt_status(p, SQLITE_STMTSTATUS_VM_STEP, 0);
	return 0;
}

static uint64_t steps_of(int m, uint64_t ts, uint64_t dpa)
{
	static struct ct_event e;

	media(&e, m, ts, dpa, hpa_of(m, dpa), 0);
	seen.skip = true;
	ct_event_store_add(w, &e);
	ct_event_store_flush(w, &ctx->err);
	seen.skip = false;
	steps = 0;
	sqlite3_trace_v2(ct_event_store_sqlite(w), SQLITE_TRACE_PROFILE, on_profile, NULL);
	seen.n = 0;
	seen.rc = ct_page_retire_consider(ctx, w, &e, &seen.conf, seen.now, &seen.out[0]);
	sqlite3_trace_v2(ct_event_store_sqlite(w), 0, NULL, NULL);
	return steps;
}

/* stored records on a page of mem0, not weighed */
static void stored_on(uint64_t dpa, int n)
{
	static struct ct_event e;

	seen.skip = true;
	for (int i = 0; i < n; i++) {
		media(&e, MEM0, T0 + (uint64_t)i * 1000000ULL, dpa + 64 * (uint64_t)(i % 64), hpa_of(MEM0, dpa), 0);
		ct_event_store_add(w, &e);
	}
	ct_event_store_flush(w, &ctx->err);
	seen.skip = false;
}

/* weighing a record costs the same with ten thousand errors stored on its
 * page as with a hundred, retirement on or off */
static void flat_cost(void)
{
	uint64_t few, many;

	seen.now = T0 + 3600 * NS;
	seen.conf.window_s = 86400;
	seen.conf.threshold = 50;
	seen.conf.limit = 0;
	for (int on = 1; on >= 0; on--) {
		seen.conf.retire = on;
		stored_on(0x31000 + 0x10000 * (uint64_t)on, 100);
		stored_on(0x32000 + 0x10000 * (uint64_t)on, 10000);
		few = steps_of(MEM0, T0 + 20 * NS, 0x31000 + 0x10000 * (uint64_t)on);
		many = steps_of(MEM0, T0 + 21 * NS, 0x32000 + 0x10000 * (uint64_t)on);
		ok(many <= few + few / 5, "retirement %s: a record on a page with 10000 errors weighed in %llu steps, one on "
		   "a page with 100 in %llu", on ? "on" : "off", (unsigned long long)many, (unsigned long long)few);
	}
}

/* devices with serial 0, or the same serial, are told apart */
static void identity(void)
{
	static struct ct_event e;
	struct ct_page_retire_outcome *o = NULL;
	uint64_t stored, dups;

	seen.conf.retire = true;
	seen.conf.threshold = 50;
	seen.conf.window_s = 86400;
	seen.now = T0 + 3600 * NS;
	seen.skip = true;
	for (int i = 0; i < 49; i++) {
		media_of(&e, "mem0", memdev_host[MEM0], true, 0, T0 + i * NS, T0 + i * NS, 0x5000, NO_HPA, 0);
		ct_event_store_add(w, &e);
	}
	ct_event_store_flush(w, &ctx->err);
	seen.skip = false;
	media_of(&e, "mem1", memdev_host[MEM1], true, 0, T0 + 60 * NS, T0 + 60 * NS, 0x5000, NO_HPA, 0);
	o = put_event(&e);
	ok(o && o->verdict == CT_PAGE_RETIRE_BELOW && o->entry.errors == 1,
	   "serial 0: 49 errors on mem0's page 0x5000 are not mem1's (%u)", o ? o->entry.errors : 0);
	/* the same serial on two cards */
	seen.skip = true;
	for (int i = 0; i < 49; i++) {
		media_of(&e, "mem0", memdev_host[MEM0], true, 0x77, T0 + i * NS, T0 + i * NS, 0x6000, NO_HPA, 0);
		ct_event_store_add(w, &e);
	}
	ct_event_store_flush(w, &ctx->err);
	seen.skip = false;
	media_of(&e, "mem1", memdev_host[MEM1], true, 0x77, T0 + 60 * NS, T0 + 60 * NS, 0x6000, NO_HPA, 0);
	o = put_event(&e);
	ok(o && o->verdict == CT_PAGE_RETIRE_BELOW && o->entry.errors == 1,
	   "a serial two cards report: 49 errors of one are not the other's (%u)", o ? o->entry.errors : 0);
	/* two cards without a serial, the same handle at the same time: two records */
	stored = ct_event_store_stats(w)->stored;
	dups = ct_event_store_stats(w)->duplicates;
	seen.skip = true;
	media_of(&e, "mem0", memdev_host[MEM0], true, 0, T0 + 99 * NS, T0 + 99 * NS, 0x8000, NO_HPA, 0);
	handle--;
	ct_event_store_add(w, &e);
	media_of(&e, "mem1", memdev_host[MEM1], true, 0, T0 + 99 * NS, T0 + 99 * NS, 0x8000, NO_HPA, 0);
	ct_event_store_add(w, &e);
	ct_event_store_flush(w, &ctx->err);
	seen.skip = false;
	ok(ct_event_store_stats(w)->stored == stored + 2 && ct_event_store_stats(w)->duplicates == dups,
	   "serial 0 on two cards, one handle and time: both stored (%llu stored, %llu duplicates)",
	   (unsigned long long)(ct_event_store_stats(w)->stored - stored),
	   (unsigned long long)(ct_event_store_stats(w)->duplicates - dups));
}

/* an HPA the kernel gave that no longer maps the record's DPA (a region
 * made again, another card): stored, not acted on */
static void moved(void)
{
	static struct ct_event e;
	struct ct_page_retire_outcome *o;

	seen.conf.retire = true;
	seen.conf.threshold = 1;
	seen.conf.limit = 0;
	seen.now = T0 + 7200 * NS;
	tree_put(root, "/sys/devices/system/memory/soft_offline_page", "");
	/* mem0's DPA 0x51000 now maps to another HPA than the record's */
	o = put(MEM0, T0 + 7100 * NS, 0x51000, hpa_of(MEM1, 0x51000), 0);
	ok(o && o->verdict == CT_PAGE_RETIRE_LOGGED && o->entry.action == CT_RETIRE_STALE && !offlined()[0],
	   "an HPA that maps another memdev's DPA now: not soft-offlined (%s), stale: %s", offlined(),
	   o ? o->entry.message : "");
	/* mem0 is another card now (its serial is 0x1234) */
	media_of(&e, "mem0", memdev_host[MEM0], true, 0x4321, T0 + 7101 * NS, T0 + 7101 * NS, 0x52000,
		 hpa_of(MEM0, 0x52000), 0);
	o = put_event(&e);
	ok(o && o->verdict == CT_PAGE_RETIRE_LOGGED && o->entry.action == CT_RETIRE_STALE && !offlined()[0],
	   "a record of a card that is no longer mem0: not soft-offlined (%s), stale: %s", offlined(),
	   o ? o->entry.message : "");
	/* and one that maps: tried */
	o = put(MEM0, T0 + 7102 * NS, 0x53000, hpa_of(MEM0, 0x53000), 0);
	ok(o && o->verdict == CT_PAGE_RETIRE_LOGGED && offlined()[0], "one that maps: tried (%s)", offlined());
}

static unsigned count_rows(const char *table)
{
	sqlite3_stmt *st;
	char sql[96];
	unsigned n = 0;

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", table);
	if (sqlite3_prepare_v2(ct_event_store_sqlite(w), sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		n = (unsigned)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

static uint64_t used_bytes(void)
{
	sqlite3_stmt *st;
	uint64_t n = 0;

	if (sqlite3_prepare_v2(ct_event_store_sqlite(w), "SELECT (SELECT page_count FROM pragma_page_count()) - "
			       "(SELECT freelist_count FROM pragma_freelist_count()), (SELECT page_size FROM "
			       "pragma_page_size())", -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		n = (uint64_t)sqlite3_column_int64(st, 0) * (uint64_t)sqlite3_column_int64(st, 1);
	sqlite3_finalize(st);
	return n;
}

/* 6000 pages the device flags, under a 1 MiB budget: the decisions are
 * kept within bounds of their own, the records within what is left */
static void bounded(void)
{
	struct ct_event_store_limits lim = { .max_bytes = 1 << 20 };
	static struct ct_event e;
	char path[700];
	unsigned records, made;
	uint64_t used;

	ct_event_store_close(w);
	snprintf(path, sizeof(path), "%s/store/bounded.db", root);
	is_int(ct_event_store_open_writer(path, &lim, &w, &ctx->err), 0, "a store of 1 MiB");
	ct_event_store_on_new(w, on_new, NULL);
	seen.conf.retire = true;
	seen.conf.threshold = 50;
	seen.conf.limit = 16;
	seen.skip = true;
	for (int i = 0; i < 6000; i++) {
		seen.now = T0 + (uint64_t)i * NS;
		media(&e, MEM0, T0 + (uint64_t)i * NS, 0x100000 + (uint64_t)i * 4096, hpa_of(MEM0, 0x100000 + (uint64_t)i * 4096), 2);
		ct_event_store_add(w, &e);
		if (i % 100 == 99) {
			seen.skip = false;
			seen.n = 0;
			ct_event_store_flush(w, &ctx->err);
			seen.skip = true;
		}
	}
	seen.skip = false;
	records = count_rows("records");
	made = count_rows("retirements");
	used = used_bytes();
	ok(records >= 500 && used <= (1 << 20) && made <= 1000,
	   "6000 pages flagged: %u records kept, %u decisions, %llu bytes used of 1 MiB", records, made,
	   (unsigned long long)used);
	/* one page limited hour after hour: one decision */
	seen.conf.limit = 1;
	seen.conf.threshold = 1;
	for (int h = 0; h < 3; h++) {
		seen.now = T0 + (100 + (uint64_t)h) * 3600 * NS;
		put(MEM0, seen.now - NS, 0x2000000, hpa_of(MEM0, 0x2000000), 0);	/* tried: the hour's budget */
		put(MEM0, seen.now, 0x2001000, hpa_of(MEM0, 0x2001000), 0);		/* limited */
	}
	ok(count_rows("retirements") <= made + 2, "a page limited three hours running: one decision more, not "
	   "three (%u more)", count_rows("retirements") - made);
}

/* a store of schema 2, as cxltier 2.x wrote it: one record, and two
 * decisions on one page */
#define SCHEMA_2 \
	"CREATE TABLE records (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, body INTEGER NOT NULL," \
	" time_ns INTEGER NOT NULL, emit_ns INTEGER NOT NULL, event TEXT NOT NULL, kind TEXT NOT NULL, severity TEXT," \
	" memdev TEXT NOT NULL, serial INTEGER, region TEXT, dpa INTEGER, hpa INTEGER, fields BLOB NOT NULL);" \
	"CREATE INDEX records_time ON records(time_ns); CREATE INDEX records_memdev ON records(memdev, time_ns);" \
	"CREATE INDEX records_serial ON records(serial); CREATE INDEX records_kind ON records(kind, severity);" \
	"CREATE INDEX records_region ON records(region); CREATE INDEX records_dpa ON records(dpa);" \
	"CREATE INDEX records_hpa ON records(hpa); CREATE INDEX records_body ON records(body, emit_ns);" \
	"CREATE TABLE counts (memdev TEXT NOT NULL, serial INTEGER NOT NULL, kind TEXT NOT NULL," \
	" severity TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (memdev, serial, kind, severity)) WITHOUT ROWID;" \
	"CREATE TABLE meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;" \
	"INSERT INTO meta VALUES ('pruned', 0);" \
	"CREATE TABLE retirements (id INTEGER PRIMARY KEY, time_ns INTEGER NOT NULL, memdev TEXT NOT NULL," \
	" serial INTEGER, device TEXT NOT NULL, dpa INTEGER, hpa INTEGER, action TEXT NOT NULL," \
	" errors INTEGER NOT NULL, reason TEXT NOT NULL, message TEXT);" \
	"CREATE INDEX retirements_page ON retirements(device, hpa, action);" \
	"CREATE INDEX retirements_device ON retirements(device, action, time_ns);" \
	"PRAGMA application_id = 1129860180; PRAGMA user_version = 2;" \
	"INSERT INTO retirements VALUES (1, 1, 'mem1', 22136, '0x5678', 57344, 4563451904, 'failed', 3, 'r', 'busy');" \
	"INSERT INTO retirements VALUES (2, 2, 'mem1', 22136, '0x5678', 57344, 4563451904, 'retired', 4, 'r', NULL);"

static int count_listed(const struct ct_retirement *r, void *arg)
{
	(void)r;
	(*(unsigned *)arg)++;
	return 0;
}

static void count_decisions(const char *memdev, uint64_t serial, enum ct_retire_action action, uint64_t n, void *arg)
{
	char *out = arg;

	snprintf(out + strlen(out), 128 - strlen(out), "%s:%llx:%s:%llu ", memdev, (unsigned long long)serial,
		 ct_retire_log_action_name(action), (unsigned long long)n);
}

/* a store of schema 2: upgraded by its reader, its record known again,
 * its decisions one a page and counted, decisions written again */
static void schema_two(void)
{
	static struct ct_event e;
	static uint8_t blob[8192];
	struct ct_event_store *r;
	struct ct_event_store_limits lim = { 0, 0 };
	char path[700], counted[128] = "";
	unsigned pages = 0;
	sqlite3_stmt *st;
	sqlite3 *h;
	size_t n;

	snprintf(path, sizeof(path), "%s/store/two.db", root);
	media(&e, MEM1, T0 + 8000 * NS, 0xe000, hpa_of(MEM1, 0xe000), 0);
	n = ct_event_blob_write(&e, blob, sizeof(blob));
	ok(sqlite3_open(path, &h) == SQLITE_OK && sqlite3_exec(h, SCHEMA_2, NULL, NULL, NULL) == SQLITE_OK &&
	   sqlite3_prepare_v2(h, "INSERT INTO records VALUES (1, 'h|s22136|fbcd0a77-c260-417f-85a9-088b1621eba6|1|9|1', "
			      "7, ?1, ?2, 'cxl_general_media', 'general_media', 'warning', 'mem1', 22136, 'region0', "
			      "57344, 4563451904, ?3)", -1, &st, NULL) == SQLITE_OK, "a store of schema 2, by hand");
	sqlite3_bind_int64(st, 1, (int64_t)e.timestamp);
	sqlite3_bind_int64(st, 2, (int64_t)e.trace_time);
	sqlite3_bind_blob(st, 3, blob, (int)n, SQLITE_STATIC);
	ok(sqlite3_step(st) == SQLITE_DONE, "... with a record of it");
	sqlite3_finalize(st);
	sqlite3_close(h);
	is_int(ct_event_store_open_reader(path, &r, &ctx->err), 0, "its reader upgrades it: %s", ctx->err.msg);
	ok(r && ct_event_store_has(r, &e), "the record is known again, under this schema's key");
	is_int(r ? ct_retire_log_each(r, count_listed, &pages, &ctx->err) : -1, 0, "its decisions read");
	is_int(pages, 1, "one a page");
	ct_retire_log_counts(r, count_decisions, counted, &ctx->err);
	is_str(counted, "mem1:5678:failed:1 mem1:5678:retired:1 ", "each counted");
	ct_event_store_close(r);
	ct_event_store_close(w);
	is_int(ct_event_store_open_writer(path, &lim, &w, &ctx->err), 0, "a writer opens it");
	ct_event_store_on_new(w, on_new, NULL);
	seen.conf.retire = true;
	seen.conf.threshold = 1;
	seen.now = T0 + 9000 * NS;
	set_poisoned(hpa_of(MEM1, 0xd000), 1);
	struct ct_page_retire_outcome *o = put(MEM1, T0 + 8999 * NS, 0xd000, hpa_of(MEM1, 0xd000), 0);
	ok(o && o->verdict == CT_PAGE_RETIRE_LOGGED && seen.rc == 0, "... and decisions are written again");
	ct_event_store_close(w);
	w = NULL;
	ok(sqlite3_open(path, &h) == SQLITE_OK, "reopened by hand");
	ok(sqlite3_prepare_v2(h, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW &&
	   sqlite3_column_int(st, 0) == CT_EVENT_STORE_SCHEMA, "its schema is %d now", CT_EVENT_STORE_SCHEMA);
	sqlite3_finalize(st);
	sqlite3_close(h);
}

int main(void)
{
	struct ct_event_store_limits lim = { 0, 0 };
	char cmd[1400];

	if (!mkdtemp(tap_tmp_template(root, sizeof(root), "cxltier-page-retire"))) {
		perror("mkdtemp");
		return 1;
	}
	chmod(root, 0700);
	snprintf(cmd, sizeof(cmd), "tar xzf '%s/lab-two-devices-interleaved.tar.gz' -C '%s'", CXLTIER_FIXTURES, root);
	ok(system(cmd) == 0, "the captured tree of two memdevs in one region");
	tree_put_mode(root, "/store/x", "", 0700);
	tree_put(root, "/proc/kpageflags", "");
	unlink(strcat(strcpy(cmd, root), "/sys/devices/system/memory/soft_offline_page"));
	snprintf(db, sizeof(db), "%s/store/events.db", root);
	ok(ct_context_new(&ctx, root) == 0, "context on the tree");
	is_int(ct_event_store_open_writer(db, &lim, &w, &ctx->err), 0, "a new store");
	ct_event_store_on_new(w, on_new, NULL);
	counting();
	failed_page();
	decisions();
	log_and_duplicates();
	host_clock();
	flat_cost();
	identity();
	moved();
	schema_two();
	bounded();
	ct_event_store_close(w);
	ct_context_free(ctx);
	tap_rm_tree(root);
	return tap_done();
}
