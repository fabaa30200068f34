// SPDX-License-Identifier: LGPL-2.1-or-later
/* array.c - arrays that grow by one element at a time (array.h) */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/array.h"

int ct_array_grow(struct ct_error *e, void **arr, size_t n, size_t size)
{
	void *p = realloc(*arr, (n + 1) * size);

	if (!p)
		return e ? ct_fail(e, ENOMEM, "out of memory") : -ENOMEM;
	memset((char *)p + n * size, 0, size);
	*arr = p;
	return 0;
}
