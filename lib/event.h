/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * event.h - CXL event records (CXL 3.1 §8.2.9.2.1): General Media, DRAM,
 * Memory Module, and the rest kept raw. The same decoded form is filled from
 * 128-byte mailbox records (Get Event Records) and from the kernel's
 * tracepoints (cxl:cxl_general_media, ...), which carry the same fields.
 */
#ifndef CXLTIER_EVENT_H
#define CXLTIER_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "health.h"

#define CT_EVENT_RECORD_LEN 128

enum ct_event_kind {
	CT_EV_GENERAL_MEDIA,
	CT_EV_DRAM,
	CT_EV_MEMORY_MODULE,
	CT_EV_POISON,		/* tracepoint only */
	CT_EV_OVERFLOW,		/* tracepoint only */
	CT_EV_AER,		/* tracepoint only */
	CT_EV_GENERIC,		/* an unknown record format */
};

struct ct_event {
	enum ct_event_kind kind;
	uint8_t uuid[16];
	uint32_t flags;			/* record flags: severity in [1:0] */
	uint16_t handle, related_handle;
	uint64_t timestamp;		/* ns since 1970 (device clock set by the host) */
	uint8_t log;			/* 0 informational ... 3 fatal; 0xff unknown */
	/* media (General Media, DRAM) */
	uint64_t dpa;			/* bits [63:6] of the physical address field */
	uint8_t dpa_flags;		/* bit0 volatile, bit1 not repairable */
	uint8_t descriptor, type, transaction_type;
	uint16_t validity;
	uint8_t channel, rank;
	uint32_t device, nibble_mask, row;
	uint8_t bank_group, bank;
	uint16_t column;
	/* Memory Module */
	uint8_t device_event_type;
	struct ct_health health;
	/* filled by the kernel (tracepoints), when the DPA maps into a region */
	bool has_hpa;
	uint64_t hpa;
	char region[32];
	char memdev[32];
	uint64_t serial;
	bool has_serial;
};

/* 0, or -EBADMSG (short, or a length field other than 128) */
int ct_event_decode(const uint8_t *rec, size_t len, struct ct_event *e);

const char *ct_event_kind_name(enum ct_event_kind k);	/* "general_media", ... */
const char *ct_severity_name(uint8_t sev);		/* "informational", "warning", "failure", "fatal" */
int ct_severity_parse(const char *s);			/* -1 when unknown */
const char *ct_transaction_type_name(uint8_t t);
const char *ct_gm_event_type_name(uint8_t t);		/* General Media memory event type */
const char *ct_dram_event_type_name(uint8_t t);
const char *ct_module_event_type_name(uint8_t t);
/* descriptor bits as names: "uncorrectable", "threshold", "poison_list_overflow" */
size_t ct_descriptor_names(uint8_t d, const char **out, size_t max);

#endif
