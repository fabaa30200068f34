// SPDX-License-Identifier: LGPL-2.1-or-later
/* auto-online-hold.c - the kernel's own onlining held off while cxltier
 * adds memory it onlines itself, recorded so that a killed run's hold is
 * undone by the next (auto-online-hold.h) */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "change/auto-online-hold.h"
#include "core/kernel.h"
#include "core/process.h"
#include "core/rundir.h"
#include "core/ending-signals.h"

void ct_auto_online_record_format(int pid, uint64_t start, const char *value, const struct timespec *written,
				  char *buf, size_t len)
{
	int n = snprintf(buf, len, "pid %d\nstart %" PRIu64 "\nvalue %s\n", pid, start, value);

	if (written && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "written %lld.%09ld\n", (long long)written->tv_sec,
			 written->tv_nsec);
}

int ct_auto_online_record_parse(const char *text, int *pid, uint64_t *start, char *value, size_t len,
				struct timespec *written)
{
	char v[32] = "";
	unsigned long long st = 0;
	long long sec = 0;
	long nsec = 0;
	int got = 0;

	*pid = 0;
	*written = (struct timespec){ 0, 0 };
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		got += sscanf(l, "pid %d", pid) == 1;
		got += sscanf(l, "start %llu", &st) == 1;
		got += sscanf(l, "value %31[a-z_]", v) == 1;
		if (sscanf(l, "written %lld.%9ld", &sec, &nsec) == 2 && sec > 0 && nsec >= 0 && nsec < 1000000000L)
			*written = (struct timespec){ (time_t)sec, nsec };
	}
	*start = st;
	if (got != 3 || *pid <= 0 || !v[0])
		return -EINVAL;
	snprintf(value, len, "%s", v);
	return 0;
}

/* the record, written whole (O_NOFOLLOW, root's, one link: rundir.h) */
static int record_write(struct ct_context *ctx, int dirfd, const char *value, const struct timespec *written)
{
	char text[160], comm[32];
	uint64_t start = 0;
	bool created;
	ssize_t n;
	int fd, rc;

	if (ct_proc_identity(&ctx->sys, getpid(), comm, sizeof(comm), &start))
		return ct_fail(&ctx->err, ESRCH, "cannot read this process's own /proc/%d/stat", (int)getpid());
	if ((rc = ct_rundir_open_file(&ctx->sys, dirfd, CT_AUTO_ONLINE_RECORD, &fd, &created)))
		return rc;
	ct_auto_online_record_format(getpid(), start, value, written, text, sizeof(text));
	n = ftruncate(fd, 0) ? -1 : pwrite(fd, text, strlen(text), 0);
	rc = n == (ssize_t)strlen(text) && !fsync(fd) ? 0 : errno ? errno : EIO;
	close(fd);
	if (rc) {
		unlinkat(dirfd, CT_AUTO_ONLINE_RECORD, 0);
		return ct_fail(&ctx->err, rc, "cannot write " CT_RUNDIR "/" CT_AUTO_ONLINE_RECORD ": %s", strerror(rc));
	}
	return 0;
}

int ct_auto_online_hold(struct ct_context *ctx, struct ct_auto_online_hold *h)
{
	struct ct_auto_online ao;
	int rc;

	memset(h, 0, sizeof(*h));
	h->dirfd = -1;
	ct_kernel_auto_online(ctx, &ao);
	if (!ao.known || !ao.onlines)
		return 0;
	snprintf(h->value, sizeof(h->value), "%s", ao.blocks);
	if ((rc = ct_rundir_open(&ctx->sys, &h->dirfd)))
		return rc;
	/* a signal between holding and releasing would leave it offline */
	ct_hold_ending_signals(&h->old_mask);
	if ((rc = record_write(ctx, h->dirfd, h->value, NULL)) == 0 && (rc = ct_kernel_set_auto_online(ctx, "offline"))) {
		unlinkat(h->dirfd, CT_AUTO_ONLINE_RECORD, 0);
		rc = ct_fail(&ctx->err, -rc, "cannot set auto_online_blocks to offline (it is %s): %s", h->value,
			     strerror(-rc));
	}
	if (rc) {
		close(h->dirfd);
		h->dirfd = -1;
		sigprocmask(SIG_SETMASK, &h->old_mask, NULL);
		return rc;
	}
	h->held = true;
	/* the time of this write, which a later one by someone else changes;
	 * without it (a kill before, or a record that cannot be rewritten) a
	 * recovery goes by the value alone */
	struct timespec written;
	if (ct_kernel_auto_online_written(ctx, &written) == 0 && record_write(ctx, h->dirfd, h->value, &written))
		ct_error_clear(&ctx->err);
	return 0;
}

int ct_auto_online_release(struct ct_context *ctx, struct ct_auto_online_hold *h)
{
	int rc = 0;

	if (!h->held)
		return 0;
	if (ct_kernel_set_auto_online(ctx, h->value))
		rc = ct_fail(&ctx->err, EIO, "auto_online_blocks could not be set back to '%s' (cxltier held it at "
			     "offline): set it by hand, 'echo %s > /sys/devices/system/memory/auto_online_blocks'",
			     h->value, h->value);
	else
		unlinkat(h->dirfd, CT_AUTO_ONLINE_RECORD, 0);
	close(h->dirfd);
	h->dirfd = -1;
	h->held = false;
	sigprocmask(SIG_SETMASK, &h->old_mask, NULL);
	return rc;
}

/* the record a killed run left, read: 0, -ENOENT when there is none, or
 * -errno with a message (a record that fails the checks of rundir.h) */
static int record_read(struct ct_context *ctx, int dirfd, char *text, size_t len)
{
	ssize_t n;
	int fd, rc;

	if ((rc = ct_rundir_open_existing(&ctx->sys, dirfd, CT_AUTO_ONLINE_RECORD, &fd)))
		return rc;
	n = pread(fd, text, len - 1, 0);
	close(fd);
	text[n > 0 ? n : 0] = '\0';
	return 0;
}

int ct_auto_online_recover(struct ct_context *ctx, char *restored, size_t len)
{
	char text[256], value[32], comm[32];
	struct timespec written, now;
	struct ct_auto_online ao;
	uint64_t start, alive_start = 0;
	int dirfd, pid, rc;

	if (len)
		restored[0] = '\0';
	if ((rc = ct_rundir_open(&ctx->sys, &dirfd)))
		return rc;
	if ((rc = record_read(ctx, dirfd, text, sizeof(text)))) {
		close(dirfd);
		return rc == -ENOENT ? 0 : rc;
	}
	if (ct_auto_online_record_parse(text, &pid, &start, value, sizeof(value), &written)) {
		unlinkat(dirfd, CT_AUTO_ONLINE_RECORD, 0);	/* not ours to act on: half-written */
		close(dirfd);
		return 0;
	}
	if (ct_proc_identity(&ctx->sys, pid, comm, sizeof(comm), &alive_start) == 0 && alive_start == start) {
		close(dirfd);
		return 0;	/* its run is still going */
	}
	ct_error_clear(&ctx->err);
	ct_kernel_auto_online(ctx, &ao);
	/* still as the killed run left it: offline, and (when the record has
	 * the time of its write) not written since */
	bool since = written.tv_sec && (ct_kernel_auto_online_written(ctx, &now) ||
					now.tv_sec != written.tv_sec || now.tv_nsec != written.tv_nsec);
	if (ao.known && !ao.onlines && !since) {
		if ((rc = ct_kernel_set_auto_online(ctx, value))) {
			close(dirfd);
			return ct_fail(&ctx->err, -rc, "a killed cxltier (pid %d) left auto_online_blocks at offline; "
				       "setting it back to '%s' failed: %s", pid, value, strerror(-rc));
		}
		snprintf(restored, len, "%s", value);
	}
	ct_error_clear(&ctx->err);
	unlinkat(dirfd, CT_AUTO_ONLINE_RECORD, 0);
	close(dirfd);
	return 1;
}
