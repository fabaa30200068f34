// SPDX-License-Identifier: GPL-2.0-only
/* tracepoint records decoded through their format files (libtraceevent):
 * every field under the kernel's name, typed, and the decoded view; the
 * formats are Linux 6.12's as captured, and a newer layout with a field no
 * kernel has (test/fixtures/tracefs) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include "tap.h"
#include "events/event.h"
#include "events/event-trace.h"

static struct tep_handle *tep;

static struct tep_event *load(const char *dir, const char *name)
{
	char path[512], *buf;
	struct tep_event *ev = NULL;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/tracefs/%s/%s.format", CXLTIER_FIXTURES, dir, name);
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "# cannot open %s\n", path);
		return NULL;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n);
	if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n && tep_parse_format(tep, &ev, buf, (unsigned long)n, "cxl"))
		ev = NULL;
	free(buf);
	fclose(f);
	return ev;
}

/* a record being built: fixed fields at their offsets, strings after */
struct rec {
	struct tep_event *ev;
	uint8_t data[2048];
	size_t end;
};

static void rec_init(struct rec *r, struct tep_event *ev)
{
	memset(r, 0, sizeof(*r));
	r->ev = ev;
	for (struct tep_format_field *f = ev->format.fields; f; f = f->next)
		if ((size_t)(f->offset + f->size) > r->end)
			r->end = (size_t)(f->offset + f->size);
}

static struct tep_format_field *field(struct rec *r, const char *name)
{
	struct tep_format_field *f = tep_find_field(r->ev, name);

	if (!f)
		fprintf(stderr, "# no field %s in %s\n", name, r->ev->name);
	return f;
}

static void put(struct rec *r, const char *name, uint64_t v)
{
	struct tep_format_field *f = field(r, name);

	for (int i = 0; f && i < f->size && i < 8; i++)
		r->data[f->offset + i] = (uint8_t)(v >> (8 * i));
}

static void put_bytes(struct rec *r, const char *name, const void *p, size_t len)
{
	struct tep_format_field *f = field(r, name);

	if (f)
		memcpy(r->data + f->offset, p, len < (size_t)f->size ? len : (size_t)f->size);
}

static void put_str(struct rec *r, const char *name, const char *s)
{
	size_t len = strlen(s) + 1;

	memcpy(r->data + r->end, s, len);
	put(r, name, (uint64_t)len << 16 | r->end);
	r->end += len;
}

static int decode(struct rec *r, struct ct_event *e, size_t size)
{
	struct tep_record t = { .data = r->data, .size = (int)(size ? size : r->end) };

	return ct_event_from_trace(r->ev, &t, e);
}

/* every field of the format is in the event, under its name */
static bool all_fields(struct tep_event *ev, const struct ct_event *e)
{
	for (struct tep_format_field *f = ev->format.fields; f; f = f->next)
		if (!ct_event_field(e, f->name)) {
			fprintf(stderr, "# %s: field %s missing\n", ev->name, f->name);
			return false;
		}
	return true;
}

static const uint8_t uuid_gm[16] = { 0xfb, 0xcd, 0x0a, 0x77, 0xc2, 0x60, 0x41, 0x7f,
				     0x85, 0xa9, 0x08, 0x8b, 0x16, 0x21, 0xeb, 0xa6 };
static const uint8_t region_uuid[16] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
					 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x01 };

static void header(struct rec *r, int log, uint32_t flags)
{
	put_str(r, "memdev", "mem0");
	put_str(r, "host", "0000:0d:00.0");
	put(r, "log", (uint64_t)log);
	put(r, "serial", 0x1234);
	put(r, "hdr_flags", flags);
	put(r, "hdr_handle", 7);
	put(r, "hdr_related_handle", 3);
	put(r, "hdr_timestamp", 1700000000123456789ULL);
	put(r, "hdr_length", 128);
	put(r, "hdr_maint_op_class", 2);
}

static void general_media_612(void)
{
	struct tep_event *ev = load("linux-6.12", "cxl_general_media");
	const struct ct_event_field *f;
	struct ct_event e;
	struct rec r;
	char t[40];

	ok(ev != NULL, "6.12 cxl_general_media format parses");
	if (!ev)
		return;
	rec_init(&r, ev);
	header(&r, 2, 0x3c | 1);
	put_bytes(&r, "hdr_uuid", uuid_gm, 16);
	put(&r, "dpa", 0x1000);
	put(&r, "dpa_flags", 1);
	put(&r, "descriptor", 3);
	put(&r, "type", 1);
	put(&r, "transaction_type", 2);
	put(&r, "channel", 5);
	put(&r, "rank", 6);
	put(&r, "device", 0x123456);
	put_bytes(&r, "comp_id", "component-0001", 14);
	put(&r, "validity_flags", 0x0f);
	put(&r, "hpa", 0x110001000ULL);
	put_bytes(&r, "region_uuid", region_uuid, 16);
	put_str(&r, "region_name", "region0");
	is_int(decode(&r, &e, 0), 0, "decoded");
	ok(all_fields(ev, &e), "every field of the format, under the kernel's name");
	is_int(e.kind, CT_EV_GENERAL_MEDIA, "kind from the tracepoint");
	is_str(e.memdev, "mem0", "memdev (__data_loc string)");
	is_str(e.host, "0000:0d:00.0", "host");
	ok(e.has_serial && e.serial == 0x1234, "serial");
	is_int(ct_event_severity(&e), 2, "severity from the log");
	f = ct_event_field(&e, "hdr_uuid");
	ok(f && f->type == CT_FIELD_UUID, "uuid_t typed as a UUID");
	ct_uuid_text(e.uuid, t, sizeof(t));
	is_str(t, "fbcd0a77-c260-417f-85a9-088b1621eba6", "the record UUID as text");
	is_str(ct_record_type_name(e.uuid), "general_media", "known record type");
	ok(e.related_handle == 3 && e.length == 128 && e.maint_op_class == 2, "related handle, length, maintenance class");
	ok(!e.has_maint_op_sub_class, "no sub-class on 6.12");
	ok(e.flags & CT_EVENT_FLAG_PERF_DEGRADED && e.flags & CT_EVENT_FLAG_HW_REPLACE, "header flags");
	ok(e.dpa == 0x1000 && e.dpa_flags == 1 && e.descriptor == 3, "dpa, flags, descriptor");
	ok(e.channel == 5 && e.rank == 6 && e.device == 0x123456, "channel, rank, device");
	ok(e.has_comp_id && !memcmp(e.comp_id, "component-0001", 14), "component id (validity bit 3)");
	f = ct_event_field(&e, "comp_id");
	ok(f && f->type == CT_FIELD_BYTES && f->len == 16, "u8[16] kept as 16 bytes");
	ok(e.has_hpa && e.hpa == 0x110001000ULL, "hpa");
	is_str(e.region, "region0", "region from region_name");
	ok(e.has_region_uuid && !memcmp(e.region_uuid, region_uuid, 16), "region uuid");
	ok(!e.has_sub_type && !e.has_cme, "no CXL 3.1 fields on 6.12");

	/* no region: hpa is all ones, the name empty */
	put(&r, "hpa", ~0ULL);
	memset(r.data + tep_find_field(ev, "region_uuid")->offset, 0, 16);
	r.end -= strlen("region0") + 1;
	put_str(&r, "region_name", "");
	is_int(decode(&r, &e, 0), 0, "decoded without a region");
	ok(!e.has_hpa && !e.region[0] && !e.has_region_uuid, "no hpa, region or region uuid");

	/* shorter than the format says */
	is_int(decode(&r, &e, 60), -EBADMSG, "a truncated record is reported");
	ok(ct_event_field(&e, "hdr_flags") && !ct_event_field(&e, "dpa"), "the fields that fit are kept");
	/* a string pointing outside the record */
	put(&r, "memdev", (uint64_t)100 << 16 | 4000);
	is_int(decode(&r, &e, 0), -EBADMSG, "a string outside the record is reported");
	ok(!ct_event_field(&e, "memdev"), "and left out");
}

static void general_media_newer(void)
{
	struct tep_event *ev = load("synthetic-newer", "cxl_general_media");
	const struct ct_event_field *f;
	struct ct_event e;
	struct rec r;

	ok(ev != NULL, "newer cxl_general_media format parses");
	if (!ev)
		return;
	rec_init(&r, ev);
	header(&r, 0, CT_EVENT_FLAG_MAINT_SUB_CLASS_VALID);
	put(&r, "hdr_maint_op_sub_class", 4);
	put(&r, "sub_type", 5);
	put(&r, "cme_count", 0x10203);
	put(&r, "cme_threshold_ev_flags", 3);
	put(&r, "field_no_kernel_has", (uint64_t)-7);
	put_str(&r, "region_name", "");
	is_int(decode(&r, &e, 0), 0, "decoded");
	ok(all_fields(ev, &e), "every field, the unknown one too");
	f = ct_event_field(&e, "field_no_kernel_has");
	ok(f && f->type == CT_FIELD_INT && f->i == -7, "an unknown signed field: typed from its format");
	ok(e.has_maint_op_sub_class && e.maint_op_sub_class == 4, "maintenance sub-class when flagged valid");
	ok(e.has_sub_type && e.sub_type == 5, "sub_type");
	is_str(ct_memory_event_sub_type_name(e.sub_type), "media_link_crc_error", "sub_type named");
	ok(e.has_cme && e.cme_flags == 3 && e.cme_count == 0x10203, "CME flags and count");
}

static void dram(void)
{
	struct tep_event *ev = load("linux-6.12", "cxl_dram");
	uint8_t mask[32] = { 0 };
	struct ct_event e;
	struct rec r;

	ok(ev != NULL, "cxl_dram format parses");
	if (!ev)
		return;
	rec_init(&r, ev);
	header(&r, 1, 1);
	mask[0] = 1; mask[8] = 2; mask[16] = 3; mask[31] = 0x80;
	put_bytes(&r, "cor_mask", mask, 32);
	put(&r, "nibble_mask", 0xabcdef);
	put(&r, "row", 0x12345);
	put(&r, "column", 0x321);
	put(&r, "bank_group", 2);
	put(&r, "bank", 3);
	put(&r, "type", 3);
	put_str(&r, "region_name", "");
	is_int(decode(&r, &e, 0), 0, "decoded");
	ok(all_fields(ev, &e), "every field");
	ok(e.kind == CT_EV_DRAM && e.nibble_mask == 0xabcdef && e.row == 0x12345 && e.column == 0x321, "DRAM geometry");
	ok(e.correction_mask[0] == 1 && e.correction_mask[1] == 2 && e.correction_mask[2] == 3 &&
	   e.correction_mask[3] == 0x8000000000000000ULL, "correction mask: four little endian words");
	is_str(ct_dram_event_type_name(e.type), "data_path_error", "DRAM event type");
}

static void memory_module(void)
{
	struct tep_event *ev = load("linux-6.12", "cxl_memory_module");
	const struct ct_event_field *f;
	struct ct_event e;
	struct rec r;

	ok(ev != NULL, "cxl_memory_module format parses");
	if (!ev)
		return;
	rec_init(&r, ev);
	header(&r, 3, 1);
	put(&r, "event_type", 3);
	put(&r, "health_status", 3);
	put(&r, "media_status", 7);
	put(&r, "add_status", 0x21);
	put(&r, "life_used", 30);
	put(&r, "device_temp", (uint16_t)-15);
	put(&r, "dirty_shutdown_cnt", 4);
	is_int(decode(&r, &e, 0), 0, "decoded");
	ok(all_fields(ev, &e), "every field");
	f = ct_event_field(&e, "device_temp");
	ok(f && f->type == CT_FIELD_INT && f->i == -15, "s16 sign-extended");
	ok(e.health.has_temperature && e.health.temperature == -15, "negative temperature");
	ok(e.health.life_used_state == 1 && e.health.corrected_persistent_warning, "additional status");
	ok(e.health.dirty_shutdowns == 4 && e.device_event_type == 3, "counts and event type");
}

/* a cxl_poison record of mem0 in region0 from the format in DIR; NULL when
 * the format does not parse (said) */
static struct tep_event *poison_record(const char *dir, struct rec *r)
{
	struct tep_event *ev = load(dir, "cxl_poison");

	ok(ev != NULL, "%s's cxl_poison format parses", dir);
	if (!ev)
		return NULL;
	rec_init(r, ev);
	put_str(r, "memdev", "mem0");
	put_str(r, "host", "0000:0d:00.0");
	put_str(r, "region", "region0");
	return ev;
}

static void poison(void)
{
	const struct ct_event_field *f;
	struct ct_event e;
	struct rec r;
	struct tep_event *ev = poison_record("linux-6.12", &r);

	if (!ev)
		return;
	put(&r, "trace_type", 0);
	put(&r, "dpa", 0x40000);
	put(&r, "dpa_length", 64);
	put(&r, "source", 2);
	put(&r, "flags", 3);
	put(&r, "overflow_ts", 42);
	put(&r, "hpa", 0x110040000ULL);
	put_bytes(&r, "uuid", region_uuid, 16);
	is_int(decode(&r, &e, 0), 0, "decoded");
	ok(all_fields(ev, &e), "every field");
	f = ct_event_field(&e, "uuid");
	ok(f && f->type == CT_FIELD_UUID, "the region uuid in char[16] is a UUID, not text");
	ok(e.kind == CT_EV_POISON && e.dpa == 0x40000 && e.dpa_length == 64 && e.source == 2, "poison fields");
	ok(e.poison_flags == 3 && e.overflow_ts == 42, "flags and overflow time");
	ok(e.has_region_uuid && !strcmp(e.region, "region0"), "region and its uuid");
	is_int(ct_event_severity(&e), 2, "listed poison: failure (no log to say it)");
	put(&r, "trace_type", 2);
	is_int(decode(&r, &e, 0), 0, "a clear");
	is_int(ct_event_severity(&e), 0, "cleared poison: informational");
	put(&r, "trace_type", 1);
	is_int(decode(&r, &e, 0), 0, "an injection");
	is_int(ct_event_severity(&e), 2, "injected poison: failure");
	put(&r, "trace_type", 2);
	is_int(decode(&r, &e, 0), 0, "a clear again");
	ok(!e.timestamp && ct_event_time(&e) == 0, "no device timestamp");
	e.trace_time = 1700000000000000000ULL;
	ok(ct_event_time(&e) == e.trace_time, "its time is when the kernel emitted it");
}

/* an extended linear cache: hpa is the CXL memory's, hpa_alias0 the cache's;
 * ULLONG_MAX (no cache, no region) is no address */
static void poison_alias(void)
{
	struct ct_event e;
	struct rec r;
	struct tep_event *ev = poison_record("synthetic-newer", &r);

	if (!ev)
		return;
	put(&r, "dpa", 0x40000);
	put(&r, "hpa", 0x150040000ULL);
	put(&r, "hpa_alias0", 0x110040000ULL);
	is_int(decode(&r, &e, 0), 0, "decoded");
	ok(all_fields(ev, &e), "every field");
	ok(e.has_hpa && e.hpa == 0x150040000ULL && e.dpa == 0x40000, "hpa and dpa where they are after hpa_alias0");
	ok(e.has_hpa_alias && e.hpa_alias == 0x110040000ULL, "hpa_alias0");
	put(&r, "hpa_alias0", ~0ULL);
	is_int(decode(&r, &e, 0), 0, "decoded without a cache");
	ok(!e.has_hpa_alias && e.has_hpa, "ULLONG_MAX: no alias, the hpa still");
}

static void aer(void)
{
	struct tep_event *ev = load("linux-6.12", "cxl_aer_uncorrectable_error");
	const struct ct_event_field *f;
	uint32_t hl[128];
	struct ct_event e;
	struct rec r;

	ok(ev != NULL, "cxl_aer_uncorrectable_error format parses");
	if (!ev)
		return;
	rec_init(&r, ev);
	for (int i = 0; i < 128; i++)
		hl[i] = 0x01000000u * (uint32_t)(i & 0xff) + 5;
	put_str(&r, "memdev", "mem0");
	put(&r, "status", 0x4080);
	put(&r, "first_error", 0x80);
	put_bytes(&r, "header_log", hl, sizeof(hl));
	is_int(decode(&r, &e, 0), 0, "decoded");
	ok(all_fields(ev, &e), "every field");
	ok(e.kind == CT_EV_AER && e.uncorrectable && e.status == 0x4080 && e.first_error == 0x80, "status, first error");
	is_int(ct_event_severity(&e), 3, "uncorrectable: fatal");
	f = ct_event_field(&e, "header_log");
	ok(f && f->type == CT_FIELD_UINT_ARRAY && f->elem == 4 && f->len == 512, "u32[128] as 128 integers");
	ok(f && ct_event_field_elem(&e, f, 3) == 0x03000005u, "element 3");
	{
		const char *n[8];
		size_t k = ct_flag_names(CT_FLAGS_AER_UE, e.status, n, 8);
		ok(k == 2 && !strcmp(n[0], "memory_data_ecc") && !strcmp(n[1], "component_specific"), "status bits named");
	}
}

static void aer_correctable(void)
{
	struct tep_event *ev = load("linux-6.12", "cxl_aer_correctable_error");
	struct ct_event e;
	struct rec r;

	ok(ev != NULL, "cxl_aer_correctable_error format parses");
	if (!ev)
		return;
	rec_init(&r, ev);
	put_str(&r, "memdev", "mem0");
	put(&r, "status", 2);
	is_int(decode(&r, &e, 0), 0, "decoded");
	ok(e.kind == CT_EV_AER && !e.uncorrectable && e.status == 2, "correctable, status");
	is_int(ct_event_severity(&e), 0, "correctable: informational");
}

static void port_aer(void)
{
	struct tep_event *ev = load("synthetic-newer", "cxl_port_aer_correctable_error");
	struct ct_event e;
	struct rec r;

	ok(ev != NULL, "cxl_port_aer_correctable_error format parses");
	if (!ev)
		return;
	rec_init(&r, ev);
	put_str(&r, "device", "0000:0c:00.0");
	put_str(&r, "host", "pci0000:0c");
	put(&r, "status", 0x40);
	is_int(decode(&r, &e, 0), 0, "decoded");
	ok(e.kind == CT_EV_AER && !e.uncorrectable && e.status == 0x40, "an AER event of a port");
	is_str(e.memdev, "0000:0c:00.0", "the port named where the memdev would be");
}

/* more fields than a struct ct_event holds: the rest is left out, said so */
static void truncation(void)
{
	struct ct_event e;
	char name[16];
	static char big[CT_EVENT_STORE];

	ct_event_init(&e, "cxl_test");
	for (int i = 0; i < CT_EVENT_MAX_FIELDS; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		ct_event_add_uint(&e, name, (uint64_t)i);
	}
	ok(!e.truncated && e.nfields == CT_EVENT_MAX_FIELDS, "%d fields fit", CT_EVENT_MAX_FIELDS);
	ok(!ct_event_add_uint(&e, "one_more", 1) && e.truncated, "one more does not");
	ct_event_init(&e, "cxl_test");
	ok(!ct_event_add_bytes(&e, "big", CT_FIELD_BYTES, big, sizeof(big), 1) && e.truncated && !e.nfields,
	   "a value larger than the store is left out");
	ok(ct_event_add_uint(&e, "small", 5) && ct_event_field(&e, "small")->u == 5, "what fits after it is kept");
}

static void generic_and_overflow(void)
{
	struct tep_event *ev = load("linux-6.12", "cxl_generic_event");
	struct tep_event *ov = load("linux-6.12", "cxl_overflow");
	static const uint8_t dcd[16] = { 0xca, 0x95, 0xaf, 0xa7, 0xf1, 0x83, 0x40, 0x18,
					 0x8c, 0x2f, 0x95, 0x26, 0x8e, 0x10, 0x1a, 0x2a };
	const struct ct_event_field *f;
	uint8_t data[80];
	struct ct_event e;
	struct rec r;

	ok(ev && ov, "cxl_generic_event and cxl_overflow formats parse");
	if (!ev || !ov)
		return;
	rec_init(&r, ev);
	header(&r, 0, 0);
	put_bytes(&r, "hdr_uuid", dcd, 16);
	for (int i = 0; i < 80; i++)
		data[i] = (uint8_t)i;
	put_bytes(&r, "data", data, 80);
	is_int(decode(&r, &e, 0), 0, "generic decoded");
	ok(all_fields(ev, &e), "every field");
	is_str(ct_record_type_name(e.uuid), "dynamic_capacity", "a Dynamic Capacity record, by its UUID");
	f = ct_event_field(&e, "data");
	ok(f && f->type == CT_FIELD_BYTES && f->len == 80 && !memcmp(ct_event_field_data(&e, f), data, 80), "payload");

	rec_init(&r, ov);
	put_str(&r, "memdev", "mem0");
	put(&r, "log", 1);
	put(&r, "count", 9);
	put(&r, "first_ts", 100);
	put(&r, "last_ts", 200);
	is_int(decode(&r, &e, 0), 0, "overflow decoded");
	ok(e.kind == CT_EV_OVERFLOW && e.count == 9 && e.first_ts == 100 && e.last_ts == 200, "count and times");
	is_int(ct_event_severity(&e), 1, "the log that overflowed");
}

/* a 128-byte record decodes to the kernel's field names */
static void record_names(void)
{
	struct tep_event *ev = load("synthetic-newer", "cxl_general_media");
	static const char *const trace_only[] = { "memdev", "host", "log", "serial", "hpa", "hpa_alias0", "region_uuid",
						  "region_name", "field_no_kernel_has" };
	uint8_t rec[128] = { 0 };
	struct ct_event e;
	bool all = true;

	memcpy(rec, uuid_gm, 16);
	rec[16] = 128;
	is_int(ct_event_decode(rec, 128, &e), 0, "a General Media record");
	for (struct tep_format_field *f = ev ? ev->format.fields : NULL; f; f = f->next) {
		bool skip = false;
		for (size_t i = 0; i < sizeof(trace_only) / sizeof(trace_only[0]); i++)
			skip |= !strcmp(f->name, trace_only[i]);
		if (!skip && !ct_event_field(&e, f->name)) {
			fprintf(stderr, "# %s not decoded from the record\n", f->name);
			all = false;
		}
	}
	ok(ev && all, "every record field of the tracepoint, under the same name");
}

int main(void)
{
	tep = tep_alloc();
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	general_media_612();
	general_media_newer();
	dram();
	memory_module();
	poison();
	poison_alias();
	aer();
	aer_correctable();
	port_aer();
	truncation();
	generic_and_overflow();
	record_names();
	tep_free(tep);
	return tap_done();
}
