// SPDX-License-Identifier: LGPL-2.1-or-later
/* say.c - a message to the caller's sink (say.h) */
#include <stdarg.h>
#include <stdio.h>
#include "core/say.h"

void ct_say(const struct ct_say *s, int kind, const char *fmt, ...)
{
	char text[CT_SAY_MAX];
	va_list ap;

	if (!s || !s->fn)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	s->fn(s->arg, kind, text);
}
