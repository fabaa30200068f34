// SPDX-License-Identifier: GPL-2.0-only
/* poison-json.c - poison ranges as JSON, and the poison lists of several
 * memdevs as `poison` shows them (poison-json.h) */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "cli/json-build.h"
#include "render/poison-json.h"
#include "render/time-json.h"
#include "events/event.h"

static json_object *flag_names(uint8_t flags)
{
	json_object *a = json_object_new_array();
	const char *n[8];
	size_t k = ct_flag_names(CT_FLAGS_POISON, flags, n, 8);

	for (size_t i = 0; i < k; i++)
		json_object_array_add(a, json_object_new_string(n[i]));
	return a;
}

json_object *poison_record_json(const struct ct_poison_list *l, const struct ct_poison *p,
				const struct ct_topology *t, bool with_memdev)
{
	json_object *o = json_object_new_object();
	const struct ct_region *r = t && p->region[0] ? ct_topology_region(t, p->region) : NULL;
	char uuid[40];

	if (with_memdev)
		jb_str(o, "memdev", l->memdev);
	if (l->trace != CT_POISON_TRACE_LIST)
		jb_str(o, "trace_type", ct_poison_trace_type_name((uint8_t)l->trace));
	jb_u64(o, "dpa", p->dpa);
	jb_u64(o, "length", p->length);
	if (p->has_hpa)
		jb_u64(o, "hpa", p->hpa);
	if (p->has_hpa_alias)
		jb_u64(o, "hpa_alias0", p->hpa_alias);
	jb_str(o, "region", p->region);
	if (r && p->has_hpa && r->resource && p->hpa >= r->resource && p->hpa - r->resource < r->size)
		jb_u64(o, "region_offset", p->hpa - r->resource);
	if (p->has_region_uuid) {
		ct_uuid_text(p->region_uuid, uuid, sizeof(uuid));
		jb_str(o, "region_uuid", uuid);
	}
	if (l->trace == CT_POISON_TRACE_LIST)	/* inject and clear carry no source or flags */
		jb_str(o, "source", ct_poison_source_name(p->source));
	if (l->trace == CT_POISON_TRACE_LIST)
		json_object_object_add(o, "flags", flag_names(p->flags));
	if (p->flags & CT_POISON_OVERFLOW)
		time_json(o, "overflow_timestamp", "overflow_time", p->overflow_ts);
	return o;
}

void poison_out_init(struct poison_out *o)
{
	o->records = json_object_new_array();
	o->memdevs = json_object_new_array();
	o->rows = json_object_new_array();
}

void poison_out_free(struct poison_out *o)
{
	json_object_put(o->records);
	json_object_put(o->memdevs);
	json_object_put(o->rows);
}

static json_object *memdev_obj(const struct ct_memdev *m)
{
	json_object *o = json_object_new_object();

	jb_str(o, "name", m->name);
	if (m->has_serial)
		jb_u64(o, "serial", m->serial);
	return o;
}

/* a range's row: its JSON with the DPA range as its name */
static json_object *range_row(json_object *rec, const struct ct_poison *p)
{
	json_object *row = json_object_new_object();
	char name[48];

	snprintf(name, sizeof(name), "0x%" PRIx64 "-0x%" PRIx64, p->dpa, p->dpa + (p->length ? p->length - 1 : 0));
	jb_str(row, "name", name);
	json_object_object_foreach(rec, k, v)
		if (strcmp(k, "memdev"))
			json_object_object_add(row, k, json_object_get(v));
	return row;
}

void poison_out_add(struct poison_out *o, const struct ct_memdev *m, const struct ct_poison_list *l,
		    const struct ct_topology *t, bool (*keep)(const struct ct_poison *p, void *arg), void *arg)
{
	json_object *sum = memdev_obj(m), *row = memdev_obj(m), *kids = jb_arr(row, "poison");
	uint64_t bytes = 0, shown = 0;
	char note[160] = "", tm[64];

	for (size_t i = 0; i < l->n; i++) {
		const struct ct_poison *p = &l->recs[i];
		json_object *rec;
		if (keep && !keep(p, arg))
			continue;
		rec = poison_record_json(l, p, t, true);
		json_object_array_add(kids, range_row(rec, p));
		json_object_array_add(o->records, rec);
		bytes += p->length;
		shown++;
	}
	jb_u64(sum, "ranges", shown);
	jb_u64(sum, "poisoned_bytes", bytes);
	jb_bool(sum, "overflow", l->overflow);
	if (l->overflow && l->overflow_ts)
		time_json(sum, "overflow_timestamp", "overflow_time", l->overflow_ts);
	jb_bool(sum, "scanning", l->scanning);
	if (l->lost)
		jb_u64(sum, "records_lost", l->lost);
	json_object_array_add(o->memdevs, sum);

	jb_u64(row, "ranges", shown);
	jb_u64(row, "length", bytes);
	iso_time(l->overflow_ts, tm, sizeof(tm));
	if (l->lost)
		snprintf(note, sizeof(note), "incomplete: the trace buffer dropped %lu records", l->lost);
	else if (l->overflow)
		snprintf(note, sizeof(note), "overflow%s%s: poison since then is missing (a media scan rebuilds the list)",
			 tm[0] ? " at " : "", tm);
	else if (l->scanning)
		snprintf(note, sizeof(note), "a media scan is running: the list may be incomplete");
	else if (!shown)
		snprintf(note, sizeof(note), "no poison");
	jb_str(row, "note", note);
	json_object_array_add(o->rows, row);
}

void poison_out_failed(struct poison_out *o, const struct ct_memdev *m, const char *why, bool unsupported)
{
	json_object *sum = memdev_obj(m), *row = memdev_obj(m);

	jb_bool(sum, "supported", !unsupported);
	jb_str(sum, "error", why);
	json_object_array_add(o->memdevs, sum);
	jb_str(row, "note", why);
	json_object_array_add(o->rows, row);
}
