// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target: `health --file F --alert-file A` decodes an 18-byte Get
 * Health Info payload and a 16-byte Get Alert Configuration payload.
 * Input: one byte N, N bytes of health payload, the rest the alert payload.
 * Each part goes to its decoder in a buffer of exactly its length, so
 * reading past it is caught. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cxl/health.h"

static uint8_t *dup_exact(const uint8_t *p, size_t n)
{
	uint8_t *b = malloc(n ? n : 1);

	if (b && n)
		memcpy(b, p, n);
	return b;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t hlen = size ? data[0] : 0, alen;
	uint8_t *h, *a;
	struct ct_health hi;
	struct ct_alert_config ac;
	int rh, ra;

	if (size)
		data++, size--;
	if (hlen > size)
		hlen = size;
	alen = size - hlen;
	h = dup_exact(data, hlen);
	a = dup_exact(data + hlen, alen);
	if (!h || !a)
		goto out;
	rh = ct_health_decode(h, hlen, &hi);
	ra = ct_alert_config_decode(a, alen, &ac);
	if ((rh == 0) != (hlen >= CT_HEALTH_LEN) || (ra == 0) != (alen >= CT_ALERT_LEN))
		abort();
	if (rh == 0 && (hi.life_used_state > 3 || hi.temperature_state > 3 || hi.has_life_used != (hi.life_used != 0xff) ||
			!ct_media_status_name(hi.media_status) || !ct_level_name(hi.life_used_state) ||
			!ct_level_name(hi.temperature_state)))
		abort();
out:
	free(h);
	free(a);
	return 0;
}
