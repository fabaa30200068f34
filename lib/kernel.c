// SPDX-License-Identifier: LGPL-2.1-or-later
/* kernel.c - the running kernel's release and hotplug behaviour: see kernel.h */
#include <stdio.h>
#include <string.h>
#include "context.h"
#include "kernel.h"

#define MEMORY_DIR "/sys/devices/system/memory"

int ct_kernel_release(struct ct_context *ctx, struct ct_kernel_release *r)
{
	int rc;

	memset(r, 0, sizeof(*r));
	rc = ct_sysfs_read_str(&ctx->sys, "/proc/sys/kernel/osrelease", r->text, sizeof(r->text));
	if (rc)
		return rc;
	if (sscanf(r->text, "%d.%d", &r->major, &r->minor) != 2)
		r->major = r->minor = 0;
	return 0;
}

bool ct_kernel_at_least(const struct ct_kernel_release *r, int major, int minor)
{
	if (!r->major)
		return false;
	return r->major > major || (r->major == major && r->minor >= minor);
}

bool ct_kernel_has_cdat_attr(const struct ct_kernel_release *r, bool switch_port)
{
	if (!r->major)
		return true;
	return ct_kernel_at_least(r, 6, switch_port ? 8 : 0);
}

bool ct_kernel_has_cxl_perf(const struct ct_kernel_release *r)
{
	return ct_kernel_at_least(r, 6, 9);
}

/* the value of "key=" on the command line, "" when absent */
static void cmdline_value(const char *cmdline, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);
	const char *p = cmdline;

	buf[0] = 0;
	while ((p = strstr(p, key))) {
		if ((p == cmdline || p[-1] == ' ') && p[klen] == '=') {
			p += klen + 1;
			snprintf(buf, len, "%.*s", (int)strcspn(p, " \n"), p);
			return;
		}
		p += klen;
	}
}

static bool cmdline_flag(const char *cmdline, const char *flag)
{
	size_t flen = strlen(flag);

	for (const char *p = cmdline; (p = strstr(p, flag)); p += flen)
		if ((p == cmdline || p[-1] == ' ') && (p[flen] == 0 || p[flen] == ' ' || p[flen] == '\n'))
			return true;
	return false;
}

void ct_kernel_auto_online(struct ct_context *ctx, struct ct_auto_online *a)
{
	char cmdline[4096];

	memset(a, 0, sizeof(*a));
	if (ct_sysfs_read_str(&ctx->sys, MEMORY_DIR "/auto_online_blocks", a->blocks, sizeof(a->blocks)) == 0) {
		a->known = true;
		a->onlines = strcmp(a->blocks, "offline") != 0;
		a->movable = strcmp(a->blocks, "online_movable") == 0;
	}
	if (ct_sysfs_read_str(&ctx->sys, "/proc/cmdline", cmdline, sizeof(cmdline)) == 0) {
		cmdline_value(cmdline, "memhp_default_state", a->memhp_default_state,
			      sizeof(a->memhp_default_state));
		a->movable_node = cmdline_flag(cmdline, "movable_node");
	}
	ct_error_clear(&ctx->err);
}

int ct_kernel_set_auto_online(struct ct_context *ctx, const char *value)
{
	return ct_sysfs_write_str(&ctx->sys, MEMORY_DIR "/auto_online_blocks", value);
}

bool ct_kernel_has_memory_hotplug(struct ct_context *ctx)
{
	return ct_sysfs_exists(&ctx->sys, MEMORY_DIR "/block_size_bytes");
}

bool ct_kernel_has_numa(struct ct_context *ctx)
{
	return ct_sysfs_exists(&ctx->sys, "/sys/devices/system/node/online");
}

bool ct_kernel_has_cxl_tracepoints(struct ct_context *ctx)
{
	return ct_sysfs_exists(&ctx->sys, "/sys/kernel/tracing/events/cxl") ||
	       ct_sysfs_exists(&ctx->sys, "/sys/kernel/debug/tracing/events/cxl");
}
