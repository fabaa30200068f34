// SPDX-License-Identifier: GPL-2.0-only
/* Get Health Info / Get Alert Configuration payloads and event records */
#include <errno.h>
#include <stdio.h>
#include "tap.h"
#include "event.h"
#include "health.h"

/* a healthy device: 3% life used, 38 C, one dirty shutdown */
static const uint8_t normal[18] = { 0x00, 0x00, 0x00, 3, 38, 0, 1, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0 };
/* thresholds crossed: maintenance + hw replacement, life used critical,
 * temperature warning, both corrected counts warning, -5 C, 97 % */
static const uint8_t warned[18] = { 0x05, 0x06, 0x36, 97, 0xfb, 0xff, 0x10, 0x27, 0, 0, 0xff, 0xff, 0xff, 0xff,
				    1, 0, 0, 0 };
/* not implemented: life used 0xff, temperature 0xffff */
static const uint8_t absent[18] = { 0x08, 0x09, 0x00, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
static const uint8_t alert[16] = { 0x1f, 0x0b, 95, 80, 0x55, 0x00, 0xf6, 0xff, 0x4b, 0x00, 0x00, 0x00, 0x10, 0x27, 0x64, 0x00 };

static void put_uuid(uint8_t *r, const char *hex)
{
	for (int i = 0; i < 16; i++) {
		unsigned v;
		sscanf(hex + 2 * i, "%2x", &v);
		r[i] = (uint8_t)v;
	}
}

int main(void)
{
	struct ct_health h;
	struct ct_alert_config a;
	struct ct_event e;
	uint8_t rec[128];

	is_int(ct_health_decode(normal, 18, &h), 0, "normal payload");
	ok(h.health_status == 0 && h.media_status == 0, "no status bits, media normal");
	ok(h.has_life_used && h.life_used == 3, "life used 3%%");
	ok(h.has_temperature && h.temperature == 38, "38 C");
	is_int(h.dirty_shutdowns, 1, "one dirty shutdown");
	is_int(h.corrected_volatile_errors, 7, "7 corrected volatile errors");

	is_int(ct_health_decode(warned, 18, &h), 0, "thresholds crossed");
	ok(h.health_status == (CT_HEALTH_MAINTENANCE_NEEDED | CT_HEALTH_HW_REPLACEMENT_NEEDED), "maintenance + hw replacement");
	is_str(ct_media_status_name(h.media_status), "write_persistency_loss_imminent", "media status 6");
	is_str(ct_level_name(h.life_used_state), "critical", "life used critical");
	is_str(ct_level_name(h.temperature_state), "warning", "temperature warning");
	ok(h.corrected_volatile_warning && h.corrected_persistent_warning, "both corrected counts warning");
	is_int(h.temperature, -5, "negative temperature, sign kept");
	is_int(h.life_used, 97, "97%%");
	is_int(h.dirty_shutdowns, 10000, "dirty shutdowns");
	is_int(h.corrected_volatile_errors, 0xffffffffu, "a full u32 counter");
	is_int(h.corrected_persistent_errors, 1, "corrected persistent");

	is_int(ct_health_decode(absent, 18, &h), 0, "fields not implemented");
	ok(!h.has_life_used && !h.has_temperature, "0xff and 0xffff: absent");
	ok(h.health_status == CT_HEALTH_CAPACITY_DEGRADED, "capacity degraded (CXL 3.1 bit)");
	is_str(ct_media_status_name(h.media_status), "all_data_loss_imminent", "media status 9");
	is_str(ct_media_status_name(10), "unknown", "media status 10 is unknown");
	is_int(ct_health_decode(normal, 17, &h), -EBADMSG, "a short payload is rejected");

	is_int(ct_alert_config_decode(alert, 16, &a), 0, "alert configuration");
	ok(a.valid == 0x1f && a.programmable == 0x0b, "valid and programmable masks");
	ok(a.life_used_critical == 95 && a.life_used_warning == 80, "life used thresholds");
	ok(a.over_temp_critical == 85 && a.under_temp_critical == -10, "temperature critical, signed");
	ok(a.over_temp_warning == 75 && a.under_temp_warning == 0, "temperature warning");
	ok(a.corrected_volatile_warning == 10000 && a.corrected_persistent_warning == 100, "error thresholds");
	is_int(ct_alert_config_decode(alert, 15, &a), -EBADMSG, "a short alert payload is rejected");

	/* a General Media record: uncorrectable ECC error on a host read */
	memset(rec, 0, sizeof(rec));
	put_uuid(rec, "fbcd0a77c260417f85a9088b1621eba6");
	rec[16] = 128;
	rec[17] = 0x02 | 0x04;		/* failure, permanent */
	rec[20] = 0x34; rec[21] = 0x12;	/* handle */
	rec[24] = 0x01;			/* timestamp */
	rec[48] = 0x01; rec[49] = 0x10;	/* DPA 0x1000 | volatile */
	rec[56] = 0x01;			/* uncorrectable */
	rec[57] = 0x00;			/* ECC error */
	rec[58] = 0x01;			/* host read */
	rec[59] = 0x05;			/* channel + device valid */
	rec[61] = 3; rec[63] = 9;
	is_int(ct_event_decode(rec, 128, &e), 0, "general media record");
	is_str(ct_event_kind_name(e.kind), "general_media", "kind from the UUID");
	ok(e.dpa == 0x1000 && (e.dpa_flags & 1), "DPA with the volatile flag split off");
	is_str(ct_severity_name(e.flags & 3), "failure", "severity from the flags");
	is_int(e.handle, 0x1234, "handle");
	is_str(ct_transaction_type_name(e.transaction_type), "host_read", "transaction type");
	is_str(ct_gm_event_type_name(e.type), "ecc_error", "memory event type");
	ok(e.channel == 3 && e.device == 9 && e.validity == 5, "channel, device, validity");

	/* DRAM */
	put_uuid(rec, "601dcbb39c064eabb8af4e9bfb5c9624");
	rec[57] = 3; rec[66] = 2; rec[67] = 3; rec[68] = 4; rec[71] = 5;
	is_int(ct_event_decode(rec, 128, &e), 0, "DRAM record");
	ok(e.kind == CT_EV_DRAM && e.bank_group == 2 && e.bank == 3 && e.row == 4 && e.column == 5, "DRAM geometry");
	is_str(ct_dram_event_type_name(e.type), "data_path_error", "DRAM event type 3");

	/* Memory Module: the health payload inside */
	put_uuid(rec, "fe927475dd594339a58679bab113b774");
	rec[48] = 3;
	memcpy(rec + 49, warned, 18);
	is_int(ct_event_decode(rec, 128, &e), 0, "memory module record");
	is_str(ct_module_event_type_name(e.device_event_type), "temperature_change", "device event type");
	ok(e.health.temperature == -5 && e.health.life_used == 97, "health inside the record");

	/* unknown UUID: kept as generic */
	put_uuid(rec, "00112233445566778899aabbccddeeff");
	is_int(ct_event_decode(rec, 128, &e), 0, "unknown record");
	ok(e.kind == CT_EV_GENERIC, "generic");
	rec[16] = 64;
	is_int(ct_event_decode(rec, 128, &e), -EBADMSG, "a record length other than 128 is rejected");
	is_int(ct_event_decode(rec, 100, &e), -EBADMSG, "a short record is rejected");
	is_int(ct_severity_parse("fatal"), 3, "severity names parse");
	is_int(ct_severity_parse("loud"), -1, "unknown severity");
	return tap_done();
}
