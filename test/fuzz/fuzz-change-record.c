// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target: the record of a region change (/run/cxltier/region-change.PID)
 * parsed as the next run reads it. A record taken has a pid, a root decoder
 * and names of devices only, and what format writes of it reads back the
 * same. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "change/change-record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ct_change_record r, back;
	char *text = malloc(size + 1), out[4096];

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (ct_change_record_parse(text, &r) == 0) {
		if (r.owner.pid <= 0 || strncmp(r.root, "decoder", 7) || strchr(r.root, '/') || r.ndecoders > CT_MAX_TARGETS)
			abort();
		for (unsigned i = 0; i < r.ndecoders; i++)
			if (strchr(r.decoders[i], '/') || strchr(r.memdevs[i], '/'))
				abort();
		ct_change_record_format(&r, out, sizeof(out));
		if (ct_change_record_parse(out, &back) || back.owner.pid != r.owner.pid || back.owner.start != r.owner.start ||
		    back.kind != r.kind || strcmp(back.root, r.root) || strcmp(back.region, r.region) ||
		    back.ndecoders != r.ndecoders)
			abort();
		for (unsigned i = 0; i < r.ndecoders; i++)
			if (strcmp(back.decoders[i], r.decoders[i]) || strcmp(back.memdevs[i], r.memdevs[i]))
				abort();
	}
	free(text);
	return 0;
}
