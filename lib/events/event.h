/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * event.h - CXL event records, decoded. One record is a list of named,
 * typed fields (the kernel's tracepoint fields under the kernel's names, or
 * the same names filled from a 128-byte Get Event Records record, CXL 3.1
 * §8.2.9.2.1) and the decoded view built from those fields: General Media,
 * DRAM, Memory Module, poison, overflow, AER and generic records.
 *
 * A struct ct_event owns no heap memory: the fields' names and values live
 * in its own store (offsets, so the struct may be copied).
 */
#ifndef CXLTIER_EVENT_H
#define CXLTIER_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cxl/health.h"

#define CT_EVENT_RECORD_LEN 128
#define CT_EVENT_MAX_FIELDS 64
#define CT_EVENT_STORE 4096
#define CT_EVENT_IDENTITY_MAX 128

enum ct_event_kind {
	CT_EV_GENERAL_MEDIA,
	CT_EV_DRAM,
	CT_EV_MEMORY_MODULE,
	CT_EV_POISON,		/* tracepoint only */
	CT_EV_OVERFLOW,		/* tracepoint only */
	CT_EV_AER,		/* tracepoint only */
	CT_EV_GENERIC,		/* a record of another (or unknown) format */
};

enum ct_field_type {
	CT_FIELD_UINT,		/* u: unsigned integer */
	CT_FIELD_INT,		/* i: signed integer */
	CT_FIELD_STRING,	/* text */
	CT_FIELD_UUID,		/* 16 bytes (uuid_t byte order); text "xxxxxxxx-xxxx-..." */
	CT_FIELD_BYTES,		/* byte array (u8[N], binary char[N]) */
	CT_FIELD_UINT_ARRAY,	/* array of unsigned integers of elem bytes each (u32 header_log[128]) */
};

struct ct_event_field {
	enum ct_field_type type;
	uint16_t name;		/* offset of the name in the store */
	uint16_t data;		/* offset of the text / bytes in the store */
	uint16_t len;		/* bytes at data (text: without the NUL) */
	uint16_t elem;		/* UINT_ARRAY: bytes per element */
	uint64_t u;
	int64_t i;
};

/* the bits of the common record header's flags (CXL 3.1 Table 8-42) */
#define CT_EVENT_FLAG_PERMANENT (1u << 2)
#define CT_EVENT_FLAG_MAINT_NEEDED (1u << 3)
#define CT_EVENT_FLAG_PERF_DEGRADED (1u << 4)
#define CT_EVENT_FLAG_HW_REPLACE (1u << 5)
#define CT_EVENT_FLAG_MAINT_SUB_CLASS_VALID (1u << 6)

struct ct_event {
	enum ct_event_kind kind;
	char event[48];			/* the tracepoint ("cxl_dram"); "" for a raw record */
	char memdev[32];		/* the memdev (or port device of a port AER event) */
	char host[64];			/* its parent device (PCI address) */
	uint64_t serial;
	bool has_serial;
	uint8_t log;			/* the log it came from: 0 informational ... 3 fatal; 0xff unknown */

	/* common record header (General Media, DRAM, Memory Module, generic) */
	bool has_header;
	uint8_t uuid[16];
	uint32_t flags;			/* record flags: severity in [1:0], CT_EVENT_FLAG_* */
	uint16_t handle, related_handle;
	uint8_t length;
	uint64_t timestamp;		/* ns since 1970 (device clock set by the host); 0 none */
	uint8_t maint_op_class, maint_op_sub_class;
	bool has_maint_op_class, has_maint_op_sub_class;

	/* media (General Media, DRAM) */
	uint64_t dpa;			/* bits [63:6] of the physical address field */
	uint8_t dpa_flags;		/* bit0 volatile, bit1 not repairable */
	uint8_t descriptor, type, transaction_type;
	uint16_t validity;
	uint8_t channel, rank;
	uint32_t device, nibble_mask, row;
	uint8_t bank_group, bank;
	uint16_t column;
	uint8_t sub_channel;
	uint64_t correction_mask[4];
	bool has_sub_type, has_cme;	/* fields of CXL 3.1 the kernel may not carry */
	uint8_t sub_type, cme_flags;
	uint32_t cme_count;		/* General Media cme_count, DRAM cvme_count */
	bool has_comp_id;
	uint8_t comp_id[16];

	/* Memory Module */
	uint8_t device_event_type, device_event_sub_type;
	bool has_device_event_sub_type;
	struct ct_health health;

	/* filled by the kernel (tracepoints) when the DPA maps into a region */
	bool has_hpa;
	uint64_t hpa;
	bool has_hpa_alias;	/* hpa_alias0 (6.15+): with an extended linear cache, the */
	uint64_t hpa_alias;	/* same memory's address in the cache's alias range */
	char region[32];
	bool has_region_uuid;
	uint8_t region_uuid[16];

	/* poison */
	uint8_t trace_type, source, poison_flags;
	uint64_t dpa_length, overflow_ts;

	/* overflow */
	uint64_t count, first_ts, last_ts;

	/* AER (CXL RAS capability) */
	bool uncorrectable;
	uint32_t status, first_error;

	/* when the kernel emitted it: ns since 1970 from the trace clock; 0 unknown */
	uint64_t trace_time;

	/* what the event store says of a record it holds (events/event-store.h) */
	uint64_t received_ns;		/* the host's time it counts it by; 0: not read from the store */
	char identity[CT_EVENT_IDENTITY_MAX];	/* the device as the store tells it from others */

	/* every field, in the order the source gave them */
	size_t nfields;
	struct ct_event_field fields[CT_EVENT_MAX_FIELDS];
	bool truncated;			/* fields that did not fit were left out */
	size_t used;
	char store[CT_EVENT_STORE];
};

/* ---- building an event from fields (sources use these) ---- */

void ct_event_init(struct ct_event *e, const char *event_name);
/* add a field; NULL when it does not fit (e->truncated is set) */
struct ct_event_field *ct_event_add_uint(struct ct_event *e, const char *name, uint64_t v);
struct ct_event_field *ct_event_add_int(struct ct_event *e, const char *name, int64_t v);
struct ct_event_field *ct_event_add_string(struct ct_event *e, const char *name, const char *s, size_t len);
struct ct_event_field *ct_event_add_bytes(struct ct_event *e, const char *name, enum ct_field_type type,
					  const void *p, size_t len, unsigned elem);
/* fill the decoded view from the fields (kind from the tracepoint name, or
 * from the record UUID when there is none) */
void ct_event_decode_fields(struct ct_event *e);

/* a 128-byte record (Get Event Records) into the fields the kernel's
 * tracepoint for it carries, under the same names, then decoded: 0, or
 * -EBADMSG (short, or a length field other than 128) */
int ct_event_decode(const uint8_t *rec, size_t len, struct ct_event *e);

/* ---- reading fields ---- */

const struct ct_event_field *ct_event_field(const struct ct_event *e, const char *name);
const char *ct_event_field_name(const struct ct_event *e, const struct ct_event_field *f);
/* STRING: the text; BYTES/UUID/UINT_ARRAY: the raw bytes */
const void *ct_event_field_data(const struct ct_event *e, const struct ct_event_field *f);
/* UINT_ARRAY element */
uint64_t ct_event_field_elem(const struct ct_event *e, const struct ct_event_field *f, size_t i);
/* "fbcd0a77-c260-417f-85a9-088b1621eba6" (37 bytes with the NUL) */
void ct_uuid_text(const uint8_t uuid[16], char *buf, size_t len);
bool ct_uuid_is_null(const uint8_t uuid[16]);

/* ---- what it means ---- */

/* the severity this record really has, 0 informational ... 3 fatal, or -1
 * when nothing says (see ct_event_severity's comment in event.c) */
int ct_event_severity(const struct ct_event *e);
/* the device's timestamp when it has one, else when the kernel emitted it
 * (ns since 1970; 0 when neither is known) */
uint64_t ct_event_time(const struct ct_event *e);
/* the host's time of a record, which every window and bound counts by: the
 * store's when it was read from there, else when the kernel emitted it (the
 * host received it), else (a record of a file) the device's time */
uint64_t ct_event_host_time(const struct ct_event *e);

const char *ct_event_kind_name(enum ct_event_kind k);	/* "general_media", ... */
int ct_event_kind_parse(const char *s);			/* -1 when unknown */
const char *ct_severity_name(uint8_t sev);		/* "informational", "warning", "failure", "fatal" */
int ct_severity_parse(const char *s);			/* -1 when unknown */
const char *ct_transaction_type_name(uint8_t t);
const char *ct_gm_event_type_name(uint8_t t);		/* General Media memory event type */
const char *ct_dram_event_type_name(uint8_t t);
const char *ct_module_event_type_name(uint8_t t);
const char *ct_memory_event_sub_type_name(uint8_t t);	/* General Media and DRAM (CXL 3.1) */
const char *ct_module_event_sub_type_name(uint8_t t);	/* Memory Module (CXL 3.1) */
const char *ct_poison_trace_type_name(uint8_t t);	/* "list", "inject", "clear" */
const char *ct_poison_source_name(uint8_t s);		/* "unknown", "external", "internal", "injected", "vendor" */
/* the record format a record UUID names ("dynamic_capacity", ...), NULL unknown */
const char *ct_record_type_name(const uint8_t uuid[16]);

/* flag words decoded to names */
enum ct_flag_set {
	CT_FLAGS_HEADER,	/* record flags [23:2] */
	CT_FLAGS_DPA,		/* volatile, not_repairable */
	CT_FLAGS_DESCRIPTOR,	/* uncorrectable, threshold, poison_list_overflow */
	CT_FLAGS_GM_VALID,	/* General Media validity flags */
	CT_FLAGS_DRAM_VALID,
	CT_FLAGS_MODULE_VALID,
	CT_FLAGS_CME,		/* CME threshold event flags */
	CT_FLAGS_POISON,	/* more, overflow, scanning */
	CT_FLAGS_AER_UE,	/* uncorrectable error status */
	CT_FLAGS_AER_CE,	/* correctable error status */
	CT_FLAGS_PLDM,		/* component id byte 0: entity_id, resource_id */
};
size_t ct_flag_names(enum ct_flag_set set, uint64_t v, const char **out, size_t max);
/* kept for callers of the descriptor alone */
size_t ct_descriptor_names(uint8_t d, const char **out, size_t max);

#endif
