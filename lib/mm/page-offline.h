/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * page-offline.h - one physical page taken out of use, as the kernel's
 * memory-failure code does it (CONFIG_MEMORY_FAILURE): its HWPOISON flag
 * read from /proc/kpageflags (bit 19), and the page soft-offlined through
 * /sys/devices/system/memory/soft_offline_page (its contents migrated, the
 * processes using it keep running; HardwareCorrupted in /proc/meminfo grows
 * by a page). Root only.
 */
#ifndef CXLTIER_PAGE_OFFLINE_H
#define CXLTIER_PAGE_OFFLINE_H

#include <stdbool.h>
#include <stdint.h>
#include "core/context.h"

#define CT_KPF_HWPOISON 19

/* can this process soft-offline pages? 0; -ENOENT no soft_offline_page
 * (CONFIG_MEMORY_FAILURE); -EPERM no CAP_SYS_ADMIN; -EROFS sysfs is
 * read-only to it (a sandbox); each with a message */
int ct_page_offline_usable(struct ct_context *ctx);
/* the page size of physical memory (the base page) */
uint64_t ct_page_offline_size(void);
/* is the page holding physical address phys marked HWPOISON? 0 and
 * *poisoned, or -errno with a message */
int ct_page_offline_poisoned(struct ct_context *ctx, uint64_t phys, bool *poisoned);
/* soft-offline the page holding phys: 0 once the kernel took it; -errno with a
 * message (ENOENT: no CONFIG_MEMORY_FAILURE; EBUSY: its contents could not
 * be migrated; EIO: not online memory, or the kernel refused it) */
int ct_page_offline_soft(struct ct_context *ctx, uint64_t phys);

#endif
