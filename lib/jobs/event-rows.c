// SPDX-License-Identifier: LGPL-2.1-or-later
/* event-rows.c - the records a reading run shows, one at a time: see
 * event-rows.h */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jobs/event-rows.h"

struct ct_event_rows {
	struct ct_context *ctx;
	struct ct_event_filter filter;
	/* the store's */
	struct ct_event_store *s;
	struct ct_event_store_cursor *c;
	/* or a file's */
	FILE *f;
	const char *path;
};

int ct_event_rows_of_store(struct ct_context *ctx, struct ct_event_store *s, const struct ct_event_filter *f,
			   struct ct_event_rows **out, uint64_t *n)
{
	struct ct_event_rows *r = calloc(1, sizeof(*r));
	int rc;

	*out = NULL;
	if (!r) {
		ct_event_store_close(s);
		return ct_fail(&ctx->err, ENOMEM, "out of memory");
	}
	r->ctx = ctx;
	r->s = s;
	if ((rc = ct_event_store_cursor_open(s, f, &r->c, n, &ctx->err))) {
		ct_event_rows_free(r);
		return rc;
	}
	*out = r;
	return 0;
}

int ct_event_rows_of_file(struct ct_context *ctx, const char *path, const struct ct_event_filter *f, uint64_t n,
			  struct ct_event_rows **out)
{
	struct ct_event_rows *r = calloc(1, sizeof(*r));

	(void)n;
	*out = NULL;
	if (!r)
		return ct_fail(&ctx->err, ENOMEM, "out of memory");
	r->ctx = ctx;
	r->filter = *f;
	r->path = path;
	if (!(r->f = fopen(path, "rb"))) {
		int e = errno;
		free(r);
		return ct_fail(&ctx->err, e, "cannot open %s: %s", path, strerror(e));
	}
	*out = r;
	return 0;
}

int ct_event_rows_next(struct ct_event_rows *r, struct ct_event *e)
{
	uint8_t rec[CT_EVENT_RECORD_LEN];

	if (r->c)
		return ct_event_store_cursor_next(r->c, e, &r->ctx->err);
	while (fread(rec, 1, sizeof(rec), r->f) == sizeof(rec))
		if (!ct_event_decode(rec, sizeof(rec), e) && ct_event_filter_match(&r->filter, e))
			return 1;
	if (ferror(r->f))
		return ct_fail(&r->ctx->err, EIO, "cannot read %s: %s", r->path, strerror(EIO));
	return 0;
}

void ct_event_rows_rewind(struct ct_event_rows *r)
{
	if (r->c)
		ct_event_store_cursor_rewind(r->c);
	else
		rewind(r->f);
}

void ct_event_rows_free(struct ct_event_rows *r)
{
	if (!r)
		return;
	ct_event_store_cursor_close(r->c);
	ct_event_store_close(r->s);
	if (r->f)
		fclose(r->f);
	free(r);
}
