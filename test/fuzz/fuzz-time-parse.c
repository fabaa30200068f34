// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target: spans and points in time as systemd.time(7) writes them
 * (lib/core/time-parse.c), as --since, --until, --timeout and the
 * configuration's durations take them. Any text: no crash, no read past it;
 * a span that parses is within its bound, and as a point in time "-SPAN"
 * is that far before now (or out of range). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/time-parse.h"

#define NOW (1764583200ULL * CT_NS_PER_SEC)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 2), *minus;
	uint64_t v, t, max = 86400ULL * CT_NS_PER_SEC;
	int rc;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	rc = ct_parse_span(text, CT_NS_PER_SEC, max, &v);
	if (rc && rc != -EINVAL && rc != -ERANGE)
		abort();
	if (!rc && v > max)
		abort();
	rc = ct_parse_time(text, NOW, &t);
	if (rc && rc != -EINVAL && rc != -ERANGE)
		abort();
	if (ct_parse_span(text, CT_NS_PER_SEC, 0, &v) == 0 && strlen(text) == size && (minus = malloc(size + 2))) {
		minus[0] = '-';
		memcpy(minus + 1, text, size + 1);
		rc = ct_parse_time(minus, NOW, &t);
		if (!(rc == 0 && t == NOW - v) && !(rc == -ERANGE && v > NOW) && rc != -EINVAL)
			abort();
		free(minus);
	}
	free(text);
	return 0;
}
