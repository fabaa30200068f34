// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <string.h>
#include "event.h"

static uint16_t le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t le24(const uint8_t *p) { return p[0] | p[1] << 8 | (uint32_t)p[2] << 16; }
static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* the UUIDs as they lie in the record (uuid_t byte order) */
static const uint8_t uuid_gm[16] = { 0xfb, 0xcd, 0x0a, 0x77, 0xc2, 0x60, 0x41, 0x7f,
				     0x85, 0xa9, 0x08, 0x8b, 0x16, 0x21, 0xeb, 0xa6 };
static const uint8_t uuid_dram[16] = { 0x60, 0x1d, 0xcb, 0xb3, 0x9c, 0x06, 0x4e, 0xab,
				       0xb8, 0xaf, 0x4e, 0x9b, 0xfb, 0x5c, 0x96, 0x24 };
static const uint8_t uuid_mm[16] = { 0xfe, 0x92, 0x74, 0x75, 0xdd, 0x59, 0x43, 0x39,
				     0xa5, 0x86, 0x79, 0xba, 0xb1, 0x13, 0xb7, 0x74 };

int ct_event_decode(const uint8_t *r, size_t len, struct ct_event *e)
{
	memset(e, 0, sizeof(*e));
	e->log = 0xff;
	if (len < CT_EVENT_RECORD_LEN || r[16] != CT_EVENT_RECORD_LEN)
		return -EBADMSG;
	memcpy(e->uuid, r, 16);
	e->flags = le24(r + 17);
	e->handle = le16(r + 20);
	e->related_handle = le16(r + 22);
	e->timestamp = le64(r + 24);
	if (!memcmp(r, uuid_gm, 16) || !memcmp(r, uuid_dram, 16)) {
		bool dram = !memcmp(r, uuid_dram, 16);
		uint64_t pa = le64(r + 48);
		e->kind = dram ? CT_EV_DRAM : CT_EV_GENERAL_MEDIA;
		e->dpa = pa & ~0x3fULL;
		e->dpa_flags = pa & 0x3f;
		e->descriptor = r[56];
		e->type = r[57];
		e->transaction_type = r[58];
		e->validity = le16(r + 59);
		e->channel = r[61];
		e->rank = r[62];
		if (dram) {
			e->nibble_mask = le24(r + 63);
			e->bank_group = r[66];
			e->bank = r[67];
			e->row = le24(r + 68);
			e->column = le16(r + 71);
		} else {
			e->device = le24(r + 63);
		}
	} else if (!memcmp(r, uuid_mm, 16)) {
		e->kind = CT_EV_MEMORY_MODULE;
		e->device_event_type = r[48];
		ct_health_decode(r + 49, CT_HEALTH_LEN, &e->health);
	} else {
		e->kind = CT_EV_GENERIC;
	}
	return 0;
}

const char *ct_event_kind_name(enum ct_event_kind k)
{
	static const char *const n[] = { "general_media", "dram", "memory_module", "poison", "overflow", "aer", "generic" };
	return k <= CT_EV_GENERIC ? n[k] : "generic";
}

const char *ct_severity_name(uint8_t s)
{
	static const char *const n[] = { "informational", "warning", "failure", "fatal" };
	return n[s & 3];
}

int ct_severity_parse(const char *s)
{
	for (int i = 0; i < 4; i++)
		if (!strcmp(s, ct_severity_name((uint8_t)i)))
			return i;
	if (!strcmp(s, "info"))
		return 0;
	if (!strcmp(s, "warn"))
		return 1;
	return -1;
}

const char *ct_transaction_type_name(uint8_t t)
{
	static const char *const n[] = { "unknown", "host_read", "host_write", "host_scan_media", "host_inject_poison",
					 "internal_media_scrub", "internal_media_management", "internal_media_ecs",
					 "media_initialization" };
	return t < sizeof(n) / sizeof(n[0]) ? n[t] : "reserved";
}

const char *ct_gm_event_type_name(uint8_t t)
{
	static const char *const n[] = { "ecc_error", "invalid_address", "data_path_error", "te_state_violation",
					 "scrub_media_ecc_error", "ap_cme_counter_expiration", "ckid_violation" };
	return t < sizeof(n) / sizeof(n[0]) ? n[t] : "reserved";
}

const char *ct_dram_event_type_name(uint8_t t)
{
	static const char *const n[] = { "ecc_error", "scrub_media_ecc_error", "invalid_address", "data_path_error",
					 "te_state_violation", "ap_cme_counter_expiration", "ckid_violation" };
	return t < sizeof(n) / sizeof(n[0]) ? n[t] : "reserved";
}

const char *ct_module_event_type_name(uint8_t t)
{
	static const char *const n[] = { "health_status_change", "media_status_change", "life_used_change",
					 "temperature_change", "data_path_error", "lsa_error",
					 "unrecoverable_sideband_bus_error", "memory_media_fru_error", "power_management_fault" };
	return t < sizeof(n) / sizeof(n[0]) ? n[t] : "reserved";
}

size_t ct_descriptor_names(uint8_t d, const char **out, size_t max)
{
	static const char *const n[] = { "uncorrectable", "threshold", "poison_list_overflow" };
	size_t k = 0;

	for (unsigned i = 0; i < 3 && k < max; i++)
		if (d & (1u << i))
			out[k++] = n[i];
	return k;
}
