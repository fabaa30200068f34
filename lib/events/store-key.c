// SPDX-License-Identifier: LGPL-2.1-or-later
/* store-key.c - what a record is stored under in the event store: its key,
 * its fields' hash, its host time and page (see event-store-db.h) */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "events/event-store-db.h"

#define DESC_UNCORRECTABLE 0x1

static uint64_t fnv(uint64_t h, const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

/* the emit time (8 bytes after the magic and the name) left out */
uint64_t ct_store_body_hash(const uint8_t *blob, size_t len, const char *event)
{
	size_t at = 4 + 1 + strnlen(event, 255);

	if (len < at + 8)
		return fnv(0xcbf29ce484222325ULL, blob, len);
	return fnv(fnv(0xcbf29ce484222325ULL, blob, at), blob + at + 8, len - at - 8);
}

void ct_store_key(const struct ct_event *e, uint64_t body, char *buf, size_t len)
{
	char dev[160], uuid[40];

	/* the serial alone is not a device: two cards may both say 0, or the
	 * same one; their PCI addresses and memdevs tell them apart */
	if (e->has_serial)
		snprintf(dev, sizeof(dev), "s%" PRIu64 "|%s|%s", e->serial, e->host, e->memdev);
	else
		snprintf(dev, sizeof(dev), "m|%s|%s", e->host, e->memdev);
	/* the common header: a record's handle and the device's time name it
	 * (a device whose clock was never set gives 0: not enough) */
	if (e->has_header && !ct_uuid_is_null(e->uuid) && e->timestamp) {
		ct_uuid_text(e->uuid, uuid, sizeof(uuid));
		snprintf(buf, len, "h|%s|%s|%u|%u|%" PRIu64, dev, uuid, e->log, e->handle, (uint64_t)(e->timestamp / 1000000000ULL));
	} else {
		snprintf(buf, len, "t|%s|%s|%" PRIu64 "|%016" PRIx64, dev, e->event, e->trace_time, body);
	}
}

uint64_t ct_store_now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

uint64_t ct_store_host_time(const struct ct_event *e, uint64_t now_ns)
{
	if (e->trace_time)
		return e->trace_time;
	return e->timestamp ? e->timestamp : now_ns;
}

int64_t ct_store_page(const struct ct_event *e)
{
	if ((e->kind != CT_EV_GENERAL_MEDIA && e->kind != CT_EV_DRAM) || (e->descriptor & DESC_UNCORRECTABLE))
		return -1;
	return (int64_t)(e->dpa >> 12);
}
