/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* error.h - how lib/ reports failure: a negative errno plus a message */
#ifndef CXLTIER_ERROR_H
#define CXLTIER_ERROR_H

#include <stdarg.h>

struct ct_error {
	int code;		/* positive errno of the last failure, 0 if none */
	char msg[512];		/* what failed, on which object */
};

/* record the failure and return -err, so callers can `return ct_fail(...)` */
int ct_fail(struct ct_error *e, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void ct_error_clear(struct ct_error *e);

#endif
