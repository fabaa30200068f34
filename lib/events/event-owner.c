// SPDX-License-Identifier: LGPL-2.1-or-later
/* event-owner.c - the owners of private tracefs instances, and the stale
 * instances of owners that are gone: see event-owner.h */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>
#include "core/context.h"
#include "events/event-owner.h"

int ct_event_owner_name(const struct ct_event_owner *o, char *buf, size_t len)
{
	int n = snprintf(buf, len, "cxltier-%s-%d-%llu-%llu", o->role, o->owner.pid,
			 (unsigned long long)o->owner.start, o->pidns);

	return n > 0 && (size_t)n < len ? 0 : -ENAMETOOLONG;
}

static bool digits(const char *s, size_t n, unsigned long long *v)
{
	char buf[24];
	char *end;

	if (!n || n >= sizeof(buf) || (n > 1 && s[0] == '0'))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	*v = strtoull(buf, &end, 10);
	return !errno && !*end;
}

int ct_event_owner_parse(const char *name, struct ct_event_owner *o)
{
	const char *p = name, *dash;
	unsigned long long part[3];
	size_t n;

	memset(o, 0, sizeof(*o));
	if (strncmp(p, "cxltier-", 8))
		return -EINVAL;
	p += 8;
	for (n = 0; p[n] >= 'a' && p[n] <= 'z'; n++)
		;
	if (!n || n >= sizeof(o->role) || p[n] != '-')
		return -EINVAL;
	memcpy(o->role, p, n);
	p += n + 1;
	for (int i = 0; i < 3; i++) {
		dash = strchr(p, '-');
		n = i < 2 ? (dash ? (size_t)(dash - p) : 0) : strlen(p);
		if ((i < 2 && !dash) || (i == 2 && dash) || !digits(p, n, &part[i]))
			return -EINVAL;
		p += n + (i < 2);
	}
	if (!part[0] || part[0] > 0x7fffffff)
		return -EINVAL;
	o->owner.pid = (int)part[0];
	o->owner.start = part[1];
	o->pidns = part[2];
	return 0;
}

int ct_event_owner_self(struct ct_context *ctx, const char *role, struct ct_event_owner *self)
{
	char ns[64];
	int rc;

	memset(self, 0, sizeof(*self));
	snprintf(self->role, sizeof(self->role), "%s", role);
	if ((rc = ct_owner_self(&ctx->sys, &self->owner)))
		return rc;
	if ((rc = ct_sysfs_link_name(&ctx->sys, "/proc/self/ns/pid", ns, sizeof(ns))))
		return rc;
	if (sscanf(ns, "pid:[%llu]", &self->pidns) != 1)
		return ct_fail(&ctx->err, EBADMSG, "/proc/self/ns/pid: '%s' is not a pid namespace", ns);
	return 0;
}

bool ct_event_owner_stale(struct ct_context *ctx, const char *name, const struct ct_event_owner *self)
{
	struct ct_event_owner o;

	if (ct_event_owner_parse(name, &o) || o.pidns != self->pidns)
		return false;
	if (o.owner.pid == self->owner.pid)
		return o.owner.start != self->owner.start;
	/* an owner exited but not yet reaped, or one whose stat cannot be
	 * read: not provably stale */
	return ct_owner_check(&ctx->sys, &o.owner, NULL, 0) == CT_OWNER_GONE;
}

int ct_event_owner_remove(struct ct_context *ctx, const char *name)
{
	struct tracefs_instance *inst = tracefs_instance_alloc(NULL, name);
	int rc = 0;

	if (!inst)
		return ct_fail(&ctx->err, errno ? errno : ENOMEM, "tracefs instance %s: %s", name, strerror(errno));
	if (tracefs_instance_destroy(inst)) {
		rc = errno ? errno : EIO;
		/* it cannot go (a reader holds it open): at least stop it recording */
		tracefs_trace_off(inst);
		tracefs_event_disable(inst, NULL, NULL);
		if (rc != ENOENT)
			rc = ct_fail(&ctx->err, rc, "cannot remove the tracefs instance %s: %s; its tracing is off, "
				     "remove it with rmdir once nothing holds it", name, strerror(rc));
		else
			rc = 0;
	}
	tracefs_instance_free(inst);
	return rc;
}

size_t ct_event_owner_remove_stale(struct ct_context *ctx, const struct ct_event_owner *self, char **removed,
				   size_t max)
{
	/* every instance, not a regex: libtracefs's tracefs_instances() does
	 * not free the regex it compiles (LeakSanitizer, every run);
	 * ct_event_owner_stale takes only names of our own form */
	char **names = tracefs_instances(NULL);
	size_t n = 0;

	for (int i = 0; names && names[i]; i++) {
		if (!ct_event_owner_stale(ctx, names[i], self) || n >= max)
			continue;
		if (ct_event_owner_remove(ctx, names[i]) == 0)
			removed[n++] = strdup(names[i]);
		ct_error_clear(&ctx->err);
	}
	tracefs_list_free(names);
	return n;
}
