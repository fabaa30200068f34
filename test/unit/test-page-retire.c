// SPDX-License-Identifier: GPL-2.0-only
/* Page retirement (lib/events/page-retire.c, retire-log.c, the store's
 * new-record hook) on a throw-away tree standing for /proc/kpageflags and
 * /sys/devices/system/memory/soft_offline_page: corrected errors counted per
 * DPA page of a device within the window, below the threshold nothing; at
 * it the page is tried, and what happened written with its reason; the
 * device's own threshold flag acts at once; an uncorrectable record is
 * never acted on; retirement off, an unmapped DPA, a poisoned page, the
 * limit an hour; a record stored twice is weighed once; a store of schema 1
 * read (no retirements) and upgraded. The kernel side of a real retirement
 * is the VM tier's (test/vm/events-retire.bats). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sqlite3.h>
#include "tap.h"
#include "tree.h"
#include "core/context.h"
#include "events/event-store.h"
#include "events/page-retire.h"
#include "events/retire-log.h"

#define NS 1000000000ULL
#define T0 (1764979200ULL * NS)	/* 2025-12-06T00:00:00Z */
#define HPA_BASE 0x1080000000ULL
#define NO_HPA UINT64_MAX

static char root[512], db[600];
static struct ct_context *ctx;
static struct ct_event_store *w;
static unsigned new_records;
static uint16_t handle;

/* a media record of memdev (serial) at dpa, device time ts */
static void media(struct ct_event *e, const char *event, uint64_t serial, uint64_t ts, uint64_t dpa, uint64_t hpa,
		  uint8_t descriptor)
{
	static const uint8_t gm_uuid[16] = { 0xfb, 0xcd, 0x0a, 0x77, 0xc2, 0x60, 0x41, 0x7f,
					     0x85, 0xa9, 0x08, 0x8b, 0x16, 0x21, 0xeb, 0xa6 };

	ct_event_init(e, event);
	ct_event_add_string(e, "memdev", "mem0", 4);
	ct_event_add_string(e, "host", "0000:0d:00.0", 12);
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
	e->trace_time = ts + 1000;
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
} seen;

static int on_new(const struct ct_event *e, void *arg)
{
	(void)arg;
	new_records++;
	if (seen.n < 8)
		seen.rc = ct_page_retire_consider(ctx, w, e, &seen.conf, T0 + 60 * NS, &seen.out[seen.n++]);
	return 0;
}

/* one record stored and weighed: its outcome */
static struct ct_page_retire_outcome *put(uint64_t serial, uint64_t ts, uint64_t dpa, uint64_t hpa, uint8_t desc)
{
	static struct ct_event e;

	seen.n = 0;
	seen.rc = 0;
	media(&e, "cxl_general_media", serial, ts, dpa, hpa, desc);
	ct_event_store_add(w, &e);
	ct_event_store_flush(w, &ctx->err);
	return seen.n == 1 ? &seen.out[0] : NULL;
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
	set_poisoned(HPA_BASE + 0xf000, 0);	/* (the flags of the pages before it: 0) */
	/* an error of two hours ago falls out of the window */
	o = put(42, T0 - 7200 * NS, 0x1040, HPA_BASE + 0x1040, 0);
	ok(o && o->verdict == CT_PAGE_RETIRE_BELOW && o->entry.errors == 0, "an error older than the window: not counted");
	o = put(42, T0, 0x1000, HPA_BASE + 0x1000, 0);
	ok(o && o->verdict == CT_PAGE_RETIRE_BELOW && o->entry.errors == 1, "one corrected error: below (1)");
	/* another device's errors on the same DPA count for that device */
	o = put(43, T0, 0x1000, HPA_BASE + 0x1000, 0);
	ok(o && o->verdict == CT_PAGE_RETIRE_BELOW && o->entry.errors == 1, "another serial: its own count (1)");
	o = put(42, T0 + NS, 0x1080, HPA_BASE + 0x1080, 1);
	ok(o && o->verdict == CT_PAGE_RETIRE_UNCORRECTABLE && o->poison_known && !o->poisoned,
	   "uncorrectable: reported, the page not poisoned, nothing done");
	is_int(seen.rc, 0, "... and no error (the caller would warn the record was not weighed)");
	o = put(42, T0 + 2 * NS, 0x1fc0, HPA_BASE + 0x1fc0, 0);
	ok(o && o->verdict == CT_PAGE_RETIRE_BELOW && o->entry.errors == 2, "the uncorrectable one is not counted (2)");
	ok(o && o->entry.dpa == 0x1000 && o->entry.hpa == HPA_BASE + 0x1000 && !strcmp(o->entry.device, "0x2a"),
	   "the page's first byte, device 0x2a");
	/* the third: tried; the tree has no soft_offline_page */
	o = put(42, T0 + 3 * NS, 0x1000, HPA_BASE + 0x1000, 0);
	ok(o && o->verdict == CT_PAGE_RETIRE_LOGGED && o->entry.action == CT_RETIRE_FAILED && o->entry.errors == 3,
	   "the third: tried, failed");
	ok(o && strstr(o->entry.message, "CONFIG_MEMORY_FAILURE") && strstr(o->entry.reason, "3 corrected errors within 3600 s"),
	   "says why (%s) and for what (%s)", o ? o->entry.message : "", o ? o->entry.reason : "");
	/* a kernel that takes the page and does not mark it */
	tree_put(root, "/sys/devices/system/memory/soft_offline_page", "");
	o = put(42, T0 + 4 * NS, 0x1000, HPA_BASE + 0x1000, 0);
	ok(o && o->verdict == CT_PAGE_RETIRE_LOGGED && o->entry.action == CT_RETIRE_FAILED &&
	   strstr(o->entry.message, "not marked HWPOISON"), "written, yet not poisoned: failed (%s)",
	   o ? o->entry.message : "");
	/* two tries this hour: the limit (2) stops the next page */
	put(42, T0 + 5 * NS, 0x3000, HPA_BASE + 0x3000, 0);
	put(42, T0 + 6 * NS, 0x3000, HPA_BASE + 0x3000, 0);
	o = put(42, T0 + 7 * NS, 0x3000, HPA_BASE + 0x3000, 0);
	ok(o && o->verdict == CT_PAGE_RETIRE_LOGGED && o->entry.action == CT_RETIRE_LIMITED &&
	   strstr(o->entry.message, "limit of 2 pages an hour"), "the limit an hour: not tried (%s)", o ? o->entry.message : "");
	o = put(42, T0 + 8 * NS, 0x3000, HPA_BASE + 0x3000, 0);
	ok(o && o->verdict == CT_PAGE_RETIRE_BEFORE, "limited within the hour: not written again");
	/* the device's own threshold flag: at the first error */
	o = put(43, T0 + 9 * NS, 0x7000, HPA_BASE + 0x7000, 2);
	ok(o && o->verdict == CT_PAGE_RETIRE_LOGGED && strstr(o->entry.reason, "the device reports"),
	   "the device's threshold event: acted on at once (%s)", o ? o->entry.reason : "");
	/* a page poisoned already */
	set_poisoned(HPA_BASE + 0x9000, 1);
	seen.conf.threshold = 1;
	o = put(44, T0 + 10 * NS, 0x9000, HPA_BASE + 0x9000, 0);
	ok(o && o->verdict == CT_PAGE_RETIRE_LOGGED && o->entry.action == CT_RETIRE_ALREADY, "poisoned already: said, not tried");
	o = put(44, T0 + 11 * NS, 0x9000, HPA_BASE + 0x9000, 0);
	ok(o && o->verdict == CT_PAGE_RETIRE_BEFORE, "... once");
	o = put(44, T0 + 12 * NS, 0x9000, HPA_BASE + 0x9000, 1);
	ok(o && o->verdict == CT_PAGE_RETIRE_UNCORRECTABLE && o->poison_known && o->poisoned,
	   "uncorrectable on a poisoned page: the kernel's, said");
	is_int(seen.rc, 0, "... and no error");
	o = put(45, T0 + 13 * NS, 0xb000, NO_HPA, 0);
	ok(o && o->verdict == CT_PAGE_RETIRE_UNMAPPED, "no host address (no region): nothing to retire");
	seen.conf.retire = false;
	o = put(45, T0 + 14 * NS, 0xc000, HPA_BASE + 0xc000, 0);
	ok(o && o->verdict == CT_PAGE_RETIRE_OFF && strstr(o->entry.reason, "1 corrected errors"),
	   "retire-pages = no: crossed, left alone");
}

static int listed(const struct ct_retirement *r, void *arg)
{
	char *out = arg;

	snprintf(out + strlen(out), 512 - strlen(out), "%s:%s:%llx ", r->device, ct_retire_log_action_name(r->action),
		 (unsigned long long)r->dpa);
	return 0;
}

static void log_and_duplicates(void)
{
	static struct ct_event e;
	char out[512] = "";
	unsigned before = new_records;

	is_int(ct_retire_log_each(w, listed, out, &ctx->err), 0, "the retirements listed");
	is_str(out, "0x2a:failed:1000 0x2a:failed:1000 0x2a:limited:3000 0x2b:failed:7000 0x2c:already_poisoned:9000 ",
	       "each decision written, oldest first");
	/* the same record again (a drain of the shared instance): not weighed twice */
	handle--;
	media(&e, "cxl_general_media", 45, T0 + 14 * NS, 0xc000, HPA_BASE + 0xc000, 0);
	ct_event_store_add(w, &e);
	ct_event_store_flush(w, &ctx->err);
	is_int(new_records, before, "a record stored before: no new-record call");
}

/* a store of schema 1 (before retirements): read with none, upgraded by a writer */
static void schema_one(void)
{
	struct ct_event_store *r;
	struct ct_event_store_limits lim = { 0, 0 };
	char out[512] = "";
	sqlite3 *h;

	ct_event_store_close(w);
	ok(sqlite3_open(db, &h) == SQLITE_OK &&
	   sqlite3_exec(h, "DROP TABLE retirements; PRAGMA user_version = 1;", NULL, NULL, NULL) == SQLITE_OK,
	   "the store made schema 1");
	sqlite3_close(h);
	is_int(ct_event_store_open_reader(db, &r, &ctx->err), 0, "schema 1 opens for reading");
	is_int(ct_retire_log_each(r, listed, out, &ctx->err), 0, "... no retirements table: none");
	ct_event_store_close(r);
	is_int(ct_event_store_open_writer(db, &lim, &w, &ctx->err), 0, "a writer upgrades it");
	ct_event_store_on_new(w, on_new, NULL);
	seen.conf.retire = true;
	set_poisoned(HPA_BASE + 0xd000, 1);
	struct ct_page_retire_outcome *o = put(46, T0 + 15 * NS, 0xd000, HPA_BASE + 0xd000, 0);
	ok(o && o->verdict == CT_PAGE_RETIRE_LOGGED && seen.rc == 0, "... and retirements are written again");
	ct_event_store_close(w);
	ok(sqlite3_open(db, &h) == SQLITE_OK, "reopened by hand");
	sqlite3_stmt *st;
	ok(sqlite3_prepare_v2(h, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW &&
	   sqlite3_column_int(st, 0) == CT_EVENT_STORE_SCHEMA, "its schema is %d now", CT_EVENT_STORE_SCHEMA);
	sqlite3_finalize(st);
	sqlite3_close(h);
}

int main(void)
{
	struct ct_event_store_limits lim = { 0, 0 };

	if (!mkdtemp(tap_tmp_template(root, sizeof(root), "cxltier-page-retire"))) {
		perror("mkdtemp");
		return 1;
	}
	chmod(root, 0700);
	tree_put_mode(root, "/store/x", "", 0700);
	tree_put(root, "/proc/kpageflags", "");
	snprintf(db, sizeof(db), "%s/store/events.db", root);
	ok(ct_context_new(&ctx, root) == 0, "context on the tree");
	is_int(ct_event_store_open_writer(db, &lim, &w, &ctx->err), 0, "a new store");
	ct_event_store_on_new(w, on_new, NULL);
	counting();
	log_and_duplicates();
	schema_one();
	ct_context_free(ctx);
	tap_rm_tree(root);
	return tap_done();
}
