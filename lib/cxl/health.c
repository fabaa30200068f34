// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include "cxl/health.h"
#include "core/bytes.h"


int ct_health_decode(const uint8_t *p, size_t len, struct ct_health *h)
{
	uint16_t t;

	if (len < CT_HEALTH_LEN)
		return -EBADMSG;
	h->health_status = p[0];
	h->media_status = p[1];
	h->life_used_state = p[2] & 3;
	h->temperature_state = (p[2] >> 2) & 3;
	h->corrected_volatile_warning = p[2] & (1u << 4);
	h->corrected_persistent_warning = p[2] & (1u << 5);
	h->has_life_used = p[3] != 0xff;
	h->life_used = p[3];
	t = ct_le16(p + 4);
	h->has_temperature = t != 0xffff;
	h->temperature = (int16_t)t;
	h->dirty_shutdowns = ct_le32(p + 6);
	h->corrected_volatile_errors = ct_le32(p + 10);
	h->corrected_persistent_errors = ct_le32(p + 14);
	return 0;
}

int ct_alert_config_decode(const uint8_t *p, size_t len, struct ct_alert_config *a)
{
	if (len < CT_ALERT_LEN)
		return -EBADMSG;
	a->valid = p[0];
	a->programmable = p[1];
	a->life_used_critical = p[2];
	a->life_used_warning = p[3];
	a->over_temp_critical = (int16_t)ct_le16(p + 4);
	a->under_temp_critical = (int16_t)ct_le16(p + 6);
	a->over_temp_warning = (int16_t)ct_le16(p + 8);
	a->under_temp_warning = (int16_t)ct_le16(p + 10);
	a->corrected_volatile_warning = ct_le16(p + 12);
	a->corrected_persistent_warning = ct_le16(p + 14);
	return 0;
}

const char *ct_media_status_name(uint8_t s)
{
	static const char *const n[] = {
		"normal", "not_ready", "write_persistency_lost", "all_data_lost",
		"write_persistency_loss_on_power_loss", "write_persistency_loss_on_shutdown",
		"write_persistency_loss_imminent", "all_data_loss_on_power_loss",
		"all_data_loss_on_shutdown", "all_data_loss_imminent",
	};
	return s < sizeof(n) / sizeof(n[0]) ? n[s] : "unknown";
}

const char *ct_level_name(uint8_t s)
{
	static const char *const n[] = { "normal", "warning", "critical", "reserved" };
	return n[s & 3];
}
