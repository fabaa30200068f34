/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* context.h - what every lib/ call carries: the system root, the opened
 * libcxl/libdaxctl contexts (live systems only) and the last error. */
#ifndef CXLTIER_CONTEXT_H
#define CXLTIER_CONTEXT_H

#include <stdbool.h>
#include <stdint.h>
#include "core/error.h"
#include "core/say.h"
#include "core/sysfs.h"

struct cxl_ctx;
struct daxctl_ctx;

struct ct_context {
	struct ct_sysfs sys;
	struct ct_error err;
	bool live;			/* root is "/": libcxl and libdaxctl may be used */
	struct cxl_ctx *cxl;		/* opened on first use */
	struct daxctl_ctx *dax;
	uint64_t block_size;		/* memory block size, once read (ct_block_size_cached) */
	struct ct_say say;		/* where the jobs' messages go (core/say.h); none: unsaid */
};

int ct_context_new(struct ct_context **ctx, const char *root);
void ct_context_free(struct ct_context *ctx);
int ct_context_cxl(struct ct_context *ctx, struct cxl_ctx **out);
int ct_context_daxctl(struct ct_context *ctx, struct daxctl_ctx **out);
const char *ct_context_message(const struct ct_context *ctx);
/* forget what libcxl and libdaxctl enumerated (they cache it): after a
 * region was created or destroyed, the next use opens them afresh */
void ct_context_refresh(struct ct_context *ctx);

#endif
