// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target: `events --file` decodes a file of 128-byte event records
 * (Get Event Records payloads). Each record goes to the decoder in a buffer
 * of exactly its length, so reading past it is caught; every name the
 * decoded fields select must exist. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "events/event.h"

static void names(const struct ct_event *e)
{
	const char *d[8];

	if (!ct_event_kind_name(e->kind) || !ct_severity_name((uint8_t)e->flags) ||
	    !ct_transaction_type_name(e->transaction_type) || !ct_gm_event_type_name(e->type) ||
	    !ct_dram_event_type_name(e->type) || !ct_module_event_type_name(e->device_event_type) ||
	    !ct_media_status_name(e->health.media_status) || !ct_level_name(e->health.life_used_state) ||
	    !ct_level_name(e->health.temperature_state))
		abort();
	if (ct_descriptor_names(e->descriptor, d, 8) > 3 || ct_descriptor_names(e->descriptor, d, 1) > 1)
		abort();
	if (ct_severity_parse(ct_severity_name((uint8_t)e->flags)) != (int)(e->flags & 3))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t off = 0;

	do {
		size_t n = size - off < CT_EVENT_RECORD_LEN ? size - off : CT_EVENT_RECORD_LEN;
		uint8_t *rec = malloc(n ? n : 1);
		struct ct_event e;
		int rc;

		if (!rec)
			return 0;
		memcpy(rec, data + off, n);
		rc = ct_event_decode(rec, n, &e);
		free(rec);
		if (rc == 0) {
			if (n != CT_EVENT_RECORD_LEN || e.kind > CT_EV_GENERIC || (e.dpa & 0x3f))
				abort();
			names(&e);
		} else if (n == CT_EVENT_RECORD_LEN && data[off + 16] == CT_EVENT_RECORD_LEN) {
			abort();	/* a whole record with the right length field */
		}
		off += n;
	} while (off < size);
	return 0;
}
