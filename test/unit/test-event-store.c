// SPDX-License-Identifier: GPL-2.0-only
/* The event store (lib/events/event-store.c) and what it keeps a record as
 * (event-blob.c), and the history counted (event-summary.c): every field
 * round trips; a record is stored once, whoever reads it again; a headerless
 * record read by two tracefs instances (emit times a few us apart) is known
 * as the same; the counters only grow, through pruning and reopening; a
 * damaged or foreign file is moved aside and a new store started; a newer
 * schema is refused and left alone; a directory that is a link, another's
 * or writable by others is refused; a store that cannot take records keeps
 * them queued and writes them when it can; the size and age bounds prune the
 * oldest and count them. */
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
#include "events/event-blob.h"
#include "events/event-store.h"
#include "events/event-summary.h"
#include "config/events-conf.h"

static char root[512];
static struct ct_error err;

#define NS 1000000000ULL
#define T0 (1764979200ULL * NS)	/* 2025-12-06T00:00:00Z */

/* a General Media record as the kernel's tracepoint gives it */
static void gm(struct ct_event *e, const char *memdev, uint64_t serial, uint16_t handle, uint64_t ts, uint64_t dpa,
	       uint8_t descriptor, uint8_t log)
{
	static const uint8_t uuid[16] = { 0xfb, 0xcd, 0x0a, 0x77, 0xc2, 0x60, 0x41, 0x7f,
					  0x85, 0xa9, 0x08, 0x8b, 0x16, 0x21, 0xeb, 0xa6 };
	uint32_t mask[4] = { 1, 2, 3, 4 };

	ct_event_init(e, "cxl_general_media");
	ct_event_add_string(e, "memdev", memdev, strlen(memdev));
	ct_event_add_string(e, "host", "0000:0d:00.0", 12);
	ct_event_add_uint(e, "serial", serial);
	ct_event_add_int(e, "log", log);
	ct_event_add_bytes(e, "hdr_uuid", CT_FIELD_UUID, uuid, 16, 1);
	ct_event_add_uint(e, "hdr_flags", 0);
	ct_event_add_uint(e, "hdr_handle", handle);
	ct_event_add_uint(e, "hdr_timestamp", ts);
	ct_event_add_uint(e, "dpa", dpa);
	ct_event_add_uint(e, "descriptor", descriptor);
	ct_event_add_uint(e, "type", 0);
	ct_event_add_bytes(e, "cor_mask", CT_FIELD_UINT_ARRAY, mask, sizeof(mask), 4);
	ct_event_add_uint(e, "hpa", 0x1080000000ULL + (dpa & 0xfffffff));
	ct_event_add_string(e, "region", "region0", 7);
	ct_event_decode_fields(e);
	e->trace_time = ts + 1000;
}

/* a poison record (no common header) */
static void poison(struct ct_event *e, const char *memdev, uint64_t dpa, uint64_t emit)
{
	ct_event_init(e, "cxl_poison");
	ct_event_add_string(e, "memdev", memdev, strlen(memdev));
	ct_event_add_uint(e, "serial", 7);
	ct_event_add_uint(e, "dpa", dpa);
	ct_event_add_uint(e, "dpa_length", 64);
	ct_event_add_uint(e, "source", 3);
	ct_event_add_uint(e, "trace_type", 0);
	ct_event_decode_fields(e);
	e->trace_time = emit;
}

static void blob_cases(void)
{
	static struct ct_event e, back;
	static uint8_t blob[CT_EVENT_BLOB_MAX];
	size_t n;

	gm(&e, "mem0", 42, 5, T0, 0x1000, 0, 1);
	n = ct_event_blob_write(&e, blob, sizeof(blob));
	ok(n > 0, "a General Media record as bytes (%zu)", n);
	is_int(ct_event_blob_read(blob, n, &back), 0, "and back");
	is_int((long long)back.nfields, (long long)e.nfields, "every field");
	ok(!strcmp(back.event, "cxl_general_media") && !strcmp(back.memdev, "mem0") && back.serial == 42 &&
	   back.handle == 5 && back.timestamp == T0 && back.dpa == 0x1000 && back.trace_time == T0 + 1000 &&
	   back.has_hpa && !strcmp(back.region, "region0") && back.kind == CT_EV_GENERAL_MEDIA,
	   "decoded as when it was read: names, times, DPA, HPA, region");
	{
		const struct ct_event_field *a = ct_event_field(&e, "cor_mask"), *b = ct_event_field(&back, "cor_mask");
		ok(a && b && b->type == CT_FIELD_UINT_ARRAY && b->elem == 4 && b->len == a->len &&
		   !memcmp(ct_event_field_data(&back, b), ct_event_field_data(&e, a), a->len),
		   "an integer array kept whole, with its element size");
	}
	for (size_t cut = 0; cut < n; cut++)
		if (ct_event_blob_read(blob, cut, &back) != -EBADMSG) {
			ok(0, "a blob cut at %zu is refused", cut);
			return;
		}
	ok(1, "a blob cut anywhere is refused");
	blob[0] = 'X';
	is_int(ct_event_blob_read(blob, n, &back), -EBADMSG, "a blob of another format is refused");
	ok(ct_event_blob_write(&e, blob, 10) == 0, "too small a buffer: nothing written");
}

static void path_of(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", root, name);
}

static int count_each(const struct ct_event *e, void *arg)
{
	(void)e;
	(*(int *)arg)++;
	return 0;
}

static uint64_t counted;
static void sum_counts(const char *memdev, uint64_t serial, const char *kind, const char *sev, uint64_t n, void *arg)
{
	(void)memdev; (void)serial; (void)kind; (void)sev; (void)arg;
	counted += n;
}

static int rows_of(struct ct_event_store *s)
{
	int n = 0;

	ct_event_store_each(s, 0, 0, count_each, &n, &err);
	return n;
}

static void store_cases(void)
{
	static struct ct_event e, p;
	struct ct_event_store *w, *r;
	char path[600];
	uint64_t rows, pruned;
	int n;

	path_of(path, sizeof(path), "events.db");
	is_int(ct_event_store_open_reader(path, &r, &err), -ENOENT, "no store yet: ENOENT, for the reader");
	is_int(ct_event_store_open_writer(path, NULL, &w, &err), 0, "the writer makes it");
	for (int i = 0; i < 5; i++) {
		gm(&e, "mem0", 42, (uint16_t)i, T0 + i * NS, 0x1000 + (i % 2) * 0x40, 0, 1);
		ct_event_store_add(w, &e);
	}
	gm(&e, "mem0", 42, 0, T0, 0x1000, 0, 1);	/* the first again */
	ct_event_store_add(w, &e);
	is_int(ct_event_store_flush(w, &err), 0, "six records flushed in one transaction");
	is_int((long long)ct_event_store_stats(w)->stored, 5, "five written");
	is_int((long long)ct_event_store_stats(w)->duplicates, 1, "the one read twice: stored once");
	/* the same poison emission, read by two instances 3 us apart */
	poison(&p, "mem1", 0x2000, T0 + 10 * NS);
	ct_event_store_add(w, &p);
	is_int(ct_event_store_flush(w, &err), 0, "a poison record flushed");
	is_int(ct_event_store_open_reader(path, &r, &err), 0, "a reader beside the writer");
	is_int(rows_of(r), 6, "the reader sees the six");
	ok(ct_event_store_has(r, &e), "a record stored is known");
	p.trace_time += 3000;
	ok(ct_event_store_has(r, &p), "a headerless record 3 us later, same fields: the same emission");
	p.trace_time += 50 * 1000000ULL;
	ok(!ct_event_store_has(r, &p), "50 ms later: another emission");
	p.trace_time -= 50 * 1000000ULL;	/* 3 us after the stored one: written by another instance's reader */
	ct_event_store_add(w, &p);
	is_int(ct_event_store_flush(w, &err), 0, "the same poison emission from another instance flushed");
	is_int((long long)ct_event_store_stats(w)->duplicates, 2, "and known as stored: not written again");
	gm(&e, "mem0", 42, 9, T0 + 99 * NS, 0x1000, 0, 1);
	ok(!ct_event_store_has(r, &e), "a new handle and time: not stored");
	n = 0;
	ct_event_store_each(r, T0 + 1 * NS, T0 + 3 * NS, count_each, &n, &err);
	is_int(n, 2, "since/until: the records in [t0+1s, t0+3s)");
	counted = 0;
	is_int(ct_event_store_counts(r, sum_counts, NULL, &err), 0, "the counters read");
	is_int((long long)counted, 6, "they count the six");
	ct_event_store_close(r);
	ct_event_store_close(w);

	/* pruning by size: the counters stay */
	struct ct_event_store_limits lim = { .max_bytes = 64 << 10 };
	is_int(ct_event_store_open_writer(path, &lim, &w, &err), 0, "reopened with a 64 KiB bound");
	for (int i = 0; i < 2000; i++) {
		gm(&e, "mem2", 43, (uint16_t)i, T0 + (100 + i) * NS, 0x40000 + i * 64, 0, 0);
		ct_event_store_add(w, &e);
	}
	is_int(ct_event_store_flush(w, &err), 0, "2000 more flushed");
	is_int(ct_event_store_totals(w, &rows, &pruned, &err), 0, "its totals");
	ok(pruned > 0 && rows + pruned == 2006, "the oldest pruned for size (%llu kept, %llu pruned)",
	   (unsigned long long)rows, (unsigned long long)pruned);
	counted = 0;
	ct_event_store_counts(w, sum_counts, NULL, &err);
	is_int((long long)counted, 2006, "the counters still count every record ever stored");
	ct_event_store_close(w);
	lim = (struct ct_event_store_limits){ .max_age_s = 1 };
	is_int(ct_event_store_open_writer(path, &lim, &w, &err), 0, "reopened with a one-second age");
	gm(&e, "mem2", 43, 1, T0 - NS, 0x40, 0, 0);
	ct_event_store_add(w, &e);
	is_int(ct_event_store_flush(w, &err), 0, "flushed");
	ct_event_store_totals(w, &rows, &pruned, &err);
	is_int((long long)rows, 0, "every record older than a second pruned");
	is_int((long long)pruned, 2007, "and counted");
	ct_event_store_close(w);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	fputs(text, f);
	fclose(f);
}

static void fault_cases(void)
{
	static struct ct_event e;
	struct ct_event_store *w, *r;
	char path[1400], sub[600], link[600], aside[4200];
	sqlite3 *db;
	struct stat st;

	/* a file that is not a database: aside, a new store */
	path_of(path, sizeof(path), "junk.db");
	write_file(path, "this is not an SQLite database, but it is long enough to look like a header of one......");
	is_int(ct_event_store_open_reader(path, &r, &err), -EBADMSG, "the reader refuses a damaged file");
	ok(strstr(err.msg, "damaged") != NULL, "saying so (%s)", err.msg);
	is_int(ct_event_store_open_writer(path, NULL, &w, &err), 0, "the writer moves it aside and starts anew");
	ok(w && !strncmp(ct_event_store_stats(w)->moved_aside, path, strlen(path)) &&
	   strstr(ct_event_store_stats(w)->moved_aside, ".bad-"), "named with the time (%s)",
	   w ? ct_event_store_stats(w)->moved_aside : "");
	snprintf(aside, sizeof(aside), "%s", w ? ct_event_store_stats(w)->moved_aside : "");
	ok(stat(aside, &st) == 0 && st.st_size > 0, "the old file kept there, whole");
	gm(&e, "mem0", 1, 1, T0, 0, 0, 0);
	ct_event_store_add(w, &e);
	is_int(ct_event_store_flush(w, &err), 0, "the new store takes records");
	ct_event_store_close(w);

	/* another program's database */
	path_of(path, sizeof(path), "foreign.db");
	sqlite3_open(path, &db);
	sqlite3_exec(db, "CREATE TABLE mc_event (id INTEGER)", NULL, NULL, NULL);
	sqlite3_close(db);
	is_int(ct_event_store_open_reader(path, &r, &err), -EMEDIUMTYPE, "the reader refuses another program's database");
	is_int(ct_event_store_open_writer(path, NULL, &w, &err), 0, "the writer moves it aside");
	ok(w && ct_event_store_stats(w)->moved_aside[0], "and says where");
	ct_event_store_close(w);

	/* a newer schema: left alone */
	path_of(path, sizeof(path), "newer.db");
	sqlite3_open(path, &db);
	sqlite3_exec(db, "PRAGMA application_id = 1129860180; PRAGMA user_version = 99; CREATE TABLE x (a)", NULL, NULL, NULL);
	sqlite3_close(db);
	is_int(ct_event_store_open_writer(path, NULL, &w, &err), -EPROTONOSUPPORT, "a newer schema is refused");
	ok(strstr(err.msg, "newer") != NULL, "saying so (%s)", err.msg);
	ok(stat(path, &st) == 0, "and the file is left where it was");

	/* the directory */
	snprintf(sub, sizeof(sub), "%s/open", root);
	mkdir(sub, 0777);
	chmod(sub, 0777);
	snprintf(path, sizeof(path), "%s/events.db", sub);
	is_int(ct_event_store_open_writer(path, NULL, &w, &err), -EPERM, "a directory writable by others is refused");
	ok(strstr(err.msg, "writable by others") != NULL, "saying so (%s)", err.msg);
	is_int(ct_event_store_open_reader(path, &r, &err), -EPERM, "by the reader too");
	chmod(sub, 0700);
	snprintf(link, sizeof(link), "%s/link", root);
	symlink(sub, link);
	snprintf(path, sizeof(path), "%s/events.db", link);
	is_int(ct_event_store_open_writer(path, NULL, &w, &err), -ELOOP, "a symbolic link on the way is refused");

	/* a store that cannot take records: they wait, and are written later */
	snprintf(path, sizeof(path), "%s/events.db", sub);
	is_int(ct_event_store_open_writer(path, NULL, &w, &err), 0, "a store");
	sqlite3_open(path, &db);
	sqlite3_exec(db, "BEGIN EXCLUSIVE", NULL, NULL, NULL);	/* another writer holds it */
	gm(&e, "mem0", 1, 2, T0, 0, 0, 0);
	ct_event_store_add(w, &e);
	is_int(ct_event_store_flush(w, &err), -EBUSY, "locked by another: EBUSY");
	is_int((long long)ct_event_store_stats(w)->queued, 1, "the record still queued");
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	sqlite3_close(db);
	is_int(ct_event_store_flush(w, &err), 0, "the lock gone: flushed");
	is_int((long long)ct_event_store_stats(w)->stored, 1, "the record that waited is stored");
	ct_event_store_close(w);
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (uint64_t)t.tv_sec * NS + (uint64_t)t.tv_nsec;
}

static int count_memdev(const struct ct_event *e, void *arg)
{
	unsigned *n = arg;

	n[!strcmp(e->memdev, "memB")]++;
	return 0;
}

static unsigned told;
static char told_identity[128];
static int64_t told_off;
static void on_clock(const struct ct_event *e, const char *identity, int64_t off_ns, void *arg)
{
	(void)e, (void)arg;
	snprintf(told_identity, sizeof(told_identity), "%s", identity);
	told_off = off_ns;
	told++;
}

static int first_memdev(const struct ct_event *e, void *arg)
{
	snprintf(arg, 32, "%s", e->memdev);
	return 1;
}

/* the age and the size bounds go by the host's clock, whatever the
 * devices' say */
static void clock_cases(void)
{
	static struct ct_event e;
	struct ct_event_store *w;
	struct ct_event_store_limits lim = { .max_age_s = 86400 };
	char path[600];
	uint64_t rows, pruned, t = now_ns();
	unsigned kept[2] = { 0, 0 };
	char which[32] = "";

	path_of(path, sizeof(path), "clock.db");
	is_int(ct_event_store_open_writer(path, &lim, &w, &err), 0, "a store that keeps a day");
	ct_event_store_on_clock(w, on_clock, NULL);
	gm(&e, "mem0", 42, 1, t - 2 * 86400 * NS, 0x1000, 0, 1);
	e.trace_time = t;
	ct_event_store_add(w, &e);
	is_int(ct_event_store_flush(w, &err), 0, "a record of a device two days behind, received now");
	gm(&e, "mem0", 42, 2, t - 2 * 86400 * NS + NS, 0x1000, 0, 1);
	e.trace_time = t + NS;
	ct_event_store_add(w, &e);
	ct_event_store_flush(w, &err);
	ok(told == 1 && !strcmp(told_identity, "serial:0x2a") && told_off == -2 * 86400 * (int64_t)NS,
	   "a clock two days behind told, once (%u: %s, %lld s)", told, told_identity, (long long)(told_off / (int64_t)NS));
	ct_event_store_totals(w, &rows, &pruned, &err);
	ok(rows == 2 && pruned == 0, "kept: they arrived now (%llu kept, %llu pruned)", (unsigned long long)rows,
	   (unsigned long long)pruned);
	gm(&e, "mem1", 43, 1, t + 365 * 86400 * NS, 0x1000, 0, 1);
	e.trace_time = t - 2 * 86400 * NS;
	ct_event_store_add(w, &e);
	is_int(ct_event_store_flush(w, &err), 0, "a record of a device a year ahead, received two days ago");
	ct_event_store_totals(w, &rows, &pruned, &err);
	ct_event_store_each(w, 0, 0, first_memdev, which, &err);
	ok(rows == 2 && pruned == 1 && !strcmp(which, "mem0"), "pruned: it arrived two days ago (%llu kept, %llu "
	   "pruned, %s's kept)", (unsigned long long)rows, (unsigned long long)pruned, which);
	ct_event_store_close(w);

	/* two devices report together, one a year ahead: the size bound keeps
	 * the newest of both */
	path_of(path, sizeof(path), "fair.db");
	lim = (struct ct_event_store_limits){ .max_bytes = 1 << 20 };
	is_int(ct_event_store_open_writer(path, &lim, &w, &err), 0, "a store of 1 MiB");
	for (int i = 0; i < 4500; i++) {
		bool b = i % 3 == 2;
		uint64_t emit = T0 + (uint64_t)i * NS;
		gm(&e, b ? "memB" : "memA", b ? 2 : 1, (uint16_t)i, b ? emit + 365 * 86400 * NS : emit, 0x1000, 0, 1);
		e.trace_time = emit;
		ct_event_store_add(w, &e);
		if (i % 50 == 49)
			ct_event_store_flush(w, &err);
	}
	ct_event_store_each(w, 0, 0, count_memdev, kept, &err);
	ok(kept[0] + kept[1] > 0 && kept[0] >= kept[1] && kept[0] <= 3 * kept[1],
	   "the device a year ahead does not keep its history at the other's expense (%u kept of the right one's "
	   "3000, %u of the one ahead's 1500)", kept[0], kept[1]);
	ct_event_store_close(w);
}

/* the durations of [events]: one parser, bounds checked */
static void conf_cases(void)
{
	struct ct_events_conf c;

	is_int(ct_events_conf_parse("[events]\nstore-max-age = 999999d\n", "conf", &c, &err), -EINVAL,
	       "store-max-age = 999999d: refused");
	ok(strstr(err.msg, "store-max-age = 999999d") != NULL, "saying so (%s)", err.msg);
	is_int(ct_events_conf_parse("[events]\nretire-window = 999999d\n", "conf", &c, &err), -EINVAL,
	       "retire-window = 999999d: refused");
	is_int(ct_events_conf_parse("[events]\nstore-max-age = 52w\nretire-window = 1h 30min\n", "conf", &c, &err), 0,
	       "52w, and 1h 30min, as systemd.time writes them");
	ok(c.store_max_age_s == 52 * 7 * 86400ULL && c.retire.window_s == 5400, "read as %llu s and %llu s",
	   (unsigned long long)c.store_max_age_s, (unsigned long long)c.retire.window_s);
}

static void summary_cases(void)
{
	static struct ct_event e;
	struct ct_event_summary s = { 0 };

	for (int i = 0; i < 5; i++) {
		gm(&e, "mem0", 42, (uint16_t)i, T0 + i * 86400 * NS, 0x1000 + (i % 2) * 0x40, 0, 1);
		ct_event_summary_add(&s, &e);
	}
	gm(&e, "mem0", 42, 7, T0, 0x9000, 1, 2);	/* uncorrectable */
	ct_event_summary_add(&s, &e);
	gm(&e, "mem1", 43, 7, T0, 0x5000, 0, 1);
	ct_event_summary_add(&s, &e);
	ct_event_summary_finish(&s);
	is_int((long long)s.all.records, 7, "seven records");
	is_int((long long)s.nmemdevs, 2, "two memdevs");
	is_int((long long)s.memdevs[0].c.records, 6, "mem0: six");
	is_int((long long)s.all.by_kind[CT_EV_GENERAL_MEDIA], 7, "all General Media");
	is_int((long long)s.ndays, 5, "five days");
	is_int((long long)s.days[0].records, 3, "the first day: three");
	is_int((long long)s.npages, 2, "two pages with corrected errors (the uncorrectable one is not)");
	ok(s.npages == 2 && s.pages[0].records == 5 && s.pages[0].dpa == 0x1000 && !strcmp(s.pages[0].memdev, "mem0"),
	   "the most corrected first: mem0's page 0x1000, five");
	ok(s.npages == 2 && s.pages[0].has_hpa && s.pages[0].first_ns == T0 + 1000 &&
	   s.pages[0].last_ns == T0 + 4 * 86400 * NS + 1000, "with its HPA and its first and last times (the host's)");
	ct_event_summary_free(&s);
}

int main(void)
{
	if (!mkdtemp(tap_tmp_template(root, sizeof(root), "cxltier-event-store"))) {
		perror("mkdtemp");
		return 1;
	}
	chmod(root, 0700);
	blob_cases();
	store_cases();
	fault_cases();
	summary_cases();
	clock_cases();
	conf_cases();
	tap_rm_tree(root);
	return tap_done();
}
