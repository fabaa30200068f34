// SPDX-License-Identifier: GPL-2.0-only
/* poison lists: cxl_poison records as Linux 6.12 lays them out
 * (test/fixtures/tracefs) decoded, kept per memdev and trace type, sorted,
 * merged, summed up; and shown as JSON and as the table's rows */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include "tap.h"
#include "events/event.h"
#include "events/event-trace.h"
#include "events/poison.h"
#include "cxl/topology.h"
#include "render/poison-json.h"

static struct tep_handle *tep;
static struct tep_event *ev;

static struct tep_event *load(const char *name)
{
	char path[512], *buf;
	struct tep_event *e = NULL;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/tracefs/linux-6.12/%s.format", CXLTIER_FIXTURES, name);
	if (!(f = fopen(path, "r")))
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n);
	if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n && tep_parse_format(tep, &e, buf, (unsigned long)n, "cxl"))
		e = NULL;
	free(buf);
	fclose(f);
	return e;
}

struct rec {
	uint8_t data[512];
	size_t end;
};

static void put(struct rec *r, const char *name, uint64_t v)
{
	struct tep_format_field *f = tep_find_field(ev, name);

	for (int i = 0; f && i < f->size && i < 8; i++)
		r->data[f->offset + i] = (uint8_t)(v >> (8 * i));
}

static void put_str(struct rec *r, const char *name, const char *s)
{
	size_t len = strlen(s) + 1;

	memcpy(r->data + r->end, s, len);
	put(r, name, (uint64_t)len << 16 | r->end);
	r->end += len;
}

/* one cxl_poison record as the kernel traces it */
static void poison(struct ct_event *e, const char *memdev, int trace, uint64_t dpa, uint32_t len, uint64_t hpa,
		   const char *region, int source, int flags, uint64_t overflow_ts)
{
	struct rec r;
	struct tep_record t;

	memset(&r, 0, sizeof(r));
	r.end = 78;	/* after the fixed fields of 6.12's format */
	put_str(&r, "memdev", memdev);
	put_str(&r, "host", "0000:0d:00.0");
	put(&r, "serial", 0x1234);
	put(&r, "trace_type", (uint64_t)trace);
	put_str(&r, "region", region);
	put(&r, "overflow_ts", overflow_ts);
	put(&r, "hpa", hpa);
	put(&r, "dpa", dpa);
	put(&r, "dpa_length", len);
	put(&r, "source", (uint64_t)source);
	put(&r, "flags", (uint64_t)flags);
	t = (struct tep_record){ .data = r.data, .size = (int)r.end };
	if (ct_event_from_trace(ev, &t, e))
		fprintf(stderr, "# the record did not decode\n");
	e->trace_time = 1700000000000000000ULL;
}

static const char *jstr(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_string(v) : NULL;
}

static long long jint(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) ? (long long)json_object_get_int64(v) : -1;
}

static bool keep_none(const struct ct_poison *p, void *arg)
{
	(void)p;
	(void)arg;
	return false;
}

static void lists(void)
{
	struct ct_poison_list l;
	struct ct_event e;

	ct_poison_list_init(&l, "mem0", CT_POISON_TRACE_LIST);
	poison(&e, "mem0", 0, 0x40000, 128, 0x110040000ULL, "region0", 2, 0, 0);
	is_int(e.kind, CT_EV_POISON, "6.12's cxl_poison decodes as poison");
	is_int(ct_poison_list_add(&l, &e), 0, "a listed record of mem0 is kept");
	poison(&e, "mem1", 0, 0x1000, 64, ~0ULL, "", 2, 0, 0);
	is_int(ct_poison_list_add(&l, &e), 1, "another memdev's is not");
	poison(&e, "mem0", 1, 0x1000, 64, ~0ULL, "", 0, 0, 0);
	is_int(ct_poison_list_add(&l, &e), 1, "an injected cacheline's trace is not a list record");
	poison(&e, "mem0", 0, 0x1000, 64, ~0ULL, "", 3, CT_POISON_MORE, 0);
	is_int(ct_poison_list_add(&l, &e), 0, "unmapped, injected, with more to come");
	poison(&e, "mem0", 0, 0x1000, 64, ~0ULL, "", 3, 0, 0);
	ct_poison_list_add(&l, &e);	/* the same range, traced by another reader's trigger */
	poison(&e, "mem0", 0, 0x1000, 128, ~0ULL, "", 3, 0, 0);
	ct_poison_list_add(&l, &e);	/* same start, longer: another record */
	ct_poison_list_finish(&l);
	is_int(l.n, 3, "the duplicate merged (the more flag aside), the longer range kept");
	ok(l.recs[0].dpa == 0x1000 && l.recs[0].length == 64 && l.recs[1].length == 128 && l.recs[2].dpa == 0x40000,
	   "sorted by DPA, then length");
	ok(!l.recs[0].has_hpa && !l.recs[0].region[0], "no region: no HPA (the kernel's all ones)");
	ok(l.recs[2].has_hpa && l.recs[2].hpa == 0x110040000ULL && !strcmp(l.recs[2].region, "region0"),
	   "mapped: HPA and region");
	is_int(l.recs[2].source, 2, "source internal");
	is_int(l.bytes, 64 + 128 + 128, "poisoned bytes summed");
	ok(!l.overflow && !l.scanning, "no overflow, no scan");
	ct_poison_list_free(&l);

	ct_poison_list_init(&l, "mem0", CT_POISON_TRACE_LIST);
	poison(&e, "mem0", 0, 0x2000, 64, ~0ULL, "", 2, CT_POISON_OVERFLOW | CT_POISON_SCANNING, 2000);
	ct_poison_list_add(&l, &e);
	poison(&e, "mem0", 0, 0x3000, 64, ~0ULL, "", 1, CT_POISON_OVERFLOW, 1000);
	ct_poison_list_add(&l, &e);
	ct_poison_list_finish(&l);
	ok(l.overflow && l.scanning, "overflow and scanning said by the responses");
	is_int(l.overflow_ts, 1000, "the earliest overflow time");
	is_int(l.recs[0].overflow_ts, 2000, "each record keeps its own");
	ct_poison_list_free(&l);
}

static void json(void)
{
	struct ct_region reg = { .name = "region0", .resource = 0x110000000ULL, .size = 1ULL << 30 };
	struct ct_topology t = { .regions = &reg, .nregions = 1 };
	struct ct_memdev m = { .name = "mem0", .serial = 0x1234, .has_serial = true };
	struct ct_poison_list l;
	struct poison_out out;
	struct ct_event e;
	json_object *o, *f, *row, *kids;

	ct_poison_list_init(&l, "mem0", CT_POISON_TRACE_LIST);
	poison(&e, "mem0", 0, 0x40000, 64, 0x110040000ULL, "region0", 2, 0, 0);
	ct_poison_list_add(&l, &e);
	poison(&e, "mem0", 0, 0x80000, 64, ~0ULL, "", 7, CT_POISON_OVERFLOW, 1700000000000000000ULL);
	ct_poison_list_add(&l, &e);
	ct_poison_list_finish(&l);

	o = poison_record_json(&l, &l.recs[0], &t, true);
	is_str(jstr(o, "memdev"), "mem0", "memdev");
	ok(jint(o, "dpa") == 0x40000 && jint(o, "length") == 64, "dpa and length in bytes");
	is_int(jint(o, "hpa"), 0x110040000LL, "hpa");
	is_int(jint(o, "region_offset"), 0x40000, "the offset in its region, from the topology");
	is_str(jstr(o, "region"), "region0", "region");
	is_str(jstr(o, "source"), "internal", "source by name");
	ok(json_object_object_get_ex(o, "flags", &f) && json_object_array_length(f) == 0, "no flags: []");
	ok(!json_object_object_get_ex(o, "trace_type", NULL) && !json_object_object_get_ex(o, "overflow_time", NULL),
	   "a list record has no trace_type, no overflow keys without the flag");
	ok(!json_object_object_get_ex(o, "region_uuid", NULL), "a null region uuid is absent");
	json_object_put(o);

	o = poison_record_json(&l, &l.recs[1], &t, false);
	ok(!json_object_object_get_ex(o, "memdev", NULL), "without the memdev (list -vvv media_errors)");
	ok(!json_object_object_get_ex(o, "hpa", NULL) && !json_object_object_get_ex(o, "region", NULL) &&
	   !json_object_object_get_ex(o, "region_offset", NULL), "unmapped: no hpa, region or offset");
	is_str(jstr(o, "source"), "vendor", "source 7");
	is_str(json_object_get_string(json_object_array_get_idx(json_object_object_get(o, "flags"), 0)), "overflow",
	       "the overflow flag by name");
	is_str(jstr(o, "overflow_time"), "2023-11-14T22:13:20.000000000Z", "its time in UTC");
	json_object_put(o);

	poison_out_init(&out);
	poison_out_add(&out, &m, &l, &t, NULL, NULL);
	is_int(json_object_array_length(out.records), 2, "both records in \"poison\"");
	o = json_object_array_get_idx(out.memdevs, 0);
	ok(jint(o, "ranges") == 2 && jint(o, "poisoned_bytes") == 128 && jint(o, "serial") == 0x1234,
	   "the memdev's summary: ranges, bytes, serial");
	ok(json_object_get_boolean(json_object_object_get(o, "overflow")), "overflow in the summary");
	row = json_object_array_get_idx(out.rows, 0);
	kids = json_object_object_get(row, "poison");
	is_str(jstr(json_object_array_get_idx(kids, 0), "name"), "0x40000-0x4003f", "a range's row is named first-last");
	ok(strstr(jstr(row, "note"), "overflow at 2023-11-14T22:13:20") != NULL, "the memdev row says when it overflowed");
	poison_out_add(&out, &m, &l, &t, keep_none, NULL);
	o = json_object_array_get_idx(out.memdevs, 1);
	is_int(jint(o, "ranges"), 0, "a filter (a region argument) keeps none");
	is_str(jstr(json_object_array_get_idx(out.rows, 1), "note"), "overflow at 2023-11-14T22:13:20.000000000Z: "
	       "poison since then is missing (a media scan rebuilds the list)", "the overflow note stays");
	poison_out_failed(&out, &m, "mem0: no", true);
	o = json_object_array_get_idx(out.memdevs, 2);
	ok(!json_object_get_boolean(json_object_object_get(o, "supported")) && !strcmp(jstr(o, "error"), "mem0: no"),
	   "a memdev that could not be read: supported false, the error");
	poison_out_free(&out);
	ct_poison_list_free(&l);

	/* a clean device */
	ct_poison_list_init(&l, "mem0", CT_POISON_TRACE_LIST);
	ct_poison_list_finish(&l);
	poison_out_init(&out);
	poison_out_add(&out, &m, &l, &t, NULL, NULL);
	ok(json_object_array_length(out.records) == 0 && jint(json_object_array_get_idx(out.memdevs, 0), "ranges") == 0,
	   "clean: no records, ranges 0");
	is_str(jstr(json_object_array_get_idx(out.rows, 0), "note"), "no poison", "the table says so");
	poison_out_free(&out);

	/* what inject traced */
	ct_poison_list_init(&l, "mem0", CT_POISON_TRACE_INJECT);
	poison(&e, "mem0", 1, 0x1000, 64, 0x110001000ULL, "region0", 0, 0, 0);
	is_int(ct_poison_list_add(&l, &e), 0, "an inject trace into an inject list");
	o = poison_record_json(&l, &l.recs[0], NULL, true);
	is_str(jstr(o, "trace_type"), "inject", "trace_type inject");
	ok(!json_object_object_get_ex(o, "source", NULL) && !json_object_object_get_ex(o, "flags", NULL),
	   "no source or flags: the kernel sets none for inject");
	ok(!json_object_object_get_ex(o, "region_offset", NULL), "no topology: no offset");
	json_object_put(o);
	ct_poison_list_free(&l);
}

int main(void)
{
	tep = tep_alloc();
	ev = load("cxl_poison");
	ok(ev != NULL, "6.12 cxl_poison format parses");
	if (!ev)
		return tap_done();
	ok(ct_poison_memdev_name_ok("mem12") && !ct_poison_memdev_name_ok("mem") &&
	   !ct_poison_memdev_name_ok("mem1/../x") && !ct_poison_memdev_name_ok("region0") &&
	   !ct_poison_memdev_name_ok("dax1234"),
	   "only memN names go into paths");
	lists();
	json();
	tep_free(tep);
	return tap_done();
}
