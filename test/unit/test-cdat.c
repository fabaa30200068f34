// SPDX-License-Identifier: GPL-2.0-only
/* the CDAT decoder on hand-built tables: every structure type, every rule */
#include <errno.h>
#include "tap.h"
#include "mm/access.h"
#include "cxl/cdat.h"
#include "../tools/cdat-build.h"

static struct blob x;
static struct cdat_table t;
static struct ct_error err;

static int decode(void)
{
	cdat_free(&t);
	ct_error_clear(&err);
	return cdat_decode(x.b, x.len, &t, &err);
}

static void every_type(void)
{
	uint16_t sslbis[] = { 0x100, 0, 200, 0xffff, 1, 0 };
	uint64_t v;

	blob_header(&x, 7);
	put_dsmas(&x, 0, 0, 0, 1ULL << 29);
	put_dsmas(&x, 1, CDAT_DSMAS_NON_VOLATILE | CDAT_DSMAS_SHAREABLE, 1ULL << 29, 1ULL << 29);
	put_dslbis(&x, 0, 0, CDAT_READ_LATENCY, 10000, 15);
	put_dslbis(&x, 1, 1, CDAT_WRITE_BANDWIDTH, 1000, 8);
	put_dsmscis(&x, 0, 1ULL << 20, 0x00401211);
	put_dsis(&x, 1, 3);
	put_dsemts(&x, 1, 1, 0x1000, 0x2000);
	put_sslbis(&x, CDAT_ACCESS_LATENCY, 1000, 2, sslbis);
	put_raw(&x, 9, 12, 12);
	blob_finish(&x);

	is_int(decode(), 0, "a table with every structure type decodes: %s", err.msg);
	is_int(t.length, x.len, "header length");
	is_int(t.revision, 1, "revision");
	is_int(t.sequence, 7, "sequence");
	ok(t.checksum_valid, "checksum holds");
	is_int(t.n, 9, "nine structures, the reserved one kept");

	is_int(t.s[0].type, CDAT_DSMAS, "DSMAS");
	is_int(t.s[0].offset, 16, "first structure right after the header");
	is_int(t.s[1].u.dsmas.handle, 1, "DSMAS handle");
	is_int(t.s[1].u.dsmas.flags, CDAT_DSMAS_NON_VOLATILE | CDAT_DSMAS_SHAREABLE, "DSMAS flags");
	is_int(t.s[1].u.dsmas.dpa_base, 1ULL << 29, "DSMAS DPA base");
	is_int(t.s[1].u.dsmas.dpa_length, 1ULL << 29, "DSMAS DPA length");

	is_int(t.s[2].u.dslbis.data_type, CDAT_READ_LATENCY, "DSLBIS data type");
	ok(cdat_value(t.s[2].u.dslbis.base_unit, t.s[2].u.dslbis.entry[0], &v) && v == 150000,
	   "DSLBIS 15 x 10000 ps = 150 ns");
	is_str(cdat_hierarchy_name(t.s[3].u.dslbis.flags), "cache_level_1", "DSLBIS hierarchy from flags");
	ok(cdat_value(t.s[3].u.dslbis.base_unit, t.s[3].u.dslbis.entry[0], &v) && v == 8000, "8 x 1000 MB/s");

	struct cdat_cache_attrs c;
	cdat_cache_attrs(t.s[4].u.dsmscis.attributes, &c);
	is_int(t.s[4].u.dsmscis.cache_size, 1 << 20, "DSMSCIS cache size");
	is_int(c.total_levels, 1, "cache total levels");
	is_int(c.level, 1, "cache level");
	is_str(c.associativity, "complex", "associativity");
	is_str(c.write_policy, "write_back", "write policy");
	is_int(c.line_size, 64, "line size");

	is_int(t.s[5].u.dsis.flags, 1, "DSIS flags");
	is_int(t.s[5].u.dsis.handle, 3, "DSIS handle");
	is_int(t.s[6].u.dsemts.efi_type, 1, "DSEMTS EFI type");
	is_str(cdat_efi_type_name(1), "specific_purpose", "EFI type name");
	is_int(t.s[6].u.dsemts.dpa_offset, 0x1000, "DSEMTS offset");
	is_int(t.s[6].u.dsemts.dpa_length, 0x2000, "DSEMTS length");

	is_int(t.s[7].u.sslbis.nentries, 2, "SSLBIS entries");
	is_int(t.s[7].u.sslbis.entries[0].port_x, CDAT_SSLBIS_PORT_UPSTREAM, "SSLBIS upstream port");
	is_int(t.s[7].u.sslbis.entries[0].value, 200, "SSLBIS value");
	is_int(t.s[7].u.sslbis.entries[1].port_x, CDAT_SSLBIS_PORT_ANY, "SSLBIS any port");

	is_int(t.s[8].type, 9, "reserved type kept");
	is_int(t.s[8].length, 12, "with its length");
	is_str(cdat_type_name(9), "reserved", "named reserved");
	ok(cdat_dsmas(&t, 1) == &t.s[1], "DSMAS lookup by handle");
	ok(cdat_dsmas(&t, 5) == NULL, "no DSMAS for an unknown handle");
}

static void values(void)
{
	uint64_t v;

	ok(!cdat_value(1000, 0, &v), "entry 0: not given");
	ok(!cdat_value(1000, 0xffff, &v), "entry 0xffff: unreachable");
	ok(!cdat_value(UINT64_MAX / 2, 3, &v), "overflowing product: absent");
	ok(cdat_value(1, 0xfffe, &v) && v == 0xfffe, "largest valid entry");
	is_str(cdat_data_type_name(3), "access_bandwidth", "data type 3");
	ok(cdat_data_type_name(6) == NULL, "data type 6 is reserved");
	ok(cdat_data_type_is_latency(0) && !cdat_data_type_is_latency(3), "latency types");
}

/* the device figures tiers and doctor use: ps rounded up to ns */
static void volatile_perf(void)
{
	struct ct_access a;
	uint64_t v;

	blob_header(&x, 0);
	put_dsmas(&x, 0, 0, 0, 4096);
	put_dslbis(&x, 0, 0, 1, 1000, 150);		/* read: 150 ns */
	put_dslbis(&x, 0, 0, 2, 7, 35715);		/* write: 250.005 ns */
	blob_finish(&x);
	is_int(decode(), 0, "a table with read and write latency");
	ok(cdat_volatile_perf(&t, &a) && a.read_latency == 150 && a.write_latency == 251, "rounded up to ns");

	/* a memory-side cache's figure (flags: hierarchy 1) is not the memory's */
	blob_header(&x, 0);
	put_dsmas(&x, 0, 0, 0, 4096);
	put_dslbis(&x, 0, 1, CDAT_READ_LATENCY, 1000, 20);	/* the cache: 20 ns */
	put_dslbis(&x, 0, 0, CDAT_READ_LATENCY, 1000, 150);	/* the memory: 150 ns */
	put_dslbis(&x, 0, 1, CDAT_WRITE_LATENCY, 1000, 30);	/* the cache alone */
	blob_finish(&x);
	is_int(decode(), 0, "a table with a memory-side cache's latencies");
	ok(cdat_volatile_perf(&t, &a) && a.read_latency == 150 && a.write_latency == 0,
	   "the memory's read latency, no write latency from the cache");
	/* write latency is a latency (ns), write bandwidth is not */
	ok(cdat_data_type_is_latency(CDAT_WRITE_LATENCY) && !cdat_data_type_is_latency(CDAT_ACCESS_BANDWIDTH),
	   "write latency is a latency, access bandwidth is not");

	/* found by test/fuzz/fuzz-cdat: (ps + 999) / 1000 wrapped for a value
	 * within 999 ps of 2^64, and such a device read as 0 ns; beyond the
	 * kernel's u32 now, it is no figure at all */
	blob_header(&x, 0);
	put_dsmas(&x, 0, 0, 0, 4096);
	put_dslbis(&x, 0, 0, 1, UINT64_MAX, 1);
	blob_finish(&x);
	is_int(decode(), 0, "a read latency of 2^64 - 1 ps");
	ok(!cdat_volatile_perf(&t, &a) && a.read_latency == 0, "is no figure, not 0 ns");

	/* the kernel's cdat_normalize() keeps a product up to 2^32 - 1 and
	 * takes a larger one as 0: 5000 x 1000000 MB/s is no figure there */
	ok(cdat_value(1000000, 5000, &v) && v == 5000000000ULL, "the table says 5000000000 MB/s");
	ok(!cdat_kernel_keeps(v), "which the kernel does not keep");
	ok(cdat_kernel_keeps(UINT32_MAX) && !cdat_kernel_keeps(UINT32_MAX + 1ULL), "the limit is 2^32 - 1");
	blob_header(&x, 0);
	put_dsmas(&x, 0, 0, 0, 4096);
	put_dslbis(&x, 0, 0, CDAT_READ_BANDWIDTH, 1000000, 5000);
	put_dslbis(&x, 0, 0, CDAT_WRITE_BANDWIDTH, 196611, 21845);	/* 2^32 - 1 MB/s */
	blob_finish(&x);
	is_int(decode(), 0, "read bandwidth past the kernel's u32, write bandwidth at it");
	ok(cdat_volatile_perf(&t, &a) && a.read_bandwidth == 0 && a.write_bandwidth == UINT32_MAX,
	   "read bandwidth dropped as the kernel does, write bandwidth kept");
}

#define EXPECT_BAD(what, offset_text) do { \
	int _rc = decode(); \
	is_int(_rc, -EBADMSG, "%s: rejected", what); \
	ok(strstr(err.msg, offset_text) != NULL, "%s: message names the offset (%s)", what, err.msg); \
} while (0)

static void malformed(void)
{
	size_t keep;

	x.len = 10;
	EXPECT_BAD("short header", "offset 0: the table is 10 bytes");
	x.len = 15;
	EXPECT_BAD("a header one byte short", "offset 0: the table is 15 bytes, shorter than the 16-byte header");

	blob_header(&x, 0);
	put_dsmas(&x, 0, 0, 0, 4096);
	blob_finish(&x);
	x.b[0] = 8;
	EXPECT_BAD("header length below 16", "offset 0: the header's length 8");

	blob_finish(&x);
	x.len -= 4;
	EXPECT_BAD("header length past the end", "runs past the end of the data (36 bytes)");
	x.len += 3;
	EXPECT_BAD("header length one byte past the end", "the header's length 40 runs past the end of the data (39 bytes)");

	blob_header(&x, 0);
	put_dsmas(&x, 0, 0, 0, 4096);
	put_raw(&x, 1, 0, 4);
	blob_finish(&x);
	EXPECT_BAD("structure length 0", "offset 40: dslbis structure length 0 is shorter");

	blob_header(&x, 0);
	put_raw(&x, 0, 3, 4);
	blob_finish(&x);
	EXPECT_BAD("structure length 3", "offset 16: dsmas structure length 3 is shorter than its own 4-byte header");

	blob_header(&x, 0);
	put_dsmas(&x, 0, 0, 0, 4096);
	x.b[18] = 200;	/* DSMAS claims 200 bytes */
	blob_finish(&x);
	EXPECT_BAD("structure length overlong", "offset 16: dsmas structure length 200 runs past the table's end");

	blob_header(&x, 0);
	put_dsmas(&x, 0, 0, 0, 4096);
	x.b[18] = 28;	/* 4 bytes past the table's end */
	blob_finish(&x);
	EXPECT_BAD("structure 4 bytes past the end", "offset 16: dsmas structure length 28 runs past the table's end (byte 40)");

	blob_header(&x, 0);
	put_raw(&x, 0, 20, 20);
	blob_finish(&x);
	EXPECT_BAD("DSMAS of the wrong size", "offset 16: dsmas structure length 20, must be 24");

	blob_header(&x, 0);
	put_raw(&x, 0, 28, 28);
	blob_finish(&x);
	EXPECT_BAD("DSMAS longer than its size", "offset 16: dsmas structure length 28, must be 24");

	blob_header(&x, 0);
	put_raw(&x, 5, 20, 20);
	blob_finish(&x);
	EXPECT_BAD("SSLBIS with a partial entry", "offset 16: sslbis structure length 20");

	/* the kernel's cdat_sslbis_handler() refuses an SSLBIS without entries
	 * ("Malformed SSLBIS table length"): the switch has no figures from it */
	blob_header(&x, 0);
	put_sslbis(&x, CDAT_ACCESS_LATENCY, 1000, 0, NULL);
	blob_finish(&x);
	EXPECT_BAD("SSLBIS without entries", "offset 16: sslbis structure length 16");
	is_int(t.n, 0, "SSLBIS without entries: nothing decoded");

	blob_header(&x, 0);
	put_dsmas(&x, 0, 0, 0, 4096);
	put8(&x, 1); put8(&x, 0);	/* two stray bytes: no room for a header */
	blob_finish(&x);
	EXPECT_BAD("tail too short for a structure header", "offset 40: 2 bytes left");

	blob_header(&x, 0);
	put_dsmas(&x, 0, 0, 0, 4096);
	put_dslbis(&x, 0, 0, 1, 1000, 100);
	blob_finish(&x);
	x.b[5] ^= 0xff;
	EXPECT_BAD("bad checksum", "offset 5: checksum");
	is_int(t.n, 2, "bad checksum: the structures are still decoded (for --force)");

	blob_header(&x, 0);
	put_dsmas(&x, 0, 0, 0, 4096);
	put_dsmas(&x, 1, 0, 4096, 4096);
	keep = x.len;
	put_raw(&x, 1, 7, 7);
	blob_finish(&x);
	EXPECT_BAD("fault after two good structures", "offset 64");
	is_int(t.n, 2, "the valid prefix is kept");
	(void)keep;

	blob_header(&x, 0);
	put_dsmas(&x, 0, 0, 0, 4096);
	blob_finish(&x);
	x.b[x.len++] = 0xaa;	/* trailing byte after the table */
	is_int(decode(), 0, "bytes after the table's length are not part of it");
	is_int(t.trailing, 1, "and are counted");
}

int main(void)
{
	every_type();
	values();
	volatile_perf();
	malformed();
	cdat_free(&t);
	return tap_done();
}
