// SPDX-License-Identifier: LGPL-2.1-or-later
#include <stdio.h>
#include <string.h>
#include "core/error.h"

int ct_fail(struct ct_error *e, int err, const char *fmt, ...)
{
	va_list ap;

	if (err < 0)
		err = -err;
	if (e) {
		e->code = err;
		va_start(ap, fmt);
		vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
		va_end(ap);
	}
	return -err;
}

void ct_error_clear(struct ct_error *e)
{
	e->code = 0;
	e->msg[0] = '\0';
}
