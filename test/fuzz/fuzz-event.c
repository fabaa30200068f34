// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target: event records. The input is a 128-byte record for the
 * record decoder and, whole, a tracepoint record of one of Linux 6.12's cxl
 * formats (the first byte picks which) for the format-driven decoder:
 * neither may crash or read out of bounds, and what they keep must be
 * consistent */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include "events/event.h"
#include "events/event-trace.h"

static const char *const names[] = {
	"cxl_general_media", "cxl_dram", "cxl_memory_module", "cxl_poison", "cxl_overflow",
	"cxl_generic_event", "cxl_aer_correctable_error", "cxl_aer_uncorrectable_error",
};
#define N (sizeof(names) / sizeof(names[0]))
static struct tep_handle *tep;
static struct tep_event *events[N];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	tep = tep_alloc();
	for (size_t i = 0; i < N; i++) {
		char path[512], buf[16384];
		FILE *f;
		size_t n;
		snprintf(path, sizeof(path), "%s/tracefs/linux-6.12/%s.format", CXLTIER_FIXTURES, names[i]);
		if (!(f = fopen(path, "r")))
			abort();
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		if (tep_parse_format(tep, &events[i], buf, n, "cxl"))
			abort();
	}
	return 0;
}

static void check(const struct ct_event *e)
{
	if (e->nfields > CT_EVENT_MAX_FIELDS || e->used > CT_EVENT_STORE)
		abort();
	for (size_t i = 0; i < e->nfields; i++) {
		const struct ct_event_field *f = &e->fields[i];
		if (f->name >= e->used || (size_t)f->data + f->len > e->used)
			abort();
		if (f->type == CT_FIELD_STRING && strlen(ct_event_field_data(e, f)) != f->len)
			abort();
	}
	ct_event_severity(e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ct_event e;
	struct tep_record r;
	uint8_t *copy;

	if (ct_event_decode(data, size, &e) == 0)
		check(&e);
	if (!size)
		return 0;
	copy = malloc(size);	/* exactly the record: out-of-bounds reads show */
	memcpy(copy, data, size);
	memset(&r, 0, sizeof(r));
	r.data = copy;
	r.size = (int)size;
	ct_event_from_trace(events[data[0] % N], &r, &e);
	check(&e);
	free(copy);
	return 0;
}
