// SPDX-License-Identifier: GPL-2.0-only
/* events-json.c - one CXL event record (lib/events/event.h) as JSON through the one
 * JSON builder: the decoded keys, and "fields": every field of the
 * tracepoint (or of the 128-byte record) under the kernel's name, raw */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "events-json.h"
#include "cli/json-build.h"
#include "render/health-json.h"
#include "render/time-json.h"

static void names(json_object *o, const char *key, enum ct_flag_set set, uint64_t v)
{
	const char *n[32];
	size_t k = ct_flag_names(set, v, n, 32);
	json_object *a = jb_arr(o, key);

	for (size_t i = 0; i < k; i++)
		json_object_array_add(a, json_object_new_string(n[i]));
}

static json_object *hex(const uint8_t *p, size_t len)
{
	char buf[2 * CT_EVENT_STORE + 1];

	buf[0] = '\0';
	for (size_t i = 0; i < len && 2 * i + 2 < sizeof(buf); i++)
		snprintf(buf + 2 * i, 3, "%02x", p[i]);
	return json_object_new_string(buf);
}

static void uuid(json_object *o, const char *key, const uint8_t u[16])
{
	char t[40];

	ct_uuid_text(u, t, sizeof(t));
	jb_str(o, key, t);
}

/* every field, raw: numbers, text, UUIDs as text, byte arrays as hex,
 * integer arrays as arrays */
static json_object *fields_json(const struct ct_event *e)
{
	json_object *o = json_object_new_object(), *v, *a;
	char t[40];

	for (size_t i = 0; i < e->nfields; i++) {
		const struct ct_event_field *f = &e->fields[i];
		const void *d = ct_event_field_data(e, f);
		switch (f->type) {
		case CT_FIELD_UINT: v = json_object_new_uint64(f->u); break;
		case CT_FIELD_INT: v = json_object_new_int64(f->i); break;
		case CT_FIELD_STRING: v = json_object_new_string(d); break;
		case CT_FIELD_UUID:
			ct_uuid_text(d, t, sizeof(t));
			v = json_object_new_string(t);
			break;
		case CT_FIELD_UINT_ARRAY:
			v = a = json_object_new_array();
			for (size_t k = 0; k < f->len / f->elem; k++)
				json_object_array_add(a, json_object_new_uint64(ct_event_field_elem(e, f, k)));
			break;
		default: v = hex(d, f->len); break;
		}
		json_object_object_add(o, ct_event_field_name(e, f), v);
	}
	return o;
}

static void header_keys(const struct ct_event *e, json_object *o)
{
	jb_int(o, "flags", e->flags);
	jb_bool(o, "permanent", e->flags & CT_EVENT_FLAG_PERMANENT);
	jb_bool(o, "maintenance_needed", e->flags & CT_EVENT_FLAG_MAINT_NEEDED);
	jb_bool(o, "performance_degraded", e->flags & CT_EVENT_FLAG_PERF_DEGRADED);
	jb_bool(o, "hardware_replacement_needed", e->flags & CT_EVENT_FLAG_HW_REPLACE);
	names(o, "flag_names", CT_FLAGS_HEADER, e->flags);
	jb_int(o, "handle", e->handle);
	jb_int(o, "related_handle", e->related_handle);
	jb_int(o, "length", e->length);
	uuid(o, "uuid", e->uuid);
	jb_str(o, "record_type", ct_record_type_name(e->uuid));
	if (e->has_maint_op_class)
		jb_int(o, "maintenance_operation_class", e->maint_op_class);
	if (e->has_maint_op_sub_class)
		jb_int(o, "maintenance_operation_sub_class", e->maint_op_sub_class);
}

/* the component id, and its PLDM entity and resource ids when it is in
 * PLDM format (byte 0: which are valid, 1-6 entity id, 7-10 resource id) */
static void component_keys(const struct ct_event *e, json_object *o, bool pldm)
{
	if (!e->has_comp_id)
		return;
	json_object_object_add(o, "component_id", hex(e->comp_id, 16));
	if (!pldm)
		return;
	jb_str(o, "component_id_format", "pldm");
	names(o, "pldm_valid", CT_FLAGS_PLDM, e->comp_id[0]);
	if (e->comp_id[0] & 1)
		json_object_object_add(o, "pldm_entity_id", hex(e->comp_id + 1, 6));
	if (e->comp_id[0] & 2)
		json_object_object_add(o, "pldm_resource_id", hex(e->comp_id + 7, 4));
}

static void media_keys(const struct ct_event *e, json_object *o)
{
	bool dram = e->kind == CT_EV_DRAM;
	uint16_t v = e->validity;

	jb_u64(o, "dpa", e->dpa);
	names(o, "dpa_flags", CT_FLAGS_DPA, e->dpa_flags);
	names(o, "descriptor", CT_FLAGS_DESCRIPTOR, e->descriptor);
	jb_int(o, "memory_event_type_id", e->type);
	jb_str(o, "memory_event_type", dram ? ct_dram_event_type_name(e->type) : ct_gm_event_type_name(e->type));
	if (e->has_sub_type) {
		jb_int(o, "memory_event_sub_type_id", e->sub_type);
		jb_str(o, "memory_event_sub_type", ct_memory_event_sub_type_name(e->sub_type));
	}
	jb_int(o, "transaction_type_id", e->transaction_type);
	jb_str(o, "transaction_type", ct_transaction_type_name(e->transaction_type));
	jb_int(o, "validity_flags", v);
	names(o, "valid", dram ? CT_FLAGS_DRAM_VALID : CT_FLAGS_GM_VALID, v);
	if (v & 1)
		jb_int(o, "channel", e->channel);
	if (v & 2)
		jb_int(o, "rank", e->rank);
	if (!dram && (v & 4))
		jb_int(o, "device", e->device);
	if (dram) {
		if (v & 4)
			jb_int(o, "nibble_mask", e->nibble_mask);
		if (v & 8)
			jb_int(o, "bank_group", e->bank_group);
		if (v & 16)
			jb_int(o, "bank", e->bank);
		if (v & 32)
			jb_int(o, "row", e->row);
		if (v & 64)
			jb_int(o, "column", e->column);
		if (v & 128) {
			json_object *a = jb_arr(o, "correction_mask");
			char w[24];
			for (int i = 0; i < 4; i++) {
				snprintf(w, sizeof(w), "0x%016" PRIx64, e->correction_mask[i]);
				json_object_array_add(a, json_object_new_string(w));
			}
		}
		if (v & 1024)
			jb_int(o, "sub_channel", e->sub_channel);
	}
	component_keys(e, o, v & (dram ? 512 : 16));
	if (e->has_cme) {
		names(o, "cme_threshold_event_flags", CT_FLAGS_CME, e->cme_flags);
		jb_u64(o, dram ? "cvme_count" : "cme_count", e->cme_count);
	}
}

static void module_keys(const struct ct_event *e, json_object *o)
{
	jb_int(o, "device_event_type_id", e->device_event_type);
	jb_str(o, "device_event_type", ct_module_event_type_name(e->device_event_type));
	if (e->has_device_event_sub_type) {
		jb_int(o, "device_event_sub_type_id", e->device_event_sub_type);
		jb_str(o, "device_event_sub_type", ct_module_event_sub_type_name(e->device_event_sub_type));
	}
	if (ct_event_field(e, "validity_flags")) {
		jb_int(o, "validity_flags", e->validity);
		names(o, "valid", CT_FLAGS_MODULE_VALID, e->validity);
	}
	component_keys(e, o, e->validity & 2);
	json_object_object_add(o, "health", health_json(&e->health));
}

/* what only some kinds carry, first (the keys' order is the JSON's) */
static void kind_keys(const struct ct_event *e, json_object *o)
{
	const struct ct_event_field *f;

	if (e->kind == CT_EV_POISON) {
		jb_str(o, "trace_type", ct_poison_trace_type_name(e->trace_type));
		jb_str(o, "source", ct_poison_source_name(e->source));
		jb_u64(o, "dpa", e->dpa);
		jb_u64(o, "dpa_length", e->dpa_length);
		names(o, "poison_flags", CT_FLAGS_POISON, e->poison_flags);
		if (e->poison_flags & 2)	/* the device's poison list overflowed at that time */
			time_json(o, "overflow_timestamp", "overflow_time", e->overflow_ts);
	} else if (e->kind == CT_EV_OVERFLOW) {
		jb_u64(o, "count", e->count);
		time_json(o, "first_timestamp", "first_time", e->first_ts);
		time_json(o, "last_timestamp", "last_time", e->last_ts);
	} else if (e->kind == CT_EV_AER) {
		enum ct_flag_set set = e->uncorrectable ? CT_FLAGS_AER_UE : CT_FLAGS_AER_CE;
		jb_u64(o, "status", e->status);
		names(o, "status_names", set, e->status);
		if (ct_event_field(e, "first_error")) {
			jb_u64(o, "first_error", e->first_error);
			names(o, "first_error_names", set, e->first_error);
		}
		jb_bool(o, "uncorrectable", e->uncorrectable);
	} else if (e->kind == CT_EV_GENERIC && (f = ct_event_field(e, "data")) && f->type == CT_FIELD_BYTES) {
		json_object_object_add(o, "payload", hex(ct_event_field_data(e, f), f->len));
	}
}

json_object *events_json(const struct ct_event *e)
{
	json_object *o = json_object_new_object();
	int sev = ct_event_severity(e);

	jb_str(o, "event", e->event);
	kind_keys(e, o);
	jb_str(o, "kind", ct_event_kind_name(e->kind));
	jb_str(o, "memdev", e->memdev);
	jb_str(o, "host", e->host);
	if (e->has_serial)
		jb_u64(o, "serial", e->serial);
	if (e->identity[0])	/* the device as the store tells it from others */
		jb_str(o, "identity", e->identity);
	if (sev >= 0)
		jb_str(o, "severity", ct_severity_name((uint8_t)sev));
	if (e->timestamp)
		time_json(o, "timestamp", "time", e->timestamp);
	if (e->trace_time)	/* when the kernel emitted it */
		time_json(o, "trace_timestamp", "trace_time", e->trace_time);
	if (e->received_ns)	/* the host's time the store counts it by */
		time_json(o, "received_timestamp", "received", e->received_ns);
	if (e->has_header)
		header_keys(e, o);
	if (e->kind == CT_EV_GENERAL_MEDIA || e->kind == CT_EV_DRAM)
		media_keys(e, o);
	if (e->kind == CT_EV_MEMORY_MODULE)
		module_keys(e, o);
	if (e->has_hpa)
		jb_u64(o, "hpa", e->hpa);
	if (e->has_hpa_alias)
		jb_u64(o, "hpa_alias0", e->hpa_alias);
	jb_str(o, "region", e->region);
	if (e->has_region_uuid)
		uuid(o, "region_uuid", e->region_uuid);
	if (e->truncated)
		jb_bool(o, "fields_truncated", true);
	json_object_object_add(o, "fields", fields_json(e));
	return o;
}
