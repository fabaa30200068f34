// SPDX-License-Identifier: LGPL-2.1-or-later
/* kernel.c - the running kernel's release and behaviour, and what the
 * libcxl cxltier was built against can do: see kernel.h */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "config.h"
#include "core/context.h"
#include "core/kernel.h"

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

/* the build option that makes auto_online_blocks what it is by default:
 * CONFIG_MHP_DEFAULT_ONLINE_TYPE_* (a choice, 6.14) or the older boolean */
static void build_option(const struct ct_kernel_release *r, const char *blocks, char *buf, size_t len)
{
	static const struct { const char *blocks, *option; } types[] = {
		{ "offline", "CONFIG_MHP_DEFAULT_ONLINE_TYPE_OFFLINE" },
		{ "online", "CONFIG_MHP_DEFAULT_ONLINE_TYPE_ONLINE_AUTO" },
		{ "online_kernel", "CONFIG_MHP_DEFAULT_ONLINE_TYPE_ONLINE_KERNEL" },
		{ "online_movable", "CONFIG_MHP_DEFAULT_ONLINE_TYPE_ONLINE_MOVABLE" },
	};

	buf[0] = 0;
	if (!r->major)
		return;
	if (!ct_kernel_at_least(r, 6, 14)) {
		snprintf(buf, len, "CONFIG_MEMORY_HOTPLUG_DEFAULT_ONLINE%s", strcmp(blocks, "offline") ? "=y" : " is not set");
		return;
	}
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(blocks, types[i].blocks))
			snprintf(buf, len, "%s", types[i].option);
}

void ct_kernel_auto_online(struct ct_context *ctx, struct ct_auto_online *a)
{
	struct ct_kernel_release rel;
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
	ct_sysfs_read_str(&ctx->sys, "/sys/module/memory_hotplug/parameters/online_policy", a->online_policy,
			  sizeof(a->online_policy));
	if (a->known && !a->memhp_default_state[0] && ct_kernel_release(ctx, &rel) == 0)
		build_option(&rel, a->blocks, a->build_option, sizeof(a->build_option));
	ct_error_clear(&ctx->err);
}

void ct_kernel_damon_state(struct ct_context *ctx, struct ct_kernel_damon *d)
{
	char v[32], path[64], comm[32], **names;
	size_t n;
	int64_t pid;

	memset(d, 0, sizeof(*d));
	d->stat_pid = -1;
	if (ct_sysfs_read_str(&ctx->sys, "/sys/module/damon_stat/parameters/enabled", v, sizeof(v)) == 0) {
		d->stat_known = true;
		d->stat_enabled = v[0] == 'Y' || v[0] == 'y' || v[0] == '1';
	}
	if (d->stat_enabled && ct_sysfs_read_s64(&ctx->sys, "/sys/module/damon_stat/parameters/kdamond_pid", &pid) == 0)
		d->stat_pid = pid > 0 ? (int)pid : -1;
	if (ct_sysfs_list(&ctx->sys, "/proc", NULL, &names, &n) == 0) {
		for (size_t i = 0; i < n; i++) {
			if (!isdigit((unsigned char)names[i][0]))
				continue;
			if (ct_sysfs_read_str(&ctx->sys, ct_path(path, sizeof(path), "/proc/%s/comm", names[i]),
					      comm, sizeof(comm)) == 0 && !strncmp(comm, "kdamond", 7))
				d->kdamonds++;
		}
		ct_strv_free(names, n);
	}
	ct_error_clear(&ctx->err);
}

/* a kernel figure this far above what CDAT and the local latency add up to
 * is no host path: the link latency was added in ps as ns (+17000 per link
 * at 32 GT/s, more at lower speeds). No CXL path, switches included, comes
 * near 5 us, so the excess alone tells when CDAT is not readable; the
 * release does not (a stable kernel may carry the fix, and firmware HMAT
 * figures never had the bug) */
#define LATENCY_RATIO_MAX 10
#define LATENCY_EXCESS_MAX_NS 5000

void ct_kernel_check_latency(uint64_t kernel_ns, uint64_t cdat_ns, uint64_t local_ns, struct ct_latency_check *c)
{
	uint64_t floor = cdat_ns + local_ns;	/* what the path costs at least */
	bool bug = kernel_ns > LATENCY_RATIO_MAX * floor && kernel_ns - floor > LATENCY_EXCESS_MAX_NS;

	memset(c, 0, sizeof(*c));
	if (!kernel_ns)
		return;
	if (cdat_ns) {
		c->expected_ns = floor;
		c->by = CT_EVIDENCE_FIGURES;
		c->verdict = bug ? CT_LATENCY_LINK_PS_AS_NS : CT_LATENCY_PLAUSIBLE;
	} else if (bug) {
		/* without CDAT only the bug can be told: a figure under the
		 * limit may still hide a slow device */
		c->by = CT_EVIDENCE_EXCESS;
		c->verdict = CT_LATENCY_LINK_PS_AS_NS;
	}
}

const char *ct_latency_verdict_name(enum ct_latency_verdict v)
{
	switch (v) {
	case CT_LATENCY_PLAUSIBLE: return "plausible";
	case CT_LATENCY_LINK_PS_AS_NS: return "link_latency_ps_as_ns";
	default: return NULL;
	}
}

const char *ct_latency_evidence_name(enum ct_latency_evidence e)
{
	switch (e) {
	case CT_EVIDENCE_FIGURES: return "figures";
	case CT_EVIDENCE_EXCESS: return "excess";
	default: return NULL;
	}
}

int ct_libcxl_version(void)
{
	return LIBCXL_VERSION;
}

bool ct_libcxl_can_create_ram_region(void)
{
	return LIBCXL_VERSION >= 77;
}

int ct_kernel_set_auto_online(struct ct_context *ctx, const char *value)
{
	return ct_sysfs_write_str(&ctx->sys, MEMORY_DIR "/auto_online_blocks", value);
}

int ct_kernel_auto_online_written(struct ct_context *ctx, struct timespec *when)
{
	struct stat st;
	int rc = ct_sysfs_stat(&ctx->sys, MEMORY_DIR "/auto_online_blocks", &st);

	if (rc == 0)
		*when = st.st_mtim;
	return rc;
}

int ct_kernel_has_memory_hotplug(struct ct_context *ctx)
{
	return ct_sysfs_present(&ctx->sys, MEMORY_DIR "/block_size_bytes");
}

int ct_kernel_has_numa(struct ct_context *ctx)
{
	return ct_sysfs_present(&ctx->sys, "/sys/devices/system/node/online");
}

bool ct_kernel_has_cxl_tracepoints(struct ct_context *ctx)
{
	return ct_sysfs_exists(&ctx->sys, "/sys/kernel/tracing/events/cxl") ||
	       ct_sysfs_exists(&ctx->sys, "/sys/kernel/debug/tracing/events/cxl");
}
