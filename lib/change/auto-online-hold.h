/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* private to lib/change/ (unit tests in test/ may include it): other folders
 * and the CLI go through dax-convert.h, policy-region.h and blocks-session.h */
/*
 * auto-online-hold.h - keep the kernel from onlining new memory itself
 * (auto_online_blocks = offline) while cxltier adds memory that it onlines
 * movable itself: converting a dax device to system-ram, creating a region
 * for a hot-added memdev. Otherwise a kernel that onlines new blocks
 * (7.x's default, or auto_online_blocks=online) puts them in ZONE_NORMAL,
 * where unmovable pages can land at once and the memory is never removable.
 *
 * The value to put back is recorded in /run/cxltier/auto-online.held (pid,
 * start time, value) before the kernel's setting is changed, and the usual
 * ending signals are held meanwhile. A run killed while holding (SIGKILL, a
 * crash, power) leaves the record: the next cxltier that changes memory
 * (ct_auto_online_recover) puts the value back, unless the administrator
 * has set auto_online_blocks since.
 */
#ifndef CXLTIER_AUTO_ONLINE_HOLD_H
#define CXLTIER_AUTO_ONLINE_HOLD_H

#include <signal.h>
#include <stdbool.h>
#include <time.h>
#include "core/context.h"

#define CT_AUTO_ONLINE_RECORD "auto-online.held"

struct ct_auto_online_hold {
	bool held;		/* auto_online_blocks was set to offline by this hold */
	char value[32];		/* what it was, and is set back to */
	int dirfd;		/* /run/cxltier, open while held (the record is in it) */
	sigset_t old_mask;
};

/*
 * Hold: when the kernel onlines new blocks itself, record the value, hold
 * SIGINT/SIGTERM/SIGHUP/SIGQUIT and set auto_online_blocks to offline.
 * When it does not (or the setting cannot be read), nothing is done:
 * h->held false, 0. -errno with a message when the record or the setting
 * cannot be written (then nothing is held and nothing changed).
 */
int ct_auto_online_hold(struct ct_context *ctx, struct ct_auto_online_hold *h);

/*
 * Release a hold: set the value back, remove the record, restore the
 * signal mask. 0 (also when nothing was held), or -EIO with a message
 * naming the value to set by hand (the record stays for the next run).
 */
int ct_auto_online_release(struct ct_context *ctx, struct ct_auto_online_hold *h);

/*
 * A hold that a killed run left: its process gone (or another one with its
 * pid): auto_online_blocks set back to the recorded value when it still
 * reads offline, and the record removed. 1 and *restored (the value put
 * back; "" when the administrator had changed it since) when there was
 * one, 0 when there was none or its run is still going, -errno with a
 * message when it could not be undone.
 */
int ct_auto_online_recover(struct ct_context *ctx, char *restored, size_t len);

/* the record's text, and back (pure; for the tests). WRITTEN: the time of
 * cxltier's write of offline, NULL (format) or {0, 0} (parse) when the
 * record does not have it yet (written before the setting, completed after) */
void ct_auto_online_record_format(int pid, uint64_t start, const char *value, const struct timespec *written,
				  char *buf, size_t len);
int ct_auto_online_record_parse(const char *text, int *pid, uint64_t *start, char *value, size_t len,
				struct timespec *written);

#endif
