// SPDX-License-Identifier: LGPL-2.1-or-later
/* findings.c - the list the doctor's checks fill: see findings.h */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/sysfs.h"
#include "views/findings.h"

const char *ct_finding_status_name(enum ct_finding_status s)
{
	switch (s) {
	case CT_FINDING_OK: return "ok";
	case CT_FINDING_INFO: return "info";
	default: return "problem";
	}
}

void ct_finding_add(struct ct_findings *f, const char *check, const char *object, enum ct_finding_status status,
		    const char *fix, const char *fmt, ...)
{
	struct ct_finding *x;
	va_list ap;

	if (status == CT_FINDING_PROBLEM)
		f->problems++;
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 16;
		struct ct_finding *nv = realloc(f->v, cap * sizeof(*nv));
		if (!nv) {
			f->oom = true;
			return;
		}
		f->v = nv;
		f->cap = cap;
	}
	x = &f->v[f->n++];
	memset(x, 0, sizeof(*x));
	ct_strlcpy(x->check, check, sizeof(x->check));
	ct_strlcpy(x->object, object ? object : "", sizeof(x->object));
	ct_strlcpy(x->fix, fix ? fix : "", sizeof(x->fix));
	x->status = status;
	va_start(ap, fmt);
	vsnprintf(x->finding, sizeof(x->finding), fmt, ap);
	va_end(ap);
}

void ct_findings_free(struct ct_findings *f)
{
	free(f->v);
	memset(f, 0, sizeof(*f));
}
