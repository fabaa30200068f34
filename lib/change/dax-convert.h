/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dax-convert.h - a dax device's mode, changed through libdaxctl: devdax to
 * system-ram (bound to kmem, its memory hot-added as offline blocks).
 */
#ifndef CXLTIER_DAX_CONVERT_H
#define CXLTIER_DAX_CONVERT_H

#include <stdbool.h>

struct ct_context;

struct ct_dax_convert_result {
	bool loaded_kmem;	/* the kmem module was loaded for it */
	bool bound_by_kmem;	/* kmem took the device as it loaded: nothing to switch */
	char auto_online[32];	/* auto_online_blocks when it is not "offline" ("" otherwise) */
	bool paused;		/* auto-onlining was switched off for the conversion */
	bool restore_failed;	/* ... and could not be switched back on (the message says so) */
};

/*
 * Switch dax device NAME from devdax to system-ram. When the kernel would
 * online the new blocks itself (auto_online_blocks not "offline"), this
 * fails with -EBUSY unless pause_auto_online: auto-onlining is then set to
 * "offline" for the conversion and restored (auto-online-hold.h: recorded,
 * so that a run killed meanwhile is undone by the next), from before kmem
 * is loaded (when it is missing) to after the switch. Live systems only
 * (-EOPNOTSUPP); -ENOENT when libdaxctl does not know NAME. *res tells what
 * was done, also on failure.
 */
int ct_dax_convert_to_ram(struct ct_context *ctx, const char *name, bool pause_auto_online,
			 struct ct_dax_convert_result *res);

#endif
