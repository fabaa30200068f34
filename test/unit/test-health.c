// SPDX-License-Identifier: GPL-2.0-only
/* Get Health Info / Get Alert Configuration payloads, Set Alert
 * Configuration settings and payload, mailbox return codes, event records */
#include <errno.h>
#include <stdio.h>
#include "tap.h"
#include "events/event.h"
#include "cxl/health.h"
#include "cxl/mbox.h"

static bool bytes_are(const uint8_t *got, const uint8_t *want, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (got[i] != want[i]) {
			fprintf(stderr, "#   byte %zu: got 0x%02x, expected 0x%02x\n", i, got[i], want[i]);
			return false;
		}
	return true;
}

/* Set Alert Configuration: what a user writes, the 12 bytes it becomes
 * (CXL 3.1 Table 8-131 as kernel-interfaces.md §2.6 lays it out), and
 * what the device's current configuration allows */
static void set_alert(void)
{
	struct ct_alert_set s;
	struct ct_alert_config cur = { 0 };
	uint8_t p[CT_SET_ALERT_LEN];
	char why[256];
	/* +0 valid, +1 enable, +2 life used, +3 reserved, +4 over (s16), +6 under (s16),
	 * +8 corrected volatile (u16), +10 corrected persistent (u16); little-endian */
	static const uint8_t all[12] = { 0x1f, 0x1f, 90, 0x00, 85, 0x00, 0xfb, 0xff, 100, 0x00, 0xff, 0xff };
	static const uint8_t off[12] = { 0x12, 0x02, 0, 0, 0x2c, 0x01, 0, 0, 0, 0, 0, 0 };
	static const uint8_t neg[12] = { 0x06, 0x06, 0, 0, 0x00, 0x80, 0xff, 0x7f, 0, 0, 0, 0 };

	is_int(ct_alert_set_parse("life-used=90,over-temperature=85,under-temperature=-5,volatile-mem-err=100,"
				  "pmem-err=65535", &s, why, sizeof(why)), 0, "every alert parses");
	ok(s.valid == 0x1f && s.enable == 0x1f, "all five valid and enabled");
	ct_alert_set_encode(&s, p);
	ok(bytes_are(p, all, 12), "payload byte by byte: masks, 90%%, 85 C, -5 C (0xfffb), 100, 65535");

	is_int(ct_alert_set_parse("over-temperature=off,over-temperature=1", &s, why, sizeof(why)), -EINVAL,
	       "a name twice is refused");
	is_int(ct_alert_set_parse("over-temperature=300,over-temperature=off", &s, why, sizeof(why)), -EINVAL, "twice, either order");
	is_int(ct_alert_set_parse("over-temperature=300,pmem-err=off", &s, why, sizeof(why)), 0, "one on, one off");
	ok(s.valid == 0x12 && s.enable == 0x02, "both valid, only over-temperature enabled");
	ct_alert_set_encode(&s, p);
	ok(bytes_are(p, off, 12), "payload: an alert turned off carries a zero threshold");
	is_int(ct_alert_set_parse("over-temperature=-32768,under-temperature=32767", &s, why, sizeof(why)), 0,
	       "the s16 extremes");
	ct_alert_set_encode(&s, p);
	ok(bytes_are(p, neg, 12), "payload: -32768 is 0x8000, 32767 is 0x7fff");

	is_int(ct_alert_set_parse("life-used=101", &s, why, sizeof(why)), -EINVAL, "life used above 100%%");
	is_str(why, "life-used=101: a whole number from 0 to 100, or off", "and why");
	is_int(ct_alert_set_parse("over-temperature=40000", &s, why, sizeof(why)), -EINVAL, "beyond s16");
	is_int(ct_alert_set_parse("volatile-mem-err=-1", &s, why, sizeof(why)), -EINVAL, "a negative count");
	is_int(ct_alert_set_parse("pmem-err=65536", &s, why, sizeof(why)), -EINVAL, "beyond u16");
	is_int(ct_alert_set_parse("life-used=9x", &s, why, sizeof(why)), -EINVAL, "not a number");
	is_int(ct_alert_set_parse("life-used=", &s, why, sizeof(why)), -EINVAL, "no value");
	is_int(ct_alert_set_parse("life-used", &s, why, sizeof(why)), -EINVAL, "no '='");
	is_int(ct_alert_set_parse("temperature=5", &s, why, sizeof(why)), -EINVAL, "an unknown name");
	ok(strstr(why, "life-used, over-temperature") != NULL, "the names are listed");
	is_int(ct_alert_set_parse("", &s, why, sizeof(why)), -EINVAL, "nothing given");
	is_int(ct_alert_set_parse(",,life-used=1,", &s, why, sizeof(why)), 0, "empty items are skipped");
	is_str(ct_alert_option_name(CT_ALERT_CORRECTED_PERSISTENT), "pmem-err", "ndctl's option names");

	/* what the device allows */
	cur.programmable = CT_ALERT_LIFE_USED | CT_ALERT_UNDER_TEMP;
	cur.life_used_critical = 95;
	cur.under_temp_critical = -10;
	ct_alert_set_parse("over-temperature=80", &s, why, sizeof(why));
	is_int(ct_alert_set_check(&s, &cur, why, sizeof(why)), -EOPNOTSUPP, "not programmable on the device");
	is_str(why, "the over-temperature warning alert is not programmable on this device", "and why");
	ct_alert_set_parse("life-used=95", &s, why, sizeof(why));
	is_int(ct_alert_set_check(&s, &cur, why, sizeof(why)), -EINVAL, "a warning at the critical threshold");
	ct_alert_set_parse("life-used=94,under-temperature=-9", &s, why, sizeof(why));
	is_int(ct_alert_set_check(&s, &cur, why, sizeof(why)), 0, "warnings short of the critical thresholds");
	ct_alert_set_parse("under-temperature=-10", &s, why, sizeof(why));
	is_int(ct_alert_set_check(&s, &cur, why, sizeof(why)), -EINVAL, "under-temperature at its critical one");
	ct_alert_set_parse("life-used=off", &s, why, sizeof(why));
	is_int(ct_alert_set_check(&s, &cur, why, sizeof(why)), 0, "turning off compares no threshold");
	cur.life_used_critical = 0;
	ct_alert_set_parse("life-used=100", &s, why, sizeof(why));
	is_int(ct_alert_set_check(&s, &cur, why, sizeof(why)), 0, "a critical threshold of 0 is not set");
	/* 0 C is a plausible under-temperature critical threshold: the device
	 * refuses a warning at or below it (Invalid Input), so cxltier says why first */
	cur.under_temp_critical = 0;
	ct_alert_set_parse("under-temperature=-5", &s, why, sizeof(why));
	is_int(ct_alert_set_check(&s, &cur, why, sizeof(why)), -EINVAL, "under-temperature below a critical 0 C");
	is_str(why, "under-temperature=-5: a warning must come before the device's critical threshold (0 C)", "and why");
	ct_alert_set_parse("under-temperature=1", &s, why, sizeof(why));
	is_int(ct_alert_set_check(&s, &cur, why, sizeof(why)), 0, "under-temperature above a critical 0 C");

	/* the device's verdict */
	is_int(ct_mbox_status_errno(0), 0, "success");
	is_int(ct_mbox_status_errno(2), EINVAL, "invalid input");
	is_int(ct_mbox_status_errno(3), EOPNOTSUPP, "unsupported");
	is_int(ct_mbox_status_errno(0x15), EOPNOTSUPP, "unsupported mailbox");
	is_int(ct_mbox_status_errno(6), EBUSY, "busy");
	is_int(ct_mbox_status_errno(0x11), EIO, "permanent media failure");
	is_str(ct_mbox_status_name(2), "invalid input", "return code names");
	is_str(ct_mbox_status_name(0x10), "inject poison limit reached", "0x10");
	is_str(ct_mbox_status_name(0x1e), "invalid extent list", "the last one CXL 3.1 defines");
	is_str(ct_mbox_status_name(0x1f), "reserved", "beyond");
}

/* a healthy device: 3% life used, 38 C, one dirty shutdown */
static const uint8_t normal[18] = { 0x00, 0x00, 0x00, 3, 38, 0, 1, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0 };
/* thresholds crossed: maintenance + hw replacement, life used critical,
 * temperature warning, both corrected counts warning, -5 C, 97 % */
static const uint8_t warned[18] = { 0x05, 0x06, 0x36, 97, 0xfb, 0xff, 0x10, 0x27, 0, 0, 0xff, 0xff, 0xff, 0xff,
				    1, 0, 0, 0 };
/* not implemented: life used 0xff, temperature 0xffff */
static const uint8_t absent[18] = { 0x08, 0x09, 0x00, 0xff, 0xff, 0xff, 0x78, 0x56, 0x34, 0x12, 0, 0, 0, 0, 0, 0, 0, 0 };
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
	is_int(h.dirty_shutdowns, 0x12345678, "dirty shutdowns: all 32 bits");
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
	set_alert();
	return tap_done();
}
