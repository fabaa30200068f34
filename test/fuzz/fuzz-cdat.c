// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target: the CDAT decoder must never crash or read out of bounds,
 * and a table it accepts must be self-consistent */
#include <stdint.h>
#include <stdlib.h>
#include "cdat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cdat_table t;
	struct ct_error err;
	int rc = cdat_decode(data, size, &t, &err);

	if (rc == 0) {
		size_t end = CDAT_HEADER_LEN;
		for (size_t i = 0; i < t.n; i++) {
			if (t.s[i].offset != end || t.s[i].length < 4)
				abort();
			end += t.s[i].length;
		}
		if (end != t.length || !t.checksum_valid || t.length > size)
			abort();
	}
	for (size_t i = 0; i < t.n; i++) {
		uint64_t v;
		if (t.s[i].type == CDAT_DSLBIS)
			cdat_value(t.s[i].u.dslbis.base_unit, t.s[i].u.dslbis.entry[0], &v);
	}
	cdat_free(&t);
	return 0;
}
