// SPDX-License-Identifier: LGPL-2.1-or-later
/* event-names.c - the names of the values and flag bits in CXL event records
 * (CXL 3.1 §8.2.9.2.1, CXL RAS capability §8.2.4.16), snake_case */
#include <string.h>
#include "events/event.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const char *pick(const char *const *names, size_t n, unsigned v, const char *other)
{
	return v < n && names[v] ? names[v] : other;
}

const char *ct_event_kind_name(enum ct_event_kind k)
{
	static const char *const n[] = { "general_media", "dram", "memory_module", "poison", "overflow", "aer", "generic" };
	return pick(n, N(n), k, "generic");
}

int ct_event_kind_parse(const char *s)
{
	for (int k = CT_EV_GENERAL_MEDIA; k <= CT_EV_GENERIC; k++)
		if (!strcmp(s, ct_event_kind_name((enum ct_event_kind)k)))
			return k;
	return -1;
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
	return pick(n, N(n), t, "reserved");
}

const char *ct_gm_event_type_name(uint8_t t)
{
	static const char *const n[] = { "ecc_error", "invalid_address", "data_path_error", "te_state_violation",
					 "scrub_media_ecc_error", "ap_cme_counter_expiration", "ckid_violation" };
	return pick(n, N(n), t, "reserved");
}

const char *ct_dram_event_type_name(uint8_t t)
{
	static const char *const n[] = { "ecc_error", "scrub_media_ecc_error", "invalid_address", "data_path_error",
					 "te_state_violation", "ap_cme_counter_expiration", "ckid_violation" };
	return pick(n, N(n), t, "reserved");
}

const char *ct_module_event_type_name(uint8_t t)
{
	static const char *const n[] = { "health_status_change", "media_status_change", "life_used_change",
					 "temperature_change", "data_path_error", "lsa_error",
					 "unrecoverable_sideband_bus_error", "memory_media_fru_error", "power_management_fault" };
	return pick(n, N(n), t, "reserved");
}

const char *ct_memory_event_sub_type_name(uint8_t t)
{
	static const char *const n[] = { "not_reported", "internal_datapath_error", "media_link_command_training_error",
					 "media_link_control_training_error", "media_link_data_training_error",
					 "media_link_crc_error" };
	return pick(n, N(n), t, "reserved");
}

const char *ct_module_event_sub_type_name(uint8_t t)
{
	static const char *const n[] = { "not_reported", "invalid_config_data", "unsupported_config_data",
					 "unsupported_memory_media_fru" };
	return pick(n, N(n), t, "reserved");
}

const char *ct_poison_trace_type_name(uint8_t t)
{
	static const char *const n[] = { "list", "inject", "clear" };
	return pick(n, N(n), t, "unknown");
}

const char *ct_poison_source_name(uint8_t s)
{
	static const char *const n[] = { "unknown", "external", "internal", "injected", NULL, NULL, NULL, "vendor" };
	return pick(n, N(n), s, "reserved");
}

/* record formats by UUID (CXL 3.1 Table 8-43), in uuid_t byte order */
static const struct {
	uint8_t uuid[16];
	const char *name;
} record_types[] = {
	{ { 0xfb, 0xcd, 0x0a, 0x77, 0xc2, 0x60, 0x41, 0x7f, 0x85, 0xa9, 0x08, 0x8b, 0x16, 0x21, 0xeb, 0xa6 }, "general_media" },
	{ { 0x60, 0x1d, 0xcb, 0xb3, 0x9c, 0x06, 0x4e, 0xab, 0xb8, 0xaf, 0x4e, 0x9b, 0xfb, 0x5c, 0x96, 0x24 }, "dram" },
	{ { 0xfe, 0x92, 0x74, 0x75, 0xdd, 0x59, 0x43, 0x39, 0xa5, 0x86, 0x79, 0xba, 0xb1, 0x13, 0xb7, 0x74 }, "memory_module" },
	{ { 0xe7, 0x1f, 0x3a, 0x40, 0x2d, 0x29, 0x40, 0x92, 0x8a, 0x39, 0x4d, 0x1c, 0x96, 0x6c, 0x7c, 0x65 }, "memory_sparing" },
	{ { 0x77, 0xcf, 0x92, 0x71, 0x9c, 0x02, 0x47, 0x0b, 0x9f, 0xe4, 0xbc, 0x7b, 0x75, 0xf2, 0xda, 0x97 }, "physical_switch" },
	{ { 0x40, 0xd2, 0x64, 0x25, 0x33, 0x96, 0x4c, 0x4d, 0xa5, 0xda, 0x3d, 0x47, 0x26, 0x3a, 0xf4, 0x25 }, "virtual_switch" },
	{ { 0x8d, 0xc4, 0x43, 0x63, 0x0c, 0x96, 0x47, 0x10, 0xb7, 0xbf, 0x04, 0xbb, 0x99, 0x53, 0x4c, 0x3f }, "mld_port" },
	{ { 0xca, 0x95, 0xaf, 0xa7, 0xf1, 0x83, 0x40, 0x18, 0x8c, 0x2f, 0x95, 0x26, 0x8e, 0x10, 0x1a, 0x2a }, "dynamic_capacity" },
};

const char *ct_record_type_name(const uint8_t uuid[16])
{
	for (size_t i = 0; i < N(record_types); i++)
		if (!memcmp(uuid, record_types[i].uuid, 16))
			return record_types[i].name;
	return NULL;
}

/* bit i of a flag word is named n[i]; NULL: reserved */
static const char *const header_bits[] = { NULL, NULL, "permanent_condition", "maintenance_needed",
					   "performance_degraded", "hardware_replacement_needed",
					   "maintenance_operation_sub_class_valid" };
static const char *const dpa_bits[] = { "volatile", "not_repairable" };
static const char *const descriptor_bits[] = { "uncorrectable", "threshold", "poison_list_overflow" };
static const char *const gm_valid_bits[] = { "channel", "rank", "device", "component_id", "component_id_format" };
static const char *const dram_valid_bits[] = { "channel", "rank", "nibble_mask", "bank_group", "bank", "row", "column",
					       "correction_mask", "component_id", "component_id_format", "sub_channel" };
static const char *const module_valid_bits[] = { "component_id", "component_id_format" };
static const char *const cme_bits[] = { "cme_in_multiple_media", "threshold_exceeded" };
static const char *const poison_bits[] = { "more", "overflow", "scanning" };
static const char *const aer_ue_bits[] = {
	"cache_data_parity", "cache_address_parity", "cache_byte_enable_parity", "cache_data_ecc",
	"memory_data_parity", "memory_address_parity", "memory_byte_enable_parity", "memory_data_ecc",
	"reinit_threshold", "received_unrecognized_encoding", "received_poison", "receiver_overflow",
	NULL, NULL, "component_specific", "ide_tx", "ide_rx",
};
static const char *const aer_ce_bits[] = { "cache_data_ecc", "memory_data_ecc", "crc_threshold", "retry_threshold",
					   "received_cache_poison", "received_memory_poison", "physical_layer" };
static const char *const pldm_bits[] = { "entity_id", "resource_id" };

size_t ct_flag_names(enum ct_flag_set set, uint64_t v, const char **out, size_t max)
{
	static const struct { const char *const *n; size_t count; } sets[] = {
		[CT_FLAGS_HEADER] = { header_bits, N(header_bits) },
		[CT_FLAGS_DPA] = { dpa_bits, N(dpa_bits) },
		[CT_FLAGS_DESCRIPTOR] = { descriptor_bits, N(descriptor_bits) },
		[CT_FLAGS_GM_VALID] = { gm_valid_bits, N(gm_valid_bits) },
		[CT_FLAGS_DRAM_VALID] = { dram_valid_bits, N(dram_valid_bits) },
		[CT_FLAGS_MODULE_VALID] = { module_valid_bits, N(module_valid_bits) },
		[CT_FLAGS_CME] = { cme_bits, N(cme_bits) },
		[CT_FLAGS_POISON] = { poison_bits, N(poison_bits) },
		[CT_FLAGS_AER_UE] = { aer_ue_bits, N(aer_ue_bits) },
		[CT_FLAGS_AER_CE] = { aer_ce_bits, N(aer_ce_bits) },
		[CT_FLAGS_PLDM] = { pldm_bits, N(pldm_bits) },
	};
	size_t k = 0;

	if ((size_t)set >= N(sets))
		return 0;
	for (size_t i = 0; i < sets[set].count && k < max; i++)
		if ((v & (1ULL << i)) && sets[set].n[i])
			out[k++] = sets[set].n[i];
	return k;
}

size_t ct_descriptor_names(uint8_t d, const char **out, size_t max)
{
	return ct_flag_names(CT_FLAGS_DESCRIPTOR, d, out, max);
}
