// SPDX-License-Identifier: LGPL-2.1-or-later
/* page-offline.c - a physical page taken out of use: see page-offline.h */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <stdlib.h>
#include <linux/capability.h>
#include "mm/page-offline.h"

#define KPAGEFLAGS "/proc/kpageflags"
#define SOFT_OFFLINE "/sys/devices/system/memory/soft_offline_page"

/* CAP_SYS_ADMIN in this process's effective set (CapEff of /proc/self/status) */
static bool has_sys_admin(struct ct_context *ctx)
{
	char *text = NULL, *line;
	unsigned long long eff = 0;

	if (ct_sysfs_read_text(&ctx->sys, "/proc/self/status", &text))
		return false;
	line = strstr(text, "\nCapEff:");
	if (!line || sscanf(line + 8, "%llx", &eff) != 1)
		eff = 0;
	free(text);
	return eff >> CAP_SYS_ADMIN & 1;
}

int ct_page_offline_usable(struct ct_context *ctx)
{
	int fd;

	if (!ct_sysfs_exists(&ctx->sys, SOFT_OFFLINE))
		return ct_fail(&ctx->err, ENOENT, "the kernel has no %s (built without CONFIG_MEMORY_FAILURE): no page "
			       "can be retired", SOFT_OFFLINE);
	if (!has_sys_admin(ctx))
		return ct_fail(&ctx->err, EPERM, "retiring a page takes CAP_SYS_ADMIN, which this process lacks");
	fd = ct_sysfs_openat(&ctx->sys, SOFT_OFFLINE, O_WRONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return ct_fail(&ctx->err, -fd, "cannot open %s for writing: %s", SOFT_OFFLINE, strerror(-fd));
	close(fd);
	return 0;
}

uint64_t ct_page_offline_size(void)
{
	long n = sysconf(_SC_PAGESIZE);

	return n > 0 ? (uint64_t)n : 4096;
}

int ct_page_offline_poisoned(struct ct_context *ctx, uint64_t phys, bool *poisoned)
{
	uint64_t pfn = phys / ct_page_offline_size(), flags;
	int fd = ct_sysfs_openat(&ctx->sys, KPAGEFLAGS, O_RDONLY | O_CLOEXEC, 0);
	ssize_t n;

	if (fd < 0)
		return ct_fail(&ctx->err, -fd, "cannot open %s: %s%s", KPAGEFLAGS, strerror(-fd),
			       fd == -EACCES || fd == -EPERM ? " (root only)" : "");
	n = pread(fd, &flags, sizeof(flags), (off_t)(pfn * sizeof(flags)));
	close(fd);
	if (n != (ssize_t)sizeof(flags))
		return ct_fail(&ctx->err, n < 0 ? errno : ENXIO, "cannot read the flags of page 0x%" PRIx64 " (pfn %" PRIu64
			       ") from %s: %s", phys, pfn, KPAGEFLAGS, n < 0 ? strerror(errno) : "no such page");
	*poisoned = flags >> CT_KPF_HWPOISON & 1;
	return 0;
}

int ct_page_offline_soft(struct ct_context *ctx, uint64_t phys)
{
	uint64_t page = phys & ~(ct_page_offline_size() - 1);
	char val[32];
	int rc;

	snprintf(val, sizeof(val), "0x%" PRIx64, page);
	rc = ct_sysfs_write_str(&ctx->sys, SOFT_OFFLINE, val);
	if (rc == -ENOENT)
		return ct_fail(&ctx->err, ENOENT, "cannot retire page 0x%" PRIx64 ": the kernel has no %s "
			       "(built without CONFIG_MEMORY_FAILURE)", page, SOFT_OFFLINE);
	if (rc == -EBUSY)
		return ct_fail(&ctx->err, EBUSY, "page 0x%" PRIx64 " could not be soft-offlined: its contents cannot "
			       "be migrated now (pinned, or no free memory to move them to)", page);
	if (rc == -EIO || rc == -ENXIO)
		return ct_fail(&ctx->err, -rc, "page 0x%" PRIx64 " could not be soft-offlined: it is not online "
			       "memory, or the kernel cannot take it out of use (%s)", page, strerror(-rc));
	if (rc)
		return ct_fail(&ctx->err, -rc, "cannot soft-offline page 0x%" PRIx64 " through %s: %s", page,
			       SOFT_OFFLINE, strerror(-rc));
	return 0;
}
