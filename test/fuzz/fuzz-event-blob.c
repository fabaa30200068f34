// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target: the event store keeps each record as a blob of its
 * fields (lib/events/event-blob.c) and decodes it again when it is read.
 * The bytes go to the decoder in a buffer of exactly their length, so
 * reading past it is caught; a blob it accepts must write back to bytes
 * that decode to the same fields, and write the same bytes again. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "events/event-blob.h"

static struct ct_event e, again;
static uint8_t out[CT_EVENT_BLOB_MAX], out2[CT_EVENT_BLOB_MAX];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);
	size_t n, n2;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (ct_event_blob_read(copy, size, &e) == 0) {
		n = ct_event_blob_write(&e, out, sizeof(out));
		if (!n || ct_event_blob_read(out, n, &again) || again.nfields != e.nfields ||
		    strcmp(again.event, e.event) || again.trace_time != e.trace_time)
			abort();
		n2 = ct_event_blob_write(&again, out2, sizeof(out2));
		if (n2 != n || memcmp(out, out2, n))
			abort();
	}
	free(copy);
	return 0;
}
