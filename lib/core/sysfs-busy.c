// SPDX-License-Identifier: LGPL-2.1-or-later
/* sysfs-busy.c - a sysfs read or write tried again while the file answers
 * EBUSY (a kernel lock taken by trylock, held by someone for a moment) */
#include <errno.h>
#include <time.h>
#include "core/sysfs.h"

int ct_sysfs_retry_busy(struct ct_sysfs *s, const struct ct_sysfs_busy *b, int (*op)(struct ct_sysfs *s, void *arg),
			void *arg)
{
	unsigned tries = b && b->tries ? b->tries : 1;
	int rc = op(s, arg);

	for (unsigned i = 1; i < tries && rc == -EBUSY; i++) {
		struct timespec ts = { b->gap_ms / 1000, (long)(b->gap_ms % 1000) * 1000000L };
		ct_error_clear(s->err);
		nanosleep(&ts, NULL);
		rc = op(s, arg);
	}
	return rc;
}

struct write_arg {
	const char *path, *val;
};

static int write_op(struct ct_sysfs *s, void *arg)
{
	const struct write_arg *a = arg;

	return ct_sysfs_write_str(s, a->path, a->val);
}

int ct_sysfs_write_str_busy(struct ct_sysfs *s, const struct ct_sysfs_busy *b, const char *path, const char *val)
{
	struct write_arg a = { path, val };

	return ct_sysfs_retry_busy(s, b, write_op, &a);
}

struct read_arg {
	const char *path;
	char *buf;
	size_t len;
};

static int read_op(struct ct_sysfs *s, void *arg)
{
	const struct read_arg *a = arg;

	return ct_sysfs_read_str(s, a->path, a->buf, a->len);
}

int ct_sysfs_read_str_busy(struct ct_sysfs *s, const struct ct_sysfs_busy *b, const char *path, char *buf, size_t len)
{
	struct read_arg a = { path, buf, len };

	return ct_sysfs_retry_busy(s, b, read_op, &a);
}
