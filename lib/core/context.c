// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <cxl/libcxl.h>
#include <daxctl/libdaxctl.h>
#include "core/context.h"

int ct_context_new(struct ct_context **out, const char *root)
{
	struct ct_context *ctx = calloc(1, sizeof(*ctx));
	int rc;

	*out = NULL;
	if (!ctx)
		return -ENOMEM;
	ctx->sys.rootfd = -1;
	rc = ct_sysfs_open(&ctx->sys, root, &ctx->err);
	if (rc) {
		*out = ctx;	/* the caller reads the message, then frees */
		return rc;
	}
	ctx->live = !root || strcmp(root, "/") == 0 || !*root;
	*out = ctx;
	return 0;
}

void ct_context_free(struct ct_context *ctx)
{
	if (!ctx)
		return;
	if (ctx->cxl)
		cxl_unref(ctx->cxl);
	if (ctx->dax)
		daxctl_unref(ctx->dax);
	ct_sysfs_close(&ctx->sys);
	free(ctx);
}

int ct_context_cxl(struct ct_context *ctx, struct cxl_ctx **out)
{
	int rc;

	if (!ctx->cxl) {
		rc = cxl_new(&ctx->cxl);
		if (rc) {
			ctx->cxl = NULL;
			return ct_fail(&ctx->err, rc, "cannot open libcxl: %s", strerror(-rc));
		}
	}
	*out = ctx->cxl;
	return 0;
}

int ct_context_daxctl(struct ct_context *ctx, struct daxctl_ctx **out)
{
	int rc;

	if (!ctx->dax) {
		rc = daxctl_new(&ctx->dax);
		if (rc) {
			ctx->dax = NULL;
			return ct_fail(&ctx->err, rc, "cannot open libdaxctl: %s", strerror(-rc));
		}
	}
	*out = ctx->dax;
	return 0;
}

void ct_context_refresh(struct ct_context *ctx)
{
	if (ctx->cxl)
		cxl_unref(ctx->cxl);
	if (ctx->dax)
		daxctl_unref(ctx->dax);
	ctx->cxl = NULL;
	ctx->dax = NULL;
}

const char *ct_context_message(const struct ct_context *ctx)
{
	return ctx->err.msg[0] ? ctx->err.msg : strerror(ctx->err.code ? ctx->err.code : EIO);
}
