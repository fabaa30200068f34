// SPDX-License-Identifier: LGPL-2.1-or-later
/* metrics-events.c - see metrics-events.h */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "context.h"
#include "event-source.h"
#include "metrics-events.h"
#include "metrics-file.h"

#define STATE_MAX (1 << 20)
#define BOOT_ID "/proc/sys/kernel/random/boot_id"

/* one run's poison lists, by memdev */
struct run {
	struct ct_metrics_state *st;
	struct ct_metrics_state lists;	/* only .poison used */
	int rc;
};

static int on_record(const struct ct_event *e, void *arg)
{
	struct run *r = arg;
	int sev = ct_event_severity(e), rc;

	rc = ct_metrics_state_count(r->st, e->memdev, ct_event_kind_name(e->kind),
				    sev >= 0 ? ct_severity_name((uint8_t)sev) : "", 1);
	if (!rc && e->kind == CT_EV_POISON && !strcmp(ct_poison_trace_type_name(e->trace_type), "list")) {
		struct ct_metrics_poison *p = NULL;
		for (size_t i = 0; i < r->lists.npoison && !p; i++)
			if (!strcmp(r->lists.poison[i].memdev, e->memdev))
				p = &r->lists.poison[i];
		uint64_t at = e->trace_time / 1000000000ULL;
		rc = ct_metrics_state_poison(&r->lists, e->memdev, p && p->at > at ? p->at : at,
					     (p ? p->records : 0) + 1, (p ? p->bytes : 0) + e->dpa_length);
	}
	if (rc)
		r->rc = rc;
	return rc;
}

/* the state of this boot from the file; a new one when there is none, it
 * is of another boot, or it cannot be read as ours (said in info) */
static int load_state(struct ct_context *ctx, const char *path, const char *boot_id, struct ct_metrics_state *st,
		      struct ct_metrics_events *info)
{
	char *text = NULL;
	int rc = ct_file_read_nofollow(&ctx->err, path, STATE_MAX, &text);

	memset(st, 0, sizeof(*st));
	if (rc && rc != -ENOENT)
		return rc;
	if (rc == 0 && ct_metrics_state_parse(text, st, &ctx->err)) {
		snprintf(info->reset_why, sizeof(info->reset_why), "%.60s: %.60s", path, ctx->err.msg);
		ct_error_clear(&ctx->err);
		info->reset = true;
	} else if (rc == 0 && strcmp(st->boot_id, boot_id)) {
		snprintf(info->reset_why, sizeof(info->reset_why), "a new boot");
		ct_metrics_state_reset(st);
		info->reset = true;
	}
	free(text);
	if (rc == -ENOENT || info->reset) {
		snprintf(st->boot_id, sizeof(st->boot_id), "%s", boot_id);
		st->since = (uint64_t)time(NULL);
	}
	return 0;
}

int ct_metrics_events_update(struct ct_context *ctx, const char *state_path, struct ct_metrics_state *st,
			     struct ct_metrics_events *info)
{
	struct ct_event_source_opts o = { .shared = true, .name = CT_METRICS_INSTANCE, .role = "metrics",
					  .buffer_kb = CT_METRICS_BUFFER_KB };
	struct ct_event_source *s = NULL;
	struct run r = { .st = st };
	char boot_id[CT_METRICS_TOKEN], *text;
	int rc, lock = -1;

	memset(info, 0, sizeof(*info));
	memset(st, 0, sizeof(*st));
	if (!ctx->live)
		return ct_fail(&ctx->err, EOPNOTSUPP, "event counts come from the running kernel, not a captured tree");
	if ((rc = ct_sysfs_read_str(&ctx->sys, BOOT_ID, boot_id, sizeof(boot_id))))
		return rc;
	if ((rc = ct_state_dir_lock(&ctx->err, state_path, &lock)))
		return rc;
	if ((rc = load_state(ctx, state_path, boot_id, st, info)))
		goto out;
	if ((rc = ct_event_source_open(ctx, &o, &s)))
		goto out;
	info->started = ct_event_source_created(s);
	rc = ct_event_source_read(s, on_record, &r);
	if (r.rc)
		rc = ct_fail(&ctx->err, -r.rc, "out of memory counting events");
	st->lost += ct_event_source_lost(s);
	ct_event_source_close(s);	/* persistent: only freed */
	for (size_t i = 0; !rc && i < r.lists.npoison; i++) {
		const struct ct_metrics_poison *p = &r.lists.poison[i];
		if (ct_metrics_state_poison(st, p->memdev, p->at, p->records, p->bytes))
			rc = ct_fail(&ctx->err, ENOMEM, "out of memory");
	}
	/* what was consumed is counted even when the read stopped early */
	if (!(text = ct_metrics_state_format(st))) {
		rc = rc ? rc : ct_fail(&ctx->err, ENOMEM, "out of memory");
		goto out;
	}
	if (ct_file_write_atomic(rc ? &(struct ct_error){ 0 } : &ctx->err, state_path, text, strlen(text), 0600) && !rc)
		rc = -ctx->err.code;
	free(text);
out:
	ct_metrics_state_free(&r.lists);
	ct_dir_unlock(lock);
	if (rc)
		ct_metrics_state_free(st);
	return rc;
}

int ct_metrics_events_stop(struct ct_context *ctx, const char *state_path, bool *removed)
{
	int rc, lock = -1;

	*removed = false;
	if (!ctx->live)
		return ct_fail(&ctx->err, EOPNOTSUPP, "event counts come from the running kernel, not a captured tree");
	if ((rc = ct_state_dir_lock(&ctx->err, state_path, &lock)))
		return rc;
	rc = ct_event_named_remove(ctx, CT_METRICS_INSTANCE, removed);
	if (!rc && unlink(state_path) && errno != ENOENT)
		rc = ct_fail(&ctx->err, errno, "cannot remove %s: %s", state_path, strerror(errno));
	ct_dir_unlock(lock);
	return rc;
}
