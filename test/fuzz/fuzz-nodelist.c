// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target: the kernel's node list format ("0-3,5"), as read from
 * node/online, has_cpu, has_memory and memory_tierN/nodelist. A list that
 * parses prints back (as the kernel would) to one that parses to the same
 * set; iteration visits exactly the members it counts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/nodeset.h"

static void print(const struct ct_nodeset *s, char *buf, size_t len)
{
	size_t off = 0;
	int n;

	buf[0] = '\0';
	ct_nodeset_foreach(s, n) {
		int end = n;
		while (ct_nodeset_has(s, end + 1))
			end++;
		off += snprintf(buf + off, len - off, off ? ",%d" : "%d", n);
		if (end > n)
			off += snprintf(buf + off, len - off, "-%d", end);
		n = end;
		if (off >= len)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), back[8192];
	struct ct_nodeset s, again;
	int n, count = 0;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (ct_nodeset_parse(&s, text) == 0) {
		ct_nodeset_foreach(&s, n) {
			if (n < 0 || n >= CT_MAX_NODES || !ct_nodeset_has(&s, n))
				abort();
			count++;
		}
		if (count != ct_nodeset_count(&s) || ct_nodeset_has(&s, -1) || ct_nodeset_has(&s, CT_MAX_NODES))
			abort();
		print(&s, back, sizeof(back));
		if (ct_nodeset_parse(&again, back) || memcmp(&s, &again, sizeof(s)))
			abort();
	}
	free(text);
	return 0;
}
