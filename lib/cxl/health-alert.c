// SPDX-License-Identifier: LGPL-2.1-or-later
/* health-alert.c - Set Alert Configuration, pure: the settings a user
 * writes, the payload they become, and whether the device will take them
 * (CXL 3.1 §8.2.9.9.3.3) */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cxl/health.h"
#include "core/bytes.h"

static const struct {
	unsigned bit;
	const char *name;
	long min, max;
} alerts[] = {
	{ CT_ALERT_LIFE_USED, "life-used", 0, 100 },			/* percent */
	{ CT_ALERT_OVER_TEMP, "over-temperature", INT16_MIN, INT16_MAX },	/* degrees C, s16 */
	{ CT_ALERT_UNDER_TEMP, "under-temperature", INT16_MIN, INT16_MAX },
	{ CT_ALERT_CORRECTED_VOLATILE, "volatile-mem-err", 0, UINT16_MAX },	/* errors, u16 */
	{ CT_ALERT_CORRECTED_PERSISTENT, "pmem-err", 0, UINT16_MAX },
};
#define NALERTS (sizeof(alerts) / sizeof(alerts[0]))

const char *ct_alert_option_name(unsigned bit)
{
	for (size_t i = 0; i < NALERTS; i++)
		if (alerts[i].bit == bit)
			return alerts[i].name;
	return NULL;
}

static void set_value(struct ct_alert_set *s, unsigned bit, long v)
{
	switch (bit) {
	case CT_ALERT_LIFE_USED: s->life_used_warning = (uint8_t)v; break;
	case CT_ALERT_OVER_TEMP: s->over_temp_warning = (int16_t)v; break;
	case CT_ALERT_UNDER_TEMP: s->under_temp_warning = (int16_t)v; break;
	case CT_ALERT_CORRECTED_VOLATILE: s->corrected_volatile_warning = (uint16_t)v; break;
	case CT_ALERT_CORRECTED_PERSISTENT: s->corrected_persistent_warning = (uint16_t)v; break;
	}
}

static int one(const char *item, size_t n, struct ct_alert_set *s, char *why, size_t len)
{
	const char *eq = memchr(item, '=', n);
	char val[32], *end;
	size_t k;
	long v;

	if (!eq || eq == item) {
		snprintf(why, len, "'%.*s': NAME=VALUE or NAME=off expected", (int)n, item);
		return -EINVAL;
	}
	for (k = 0; k < NALERTS; k++)
		if (strlen(alerts[k].name) == (size_t)(eq - item) && !strncmp(item, alerts[k].name, (size_t)(eq - item)))
			break;
	if (k == NALERTS) {
		snprintf(why, len, "'%.*s' is not an alert: life-used, over-temperature, under-temperature, "
			 "volatile-mem-err, pmem-err", (int)(eq - item), item);
		return -EINVAL;
	}
	if (s->valid & alerts[k].bit) {
		snprintf(why, len, "%s is given twice", alerts[k].name);
		return -EINVAL;
	}
	n -= (size_t)(eq + 1 - item);
	if (!n || n >= sizeof(val)) {
		snprintf(why, len, "%s: a value or 'off' is needed", alerts[k].name);
		return -EINVAL;
	}
	memcpy(val, eq + 1, n);
	val[n] = '\0';
	s->valid |= (uint8_t)alerts[k].bit;
	if (!strcmp(val, "off"))
		return 0;
	errno = 0;
	v = strtol(val, &end, 10);
	if (errno || *end || end == val || v < alerts[k].min || v > alerts[k].max) {
		snprintf(why, len, "%s=%s: a whole number from %ld to %ld, or off", alerts[k].name, val,
			 alerts[k].min, alerts[k].max);
		return -EINVAL;
	}
	s->enable |= (uint8_t)alerts[k].bit;
	set_value(s, alerts[k].bit, v);
	return 0;
}

int ct_alert_set_parse(const char *spec, struct ct_alert_set *s, char *why, size_t len)
{
	const char *p = spec;
	int rc;

	memset(s, 0, sizeof(*s));
	why[0] = '\0';
	while (*p) {
		size_t n = strcspn(p, ",");
		if (n && (rc = one(p, n, s, why, len)))
			return rc;
		p += n + (p[n] == ',');
	}
	if (!s->valid) {
		snprintf(why, len, "no alert given: NAME=VALUE,... (life-used, over-temperature, under-temperature, "
			 "volatile-mem-err, pmem-err)");
		return -EINVAL;
	}
	return 0;
}

void ct_alert_set_encode(const struct ct_alert_set *s, uint8_t out[CT_SET_ALERT_LEN])
{
	memset(out, 0, CT_SET_ALERT_LEN);
	out[0] = s->valid;
	out[1] = s->enable;
	out[2] = s->life_used_warning;
	ct_put_le16(out + 4, (uint16_t)s->over_temp_warning);
	ct_put_le16(out + 6, (uint16_t)s->under_temp_warning);
	ct_put_le16(out + 8, s->corrected_volatile_warning);
	ct_put_le16(out + 10, s->corrected_persistent_warning);
}

int ct_alert_set_check(const struct ct_alert_set *s, const struct ct_alert_config *cur, char *why, size_t len)
{
	for (size_t k = 0; k < NALERTS; k++)
		if ((s->valid & alerts[k].bit) && !(cur->programmable & alerts[k].bit)) {
			snprintf(why, len, "the %s warning alert is not programmable on this device", alerts[k].name);
			return -EOPNOTSUPP;
		}
	if ((s->enable & CT_ALERT_LIFE_USED) && cur->life_used_critical &&
	    s->life_used_warning >= cur->life_used_critical) {
		snprintf(why, len, "life-used=%u: a warning must come before the device's critical threshold (%u%%)",
			 s->life_used_warning, cur->life_used_critical);
		return -EINVAL;
	}
	if ((s->enable & CT_ALERT_OVER_TEMP) && cur->over_temp_critical &&
	    s->over_temp_warning >= cur->over_temp_critical) {
		snprintf(why, len, "over-temperature=%d: a warning must come before the device's critical threshold (%d C)",
			 s->over_temp_warning, cur->over_temp_critical);
		return -EINVAL;
	}
	/* 0 C is a real under-temperature threshold, and the device compares
	 * against whatever it holds */
	if ((s->enable & CT_ALERT_UNDER_TEMP) && s->under_temp_warning <= cur->under_temp_critical) {
		snprintf(why, len, "under-temperature=%d: a warning must come before the device's critical threshold (%d C)",
			 s->under_temp_warning, cur->under_temp_critical);
		return -EINVAL;
	}
	return 0;
}
