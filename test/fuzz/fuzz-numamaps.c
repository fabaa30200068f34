// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target: /proc/PID/numa_maps text, line by line and as a whole
 * (what migrate counts per node). Every string the parser fills stays
 * terminated inside its field. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "mm/numamaps.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	uint64_t bytes[64];

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	ct_numa_maps_bytes(text, bytes);
	for (char *line = text, *next; line; line = next) {
		struct ct_numa_vma v;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (ct_numa_maps_parse_line(line, &v) == 0 &&
		    (!memchr(v.policy, '\0', sizeof(v.policy)) || !memchr(v.kind, '\0', sizeof(v.kind))))
			abort();
	}
	free(text);
	return 0;
}
