// SPDX-License-Identifier: LGPL-2.1-or-later
/* event.c - an event as named, typed fields, and the decoded view built from
 * them by the kernel's field names (drivers/cxl/core/trace.h), whichever
 * source filled them: a tracepoint record or a 128-byte mailbox record */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "events/event.h"

void ct_event_init(struct ct_event *e, const char *event_name)
{
	/* the store is filled as fields are added: only the head is cleared */
	memset(e, 0, offsetof(struct ct_event, store));
	e->log = 0xff;
	snprintf(e->event, sizeof(e->event), "%s", event_name ? event_name : "");
}

static int store(struct ct_event *e, const void *p, size_t len, bool nul, uint16_t *off)
{
	size_t need = len + (nul ? 1 : 0);

	if (need > sizeof(e->store) - e->used || len > UINT16_MAX) {
		e->truncated = true;
		return -ENOSPC;
	}
	*off = (uint16_t)e->used;
	if (len)
		memcpy(e->store + e->used, p, len);
	if (nul)
		e->store[e->used + len] = '\0';
	e->used += need;
	return 0;
}

static struct ct_event_field *add(struct ct_event *e, const char *name, enum ct_field_type type)
{
	struct ct_event_field *f;
	uint16_t off;

	if (e->nfields >= CT_EVENT_MAX_FIELDS) {
		e->truncated = true;
		return NULL;
	}
	if (store(e, name, strlen(name), true, &off))
		return NULL;
	f = &e->fields[e->nfields];
	memset(f, 0, sizeof(*f));
	f->type = type;
	f->name = off;
	return f;
}

struct ct_event_field *ct_event_add_uint(struct ct_event *e, const char *name, uint64_t v)
{
	struct ct_event_field *f = add(e, name, CT_FIELD_UINT);

	if (!f)
		return NULL;
	f->u = v;
	f->i = (int64_t)v;
	e->nfields++;
	return f;
}

struct ct_event_field *ct_event_add_int(struct ct_event *e, const char *name, int64_t v)
{
	struct ct_event_field *f = add(e, name, CT_FIELD_INT);

	if (!f)
		return NULL;
	f->i = v;
	f->u = (uint64_t)v;
	e->nfields++;
	return f;
}

struct ct_event_field *ct_event_add_string(struct ct_event *e, const char *name, const char *s, size_t len)
{
	struct ct_event_field *f = add(e, name, CT_FIELD_STRING);

	if (!f)
		return NULL;
	len = strnlen(s, len);
	if (store(e, s, len, true, &f->data))
		return NULL;
	f->len = (uint16_t)len;
	e->nfields++;
	return f;
}

struct ct_event_field *ct_event_add_bytes(struct ct_event *e, const char *name, enum ct_field_type type,
					  const void *p, size_t len, unsigned elem)
{
	struct ct_event_field *f = add(e, name, type);

	if (!f)
		return NULL;
	if (type == CT_FIELD_UINT_ARRAY && (!elem || elem > 8 || len % elem))
		type = f->type = CT_FIELD_BYTES;
	if (store(e, p, len, false, &f->data))
		return NULL;
	f->len = (uint16_t)len;
	f->elem = (uint16_t)(type == CT_FIELD_UINT_ARRAY ? elem : 1);
	e->nfields++;
	return f;
}

const struct ct_event_field *ct_event_field(const struct ct_event *e, const char *name)
{
	for (size_t i = 0; i < e->nfields; i++)
		if (!strcmp(e->store + e->fields[i].name, name))
			return &e->fields[i];
	return NULL;
}

const char *ct_event_field_name(const struct ct_event *e, const struct ct_event_field *f)
{
	return e->store + f->name;
}

const void *ct_event_field_data(const struct ct_event *e, const struct ct_event_field *f)
{
	return e->store + f->data;
}

uint64_t ct_event_field_elem(const struct ct_event *e, const struct ct_event_field *f, size_t i)
{
	const uint8_t *p = (const uint8_t *)e->store + f->data + i * f->elem;
	uint64_t v = 0;

	if (f->type != CT_FIELD_UINT_ARRAY || (i + 1) * f->elem > f->len)
		return 0;
	for (int b = f->elem - 1; b >= 0; b--)	/* stored in host order by the source */
		v = v << 8 | p[b];
	return v;
}

void ct_uuid_text(const uint8_t u[16], char *buf, size_t len)
{
	snprintf(buf, len, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
}

bool ct_uuid_is_null(const uint8_t u[16])
{
	for (int i = 0; i < 16; i++)
		if (u[i])
			return false;
	return true;
}

/* ---- the decoded view ---- */

static bool num(const struct ct_event *e, const char *name, uint64_t *v)
{
	const struct ct_event_field *f = ct_event_field(e, name);

	if (!f || (f->type != CT_FIELD_UINT && f->type != CT_FIELD_INT))
		return false;
	*v = f->u;
	return true;
}

static void str(const struct ct_event *e, const char *name, char *buf, size_t len)
{
	const struct ct_event_field *f = ct_event_field(e, name);

	buf[0] = '\0';
	if (f && f->type == CT_FIELD_STRING)
		snprintf(buf, len, "%s", (const char *)ct_event_field_data(e, f));
}

static bool bytes(const struct ct_event *e, const char *name, void *out, size_t len)
{
	const struct ct_event_field *f = ct_event_field(e, name);

	if (!f || f->type == CT_FIELD_UINT || f->type == CT_FIELD_INT || f->type == CT_FIELD_STRING ||
	    f->len < len)
		return false;
	memcpy(out, ct_event_field_data(e, f), len);
	return true;
}

static enum ct_event_kind kind_of(const struct ct_event *e)
{
	static const struct { const char *name; enum ct_event_kind kind; } tp[] = {
		{ "cxl_general_media", CT_EV_GENERAL_MEDIA }, { "cxl_dram", CT_EV_DRAM },
		{ "cxl_memory_module", CT_EV_MEMORY_MODULE }, { "cxl_poison", CT_EV_POISON },
		{ "cxl_overflow", CT_EV_OVERFLOW }, { "cxl_generic_event", CT_EV_GENERIC },
	};
	static const char *const rec[] = { "general_media", "dram", "memory_module" };
	const char *type;

	if (e->event[0]) {
		for (size_t i = 0; i < sizeof(tp) / sizeof(tp[0]); i++)
			if (!strcmp(e->event, tp[i].name))
				return tp[i].kind;
		return strstr(e->event, "aer") ? CT_EV_AER : CT_EV_GENERIC;
	}
	type = ct_record_type_name(e->uuid);
	for (int k = 0; type && k < 3; k++)
		if (!strcmp(type, rec[k]))
			return (enum ct_event_kind)k;
	return CT_EV_GENERIC;
}

static void decode_media(struct ct_event *e)
{
	uint64_t v;
	uint8_t mask[32];

	if (num(e, "dpa", &v))
		e->dpa = v;
	if (num(e, "dpa_flags", &v))
		e->dpa_flags = (uint8_t)v;
	if (num(e, "descriptor", &v))
		e->descriptor = (uint8_t)v;
	if (num(e, "type", &v))
		e->type = (uint8_t)v;
	if (num(e, "transaction_type", &v))
		e->transaction_type = (uint8_t)v;
	if (num(e, "validity_flags", &v))
		e->validity = (uint16_t)v;
	if (num(e, "channel", &v))
		e->channel = (uint8_t)v;
	if (num(e, "rank", &v))
		e->rank = (uint8_t)v;
	if (num(e, "device", &v))
		e->device = (uint32_t)v;
	if (num(e, "nibble_mask", &v))
		e->nibble_mask = (uint32_t)v;
	if (num(e, "bank_group", &v))
		e->bank_group = (uint8_t)v;
	if (num(e, "bank", &v))
		e->bank = (uint8_t)v;
	if (num(e, "row", &v))
		e->row = (uint32_t)v;
	if (num(e, "column", &v))
		e->column = (uint16_t)v;
	if (num(e, "sub_channel", &v))
		e->sub_channel = (uint8_t)v;
	if (bytes(e, "cor_mask", mask, sizeof(mask)))
		for (int w = 0; w < 4; w++)
			for (int b = 7; b >= 0; b--)	/* little endian words, as in the record */
				e->correction_mask[w] = e->correction_mask[w] << 8 | mask[w * 8 + b];
	if ((e->has_sub_type = num(e, "sub_type", &v)))
		e->sub_type = (uint8_t)v;
	if ((e->has_cme = num(e, "cme_threshold_ev_flags", &v)))
		e->cme_flags = (uint8_t)v;
	if (num(e, "cme_count", &v) || num(e, "cvme_count", &v))
		e->cme_count = (uint32_t)v;
}

static void decode_module(struct ct_event *e)
{
	uint64_t v;

	if (num(e, "event_type", &v))
		e->device_event_type = (uint8_t)v;
	if ((e->has_device_event_sub_type = num(e, "event_sub_type", &v)))
		e->device_event_sub_type = (uint8_t)v;
	if (num(e, "validity_flags", &v))
		e->validity = (uint16_t)v;
	if (num(e, "health_status", &v))
		e->health.health_status = (uint8_t)v;
	if (num(e, "media_status", &v))
		e->health.media_status = (uint8_t)v;
	if (num(e, "add_status", &v)) {
		e->health.life_used_state = v & 3;
		e->health.temperature_state = (v >> 2) & 3;
		e->health.corrected_volatile_warning = v & 16;
		e->health.corrected_persistent_warning = v & 32;
	}
	if (num(e, "life_used", &v)) {
		e->health.has_life_used = (uint8_t)v != 0xff;
		e->health.life_used = (uint8_t)v;
	}
	if (num(e, "device_temp", &v)) {
		e->health.has_temperature = (uint16_t)v != 0xffff;
		e->health.temperature = (int16_t)(uint16_t)v;
	}
	if (num(e, "dirty_shutdown_cnt", &v))
		e->health.dirty_shutdowns = (uint32_t)v;
	if (num(e, "cor_vol_err_cnt", &v))
		e->health.corrected_volatile_errors = (uint32_t)v;
	if (num(e, "cor_per_err_cnt", &v))
		e->health.corrected_persistent_errors = (uint32_t)v;
}

/* is the component id valid: validity bit "component" of each record format */
static bool comp_id_valid(const struct ct_event *e)
{
	switch (e->kind) {
	case CT_EV_GENERAL_MEDIA: return e->validity & (1u << 3);
	case CT_EV_DRAM: return e->validity & (1u << 8);
	case CT_EV_MEMORY_MODULE: return e->validity & (1u << 0);
	default: return false;
	}
}

void ct_event_decode_fields(struct ct_event *e)
{
	uint64_t v;

	if (!e->event[0])
		bytes(e, "hdr_uuid", e->uuid, 16);
	e->kind = kind_of(e);
	str(e, "memdev", e->memdev, sizeof(e->memdev));
	if (!e->memdev[0])	/* port AER events name the port device */
		str(e, "device", e->memdev, sizeof(e->memdev));
	str(e, "host", e->host, sizeof(e->host));
	if ((e->has_serial = num(e, "serial", &v)))
		e->serial = v;
	if (num(e, "log", &v))
		e->log = (uint8_t)v;
	/* the common record header */
	if ((e->has_header = num(e, "hdr_flags", &v))) {
		e->flags = (uint32_t)v;
		bytes(e, "hdr_uuid", e->uuid, 16);
	}
	if (num(e, "hdr_handle", &v))
		e->handle = (uint16_t)v;
	if (num(e, "hdr_related_handle", &v))
		e->related_handle = (uint16_t)v;
	if (num(e, "hdr_length", &v))
		e->length = (uint8_t)v;
	if (num(e, "hdr_timestamp", &v))
		e->timestamp = v;
	if ((e->has_maint_op_class = num(e, "hdr_maint_op_class", &v)))
		e->maint_op_class = (uint8_t)v;
	if (num(e, "hdr_maint_op_sub_class", &v) && (e->flags & CT_EVENT_FLAG_MAINT_SUB_CLASS_VALID)) {
		e->has_maint_op_sub_class = true;
		e->maint_op_sub_class = (uint8_t)v;
	}
	switch (e->kind) {
	case CT_EV_GENERAL_MEDIA:
	case CT_EV_DRAM:
		decode_media(e);
		break;
	case CT_EV_MEMORY_MODULE:
		decode_module(e);
		break;
	case CT_EV_POISON:
		if (num(e, "dpa", &v))
			e->dpa = v;
		if (num(e, "dpa_length", &v))
			e->dpa_length = v;
		if (num(e, "trace_type", &v))
			e->trace_type = (uint8_t)v;
		if (num(e, "source", &v))
			e->source = (uint8_t)v;
		if (num(e, "flags", &v))
			e->poison_flags = (uint8_t)v;
		if (num(e, "overflow_ts", &v))
			e->overflow_ts = v;
		break;
	case CT_EV_OVERFLOW:
		if (num(e, "count", &v))
			e->count = v;
		if (num(e, "first_ts", &v))
			e->first_ts = v;
		if (num(e, "last_ts", &v))
			e->last_ts = v;
		break;
	case CT_EV_AER:
		e->uncorrectable = strstr(e->event, "uncorrectable") != NULL;
		if (num(e, "status", &v))
			e->status = (uint32_t)v;
		if (num(e, "first_error", &v))
			e->first_error = (uint32_t)v;
		break;
	case CT_EV_GENERIC:
		break;
	}
	e->has_comp_id = comp_id_valid(e) && bytes(e, "comp_id", e->comp_id, 16);
	if (num(e, "hpa", &v) && v != ~0ULL) {
		e->hpa = v;
		e->has_hpa = true;
	}
	if (num(e, "hpa_alias0", &v) && v != ~0ULL) {	/* ULLONG_MAX: no cache, or no region */
		e->hpa_alias = v;
		e->has_hpa_alias = true;
	}
	str(e, "region_name", e->region, sizeof(e->region));
	if (!e->region[0])
		str(e, "region", e->region, sizeof(e->region));
	/* the region's UUID: region_uuid (uuid_t), or poison's uuid (char[16]) */
	e->has_region_uuid = e->region[0] && (bytes(e, "region_uuid", e->region_uuid, 16) ||
					      bytes(e, "uuid", e->region_uuid, 16)) &&
			     !ct_uuid_is_null(e->region_uuid);
}

/*
 * The severity a record has, 0 informational ... 3 fatal:
 *  - device event log records: the log the kernel read them from (`log`), or
 *    in a raw record the severity bits [1:0] of the record flags;
 *  - an overflow: the log that overflowed;
 *  - AER, uncorrectable: fatal. The kernel detaches the memdev's driver and
 *    asks for a reset (cxl_error_detected()), the device's memory is gone
 *    until then; rasdaemon files it among uncorrected errors;
 *  - AER, correctable: informational (corrected: nothing was lost);
 *  - poison listed or injected: failure (the data at that address is lost,
 *    whatever the source: external, internal, injected or vendor); poison
 *    cleared: informational.
 * -1 when nothing says (a generic tracepoint without a log).
 */
int ct_event_severity(const struct ct_event *e)
{
	if (e->log <= 3)
		return e->log;
	if (e->has_header)
		return (int)(e->flags & 3);
	if (e->kind == CT_EV_AER)
		return e->uncorrectable ? 3 : 0;
	if (e->kind == CT_EV_POISON)
		return e->trace_type == 2 ? 0 : 2;	/* 2: cleared */
	return -1;
}

uint64_t ct_event_time(const struct ct_event *e)
{
	return e->timestamp ? e->timestamp : e->trace_time;
}

uint64_t ct_event_host_time(const struct ct_event *e)
{
	if (e->received_ns)
		return e->received_ns;
	return e->trace_time ? e->trace_time : e->timestamp;
}
