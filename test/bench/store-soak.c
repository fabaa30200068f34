// SPDX-License-Identifier: GPL-2.0-only
/* store-soak - the event store (lib/events/event-store.h) driven as the
 * follower drives it, over the library: records added a batch at a time,
 * each flush weighing what it wrote for page retirement (the store's
 * new-record hook, events/page-retire.h) with the host's time of the
 * records. test/bench/events-store.sh --soak runs it.
 *
 * The records: two devices with serial 0 (mem0 and mem1 of a captured tree
 * of two memdevs interleaved in one region, their serials made 0), mem1's
 * clock two days behind the host's; a tenth of them corrected errors on one
 * page of mem0 (a stuck bit), the rest over PAGES pages of both, one in a
 * hundred with the device's threshold flag, each on a page of its own (a
 * decision each: more than the decisions' bound keeps); the host's time
 * half a second apart (a million: six days).
 *
 *   store-soak soak ROOT STORE RECORDS PAGES BUDGET_MIB
 *       RECORDS through the store in batches of 1000 under BUDGET_MIB, then
 *       every bound and count checked: "SOAK ok ..." or "SOAK fail ...";
 *       exit 1 when one failed
 *   store-soak cost ROOT STORE SIZE ROUNDS BATCH
 *       SIZE records stored (not timed), then ROUNDS batches of BATCH timed
 *       (add, flush, weighing): "COST SIZE ROUND NS_PER_RECORD", each batch
 *       verified (every record new, the flush taken); exit 1 when one was not
 *   store-soak fill STORE RECORDS PAGES BUDGET_MIB
 *       the records, unweighed, under BUDGET_MIB (0: none): a store to read
 *
 * ROOT: the captured tree (lab-two-devices-interleaved), with /proc/kpageflags
 * (no soft_offline_page: every page tried fails, and is tried again later). */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sqlite3.h>
#include "core/context.h"
#include "events/event-store.h"
#include "events/event-store-db.h"
#include "events/page-retire.h"

#define NS 1000000000ULL
#define T0 (1796083200ULL * NS)	/* 2026-12-01 */
#define REGION_HPA 0x110000000ULL
#define STUCK_DPA 0x100000ULL
#define BATCH 1000

static struct ct_context *ctx;
static struct ct_event_store *w;
static struct ct_page_retire_conf conf;
static bool weigh = true;
static uint64_t weighed, unweighed, told;
static uint64_t pages = 200000;

static const char *const memdev[] = { "mem0", "mem1" };
static const char *const host[] = { "0000:0d:00.0", "0000:0e:00.0" };

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * NS + (uint64_t)t.tv_nsec;
}

/* record i */
static void record(struct ct_event *e, uint64_t i)
{
	static const uint8_t gm[16] = { 0xfb, 0xcd, 0x0a, 0x77, 0xc2, 0x60, 0x41, 0x7f,
					0x85, 0xa9, 0x08, 0x8b, 0x16, 0x21, 0xeb, 0xa6 };
	int d = (int)(i % 2);
	uint64_t emit = T0 + i * (NS / 2), dpa, flag = 0;

	if (i % 10 == 0) {
		d = 0;
		dpa = STUCK_DPA + 64 * (i / 10 % 64);
	} else if (i % 100 == 1) {	/* the device's threshold flag: a page of its own */
		dpa = (i / 100 % pages) * 4096;
		flag = 2;
	} else {
		dpa = ((i * 7919) % pages) * 4096 + 64 * (i % 64);
	}
	ct_event_init(e, "cxl_general_media");
	ct_event_add_string(e, "memdev", memdev[d], 4);
	ct_event_add_string(e, "host", host[d], 12);
	ct_event_add_uint(e, "serial", 0);
	ct_event_add_int(e, "log", 0);
	ct_event_add_bytes(e, "hdr_uuid", CT_FIELD_UUID, gm, 16, 1);
	ct_event_add_uint(e, "hdr_flags", 0);
	ct_event_add_uint(e, "hdr_handle", i % 65536);
	ct_event_add_uint(e, "hdr_timestamp", d ? emit - 2 * 86400 * NS : emit);
	ct_event_add_uint(e, "dpa", dpa);
	ct_event_add_uint(e, "descriptor", flag);
	ct_event_add_uint(e, "type", 0);
	ct_event_add_uint(e, "hpa", REGION_HPA + ((dpa / 256) * 2 + (uint64_t)d) * 256 + dpa % 256);
	ct_event_add_string(e, "region", "region0", 7);
	ct_event_decode_fields(e);
	e->trace_time = emit;
}

/* the follower's weighing, at the host's time the record arrived */
static int on_new(const struct ct_event *e, void *arg)
{
	struct ct_page_retire_outcome o;

	(void)arg;
	if (!weigh)
		return 0;
	if (ct_page_retire_consider(ctx, w, e, &conf, e->received_ns, &o))
		unweighed++;
	else
		weighed++;
	return 0;
}

static void on_clock(const struct ct_event *e, const char *identity, int64_t off_ns, void *arg)
{
	(void)e, (void)arg;
	printf("SOAK clock %s %" PRId64 " s\n", identity, off_ns / (int64_t)NS);
	told++;
}

/* records [from, to) a batch at a time; max_used the most used after a flush */
static int put(uint64_t from, uint64_t to, uint64_t *max_used)
{
	static struct ct_event e;

	for (uint64_t i = from; i < to; i++) {
		record(&e, i);
		if (ct_event_store_add(w, &e))
			return -ENOMEM;
		if ((i + 1 - from) % BATCH && i + 1 < to)
			continue;
		if (ct_event_store_flush(w, &ctx->err)) {
			fprintf(stderr, "store-soak: %s\n", ctx->err.msg);
			return -EIO;
		}
		if (max_used) {
			uint64_t used;
			if (!ct_store_used_bytes(w, &used) && used > *max_used)
				*max_used = used;
		}
	}
	return 0;
}

static int64_t one(const char *sql)
{
	int64_t v = -1;

	ct_store_query_int(w, sql, &v);
	return v;
}

static int fails;
static void check(bool good, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void check(bool good, const char *fmt, ...)
{
	va_list ap;

	printf("SOAK %s ", good ? "ok" : "fail");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fails += !good;
}

static void invariants(uint64_t n, uint64_t budget, uint64_t max_used)
{
	const struct ct_event_store_stats *st = ct_event_store_stats(w);
	int64_t rows = one("SELECT count(*) FROM records"), counted = one("SELECT sum(n) FROM counts");
	int64_t decisions = one("SELECT count(*) FROM retirements"), devices = one("SELECT count(*) FROM devices");
	int64_t oldest = one("SELECT min(host_ns) FROM records"), newest = one("SELECT max(host_ns) FROM records");
	uint64_t dmax = budget / 16 / CT_EVENT_STORE_DECISION_BYTES;

	check(max_used <= budget, "budget held: at most %" PRIu64 " bytes used after a flush, of %" PRIu64, max_used,
	      budget);
	check(st->stored == n && st->duplicates == 0 && st->unkept == 0 && !st->queued,
	      "every record written once: %" PRIu64 " of %" PRIu64 ", %" PRIu64 " duplicates, %" PRIu64 " lost",
	      st->stored, n, st->duplicates, st->unkept);
	check((uint64_t)rows + st->pruned == n, "records kept and pruned add up: %" PRId64 " + %" PRIu64 " = %" PRIu64,
	      rows, st->pruned, n);
	check(rows > 0 && (uint64_t)(newest - oldest) / (NS / 2) + 1 == (uint64_t)rows,
	      "what is kept is what arrived last: %" PRId64 " records, the newest %" PRId64 " s of the host's time", rows,
	      (newest - oldest) / (int64_t)NS);
	check(counted == (int64_t)n, "the counters count every record: %" PRId64, counted);
	check(decisions > 0 && (uint64_t)decisions <= dmax, "the decisions bounded: %" PRId64 " rows, at most %" PRIu64,
	      decisions, dmax);
	check(devices == 2 && one("SELECT count(*) FROM devices WHERE identity IN ('pci:0000:0d:00.0/mem0', "
				  "'pci:0000:0e:00.0/mem1')") == 2, "two devices of serial 0, told apart: %" PRId64, devices);
	check(one("SELECT count(*) FROM counts") <= CT_EVENT_STORE_DEVICES &&
	      one("SELECT count(*) FROM retire_counts") <= CT_EVENT_STORE_DEVICES, "the counters bounded: %" PRId64
	      " and %" PRId64 " rows", one("SELECT count(*) FROM counts"), one("SELECT count(*) FROM retire_counts"));
	check(told == 1, "the clock two days behind told once (%" PRIu64 ")", told);
	check(unweighed == 0 && weighed == n, "every record weighed: %" PRIu64 " (%" PRIu64 " not)", weighed, unweighed);
	check(one("SELECT count(*) FROM retirements WHERE dpa = 1048576 AND device = 'pci:0000:0d:00.0/mem0'") == 1,
	      "the stuck page decided on: one row, %" PRId64 " tries",
	      one("SELECT tries FROM retirements WHERE dpa = 1048576"));
}

static int open_store(const char *path, uint64_t budget_mib)
{
	struct ct_event_store_limits lim = { .max_bytes = budget_mib << 20 };

	if (ct_event_store_open_writer(path, &lim, &w, &ctx->err) || ct_event_store_stats(w)->last_rc) {
		fprintf(stderr, "store-soak: %s\n", ctx->err.msg);
		return -1;
	}
	ct_event_store_on_new(w, on_new, NULL);
	ct_event_store_on_clock(w, on_clock, NULL);
	return 0;
}

static int soak(const char *store, uint64_t n, uint64_t budget_mib)
{
	uint64_t max_used = 0, t0, t1;

	if (open_store(store, budget_mib))
		return 1;
	t0 = now_ns();
	if (put(0, n, &max_used))
		return 1;
	t1 = now_ns();
	printf("SOAK time %" PRIu64 " records in %.1f s: %.1f us a record\n", n, (double)(t1 - t0) / 1e9,
	       (double)(t1 - t0) / 1e3 / (double)n);
	invariants(n, budget_mib << 20, max_used);
	ct_event_store_close(w);
	return fails ? 1 : 0;
}

/* the clock a batch's cost is read on: the wall's, or with
 * STORE_SOAK_CLOCK=cpu this process's CPU time (on a machine others load,
 * the wall's counts their turns too; the CPU time leaves out the waits for
 * the disk) */
static uint64_t cost_now(void)
{
	static int cpu = -1;
	struct timespec t;

	if (cpu < 0)
		cpu = getenv("STORE_SOAK_CLOCK") && !strcmp(getenv("STORE_SOAK_CLOCK"), "cpu");
	clock_gettime(cpu ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * NS + (uint64_t)t.tv_nsec;
}

static int cost(const char *store, uint64_t size, unsigned rounds, uint64_t batch)
{
	uint64_t next = size;

	if (open_store(store, 0))
		return 1;
	weigh = false;
	if (put(0, size, NULL))
		return 1;
	weigh = true;
	for (unsigned r = 0; r < rounds; r++) {
		const struct ct_event_store_stats *st = ct_event_store_stats(w);
		uint64_t before = st->stored, t0 = cost_now(), t1;
		if (put(next, next + batch, NULL))
			return 1;
		t1 = cost_now();
		next += batch;
		if (st->stored - before != batch || st->last_rc || unweighed) {
			printf("COST fail %" PRIu64 " %u %" PRIu64 " of %" PRIu64 " written, %" PRIu64 " not weighed\n", size,
			       r, st->stored - before, batch, unweighed);
			return 1;
		}
		printf("COST %" PRIu64 " %u %.0f\n", size, r, (double)(t1 - t0) / (double)batch);
	}
	ct_event_store_close(w);
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int fill = !strcmp(mode, "fill");

	if (argc < (fill ? 6 : 7) || (strcmp(mode, "soak") && strcmp(mode, "cost") && !fill)) {
		fprintf(stderr, "usage: store-soak soak ROOT STORE RECORDS PAGES BUDGET_MIB\n"
				"       store-soak cost ROOT STORE SIZE ROUNDS BATCH\n"
				"       store-soak fill STORE RECORDS PAGES BUDGET_MIB\n");
		return 2;
	}
	if (ct_context_new(&ctx, fill ? "/" : argv[2])) {
		fprintf(stderr, "store-soak: no context on %s\n", argv[2]);
		return 1;
	}
	ct_page_retire_conf_defaults(&conf);
	conf.retire = true;
	if (fill) {
		pages = strtoull(argv[4], NULL, 0);
		weigh = false;
		if (open_store(argv[2], strtoull(argv[5], NULL, 0)) || put(0, strtoull(argv[3], NULL, 0), NULL))
			return 1;
		ct_event_store_close(w);
		return 0;
	}
	if (!strcmp(mode, "soak")) {
		pages = strtoull(argv[5], NULL, 0);
		return soak(argv[3], strtoull(argv[4], NULL, 0), strtoull(argv[6], NULL, 0));
	}
	return cost(argv[3], strtoull(argv[4], NULL, 0), (unsigned)strtoul(argv[5], NULL, 0), strtoull(argv[6], NULL, 0));
}
