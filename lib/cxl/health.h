/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * health.h - CXL device health: Get Health Info (opcode 0x4200, 18 bytes)
 * and Get Alert Configuration (0x4201, 16 bytes), CXL 3.1 §8.2.9.9.3.
 * Decoded from the payload bytes, whoever got them: a live device through
 * libcxl, a captured payload, a Memory Module event record.
 */
#ifndef CXLTIER_HEALTH_H
#define CXLTIER_HEALTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CT_HEALTH_LEN 18
#define CT_ALERT_LEN 16

/* health status bits */
#define CT_HEALTH_MAINTENANCE_NEEDED (1u << 0)
#define CT_HEALTH_PERFORMANCE_DEGRADED (1u << 1)
#define CT_HEALTH_HW_REPLACEMENT_NEEDED (1u << 2)
#define CT_HEALTH_CAPACITY_DEGRADED (1u << 3)

struct ct_health {
	uint8_t health_status;		/* bits above */
	uint8_t media_status;		/* 0 normal ... 9 all data loss imminent */
	uint8_t life_used_state;	/* additional status: 0 normal, 1 warning, 2 critical */
	uint8_t temperature_state;	/* same */
	bool corrected_volatile_warning, corrected_persistent_warning;
	bool has_life_used, has_temperature;
	uint8_t life_used;		/* percent */
	int16_t temperature;		/* degrees C, signed */
	uint32_t dirty_shutdowns, corrected_volatile_errors, corrected_persistent_errors;
};

/* alert bits (valid and programmable masks) */
#define CT_ALERT_LIFE_USED (1u << 0)
#define CT_ALERT_OVER_TEMP (1u << 1)
#define CT_ALERT_UNDER_TEMP (1u << 2)
#define CT_ALERT_CORRECTED_VOLATILE (1u << 3)
#define CT_ALERT_CORRECTED_PERSISTENT (1u << 4)

struct ct_alert_config {
	uint8_t valid, programmable;
	uint8_t life_used_critical, life_used_warning;
	int16_t over_temp_critical, under_temp_critical, over_temp_warning, under_temp_warning;
	uint16_t corrected_volatile_warning, corrected_persistent_warning;
};

/*
 * Set Alert Configuration (0x4202), 12 bytes in: which programmable warning
 * alerts this request changes (valid), which of those it turns on (enable),
 * and their thresholds. An alert left out of valid keeps what the device has.
 *   +0 valid alert actions (CT_ALERT_* bits)   +1 enable alert actions
 *   +2 life used warning threshold (%)         +3 reserved
 *   +4 over-temperature warning (C, s16)       +6 under-temperature warning (C, s16)
 *   +8 corrected volatile errors warning (u16) +10 corrected persistent errors warning (u16)
 */
#define CT_SET_ALERT_LEN 12
struct ct_alert_set {
	uint8_t valid, enable;
	uint8_t life_used_warning;
	int16_t over_temp_warning, under_temp_warning;
	uint16_t corrected_volatile_warning, corrected_persistent_warning;
};

/* the names of the alerts, as ndctl's cxl set-alert-config options:
 * life-used, over-temperature, under-temperature, volatile-mem-err, pmem-err */
const char *ct_alert_option_name(unsigned bit);
/* "life-used=90,over-temperature=85,pmem-err=off": NAME=VALUE sets the
 * warning threshold and turns the alert on, NAME=off turns it off. 0, or
 * -EINVAL with why (an unknown name, a value out of the field's range, a
 * name twice) */
int ct_alert_set_parse(const char *spec, struct ct_alert_set *s, char *why, size_t len);
/* the 12-byte payload, little-endian as the spec lays it out */
void ct_alert_set_encode(const struct ct_alert_set *s, uint8_t out[CT_SET_ALERT_LEN]);
/* will the device take it: every alert changed is programmable on it
 * (-EOPNOTSUPP), and an enabled warning threshold is short of the critical
 * one the device set (-EINVAL: life used and over-temperature below it,
 * under-temperature above it; a life used or over-temperature critical
 * threshold of 0 is taken as not set, an under-temperature one of 0 C is a
 * threshold) */
int ct_alert_set_check(const struct ct_alert_set *s, const struct ct_alert_config *cur, char *why, size_t len);

/* 0, or -EBADMSG when len is short */
int ct_health_decode(const uint8_t *p, size_t len, struct ct_health *h);
int ct_alert_config_decode(const uint8_t *p, size_t len, struct ct_alert_config *a);
const char *ct_media_status_name(uint8_t s);	/* "normal", ... "unknown" */
const char *ct_level_name(uint8_t s);		/* "normal", "warning", "critical", "reserved" */

#endif
