// SPDX-License-Identifier: LGPL-2.1-or-later
/* dax-users.c - who has a dax device open or mapped (dax-users.h) */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "core/context.h"
#include "change/dax-users.h"
#include "core/process.h"

/* a mapped file as /proc/PID/maps names it (its filesystem's device and its
 * inode), and whether it is the dax device: the shared libraries every
 * process maps are looked at once */
struct seen {
	unsigned long fsdev;
	unsigned long long ino;
	bool dax;
};

struct seen_set {
	struct seen *v;
	size_t n, cap;
};

static int seen_cmp(const void *a, const void *b)
{
	const struct seen *x = a, *y = b;

	if (x->fsdev != y->fsdev)
		return x->fsdev < y->fsdev ? -1 : 1;
	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

static struct seen *seen_find(struct seen_set *ss, unsigned long fsdev, unsigned long long ino)
{
	struct seen key = { fsdev, ino, false };

	return ss->n ? bsearch(&key, ss->v, ss->n, sizeof(key), seen_cmp) : NULL;
}

static void seen_add(struct seen_set *ss, unsigned long fsdev, unsigned long long ino, bool dax)
{
	struct seen key = { fsdev, ino, dax };
	size_t k;

	if (ss->n == ss->cap) {
		size_t cap = ss->cap ? 2 * ss->cap : 64;
		struct seen *v = realloc(ss->v, cap * sizeof(*v));
		if (!v)
			return;	/* looked at again next time */
		ss->v = v;
		ss->cap = cap;
	}
	for (k = ss->n; k > 0 && seen_cmp(&ss->v[k - 1], &key) > 0; k--)
		ss->v[k] = ss->v[k - 1];
	ss->v[k] = key;
	ss->n++;
}

/* is path the device (a character device with its number)? 1 yes, 0 another
 * file, a negative errno when it cannot be looked at */
static int is_dev(struct ct_sysfs *s, const char *path, dev_t devt)
{
	struct stat st;
	int rc = ct_sysfs_stat(s, path, &st);

	return rc ? rc : S_ISCHR(st.st_mode) && st.st_rdev == devt;
}

/* bytes of pid's mappings of the device */
static uint64_t mapped(struct ct_sysfs *s, int pid, dev_t devt, struct seen_set *ss)
{
	char path[96], *text, *save;
	uint64_t bytes = 0;

	if (ct_sysfs_read_text(s, ct_path(path, sizeof(path), "/proc/%d/maps", pid), &text)) {
		ct_error_clear(s->err);
		return 0;
	}
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		unsigned long long start, end, ino;
		unsigned maj, min;
		struct seen *k;
		bool dax;
		/* start-end perms offset major:minor inode path */
		if (sscanf(l, "%llx-%llx %*s %*x %x:%x %llu", &start, &end, &maj, &min, &ino) != 5 || !ino)
			continue;
		if ((k = seen_find(ss, makedev(maj, min), ino)))
			dax = k->dax;
		else {
			/* the mapped file itself (CAP_SYS_ADMIN); not known: looked at again */
			int rc = is_dev(s, ct_path(path, sizeof(path), "/proc/%d/map_files/%llx-%llx", pid, start, end),
					devt);
			if (rc < 0)
				continue;
			dax = rc;
			seen_add(ss, makedev(maj, min), ino, dax);
		}
		if (dax)
			bytes += end - start;
	}
	free(text);
	return bytes;
}

/* has pid a file descriptor on the device? */
static bool has_open(struct ct_sysfs *s, int pid, dev_t devt)
{
	char dir[64], path[96], **names;
	size_t count;
	bool found = false;

	if (ct_sysfs_list(s, ct_path(dir, sizeof(dir), "/proc/%d/fd", pid), NULL, &names, &count)) {
		ct_error_clear(s->err);
		return false;
	}
	for (size_t i = 0; i < count && !found; i++)
		found = is_dev(s, ct_path(path, sizeof(path), "%s/%s", dir, names[i]), devt) > 0;
	ct_strv_free(names, count);
	return found;
}

int ct_dax_users(struct ct_context *ctx, const char *name, size_t max, struct ct_pinner **out, size_t *n,
		 size_t *total)
{
	struct ct_sysfs *s = &ctx->sys;
	struct ct_procset set = { 0 };
	struct seen_set ss = { NULL, 0, 0 };
	struct ct_pinner *p = NULL;
	char path[128], num[32];
	unsigned maj, min;
	dev_t devt;
	size_t k = 0;

	*out = NULL;
	*n = *total = 0;
	if (ct_sysfs_read_str(s, ct_path(path, sizeof(path), "/sys/bus/dax/devices/%s/dev", name), num, sizeof(num)) ||
	    sscanf(num, "%u:%u", &maj, &min) != 2) {
		ct_error_clear(s->err);
		return 0;	/* no character device: nothing to open */
	}
	devt = makedev(maj, min);
	/* every process is held by a pidfd while it is looked at: one that
	 * could not be for want of file descriptors would go unseen */
	ct_nofile_raise();
	if (ct_procset_add_all(s, &set)) {
		ct_procset_free(&set);
		if (ctx->err.code == ENOMEM)
			return -ENOMEM;
		ct_error_clear(s->err);	/* no /proc (a captured tree) */
		return 0;
	}
	if (set.count && !(p = calloc(set.count, sizeof(*p)))) {
		ct_procset_free(&set);
		return ct_fail(&ctx->err, ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < set.count; i++) {
		const struct ct_process *pr = &set.proc[i];
		uint64_t b;
		if (pr->err == -EMFILE || pr->err == -ENFILE) {
			int e = -pr->err;
			free(p);
			ct_procset_free(&set);
			return ct_fail(&ctx->err, e, "cannot tell who has %s open: %s", name, pr->why);
		}
		if (pr->err || pr->kernel_thread)
			continue;
		b = pr->no_mm ? 0 : mapped(s, pr->pid, devt, &ss);
		if (!b && !has_open(s, pr->pid, devt))
			continue;
		p[k].pid = pr->pid;
		ct_strlcpy(p[k].comm, pr->comm, sizeof(p[k].comm));
		p[k++].bytes = b;
	}
	ct_error_clear(s->err);	/* processes that ended or could not be read */
	free(ss.v);
	ct_procset_free(&set);
	ct_memdev_remove_pinners_sort(p, k);
	*total = k;
	*n = k < max ? k : max;
	*out = p;
	return 0;
}

#define MAX_NAMED 8

int ct_dax_users_check_unused(struct ct_context *ctx, const char *name, const char *doing)
{
	struct ct_pinner *p;
	size_t n, total, off = 0;
	char who[640] = "";
	int rc = ct_dax_users(ctx, name, MAX_NAMED, &p, &n, &total);

	if (rc || !total) {
		free(p);
		return rc;
	}
	for (size_t i = 0; i < n && off < sizeof(who); i++) {
		if (p[i].bytes)
			off += snprintf(who + off, sizeof(who) - off, "%sprocess %d (%s) has %" PRIu64 " MiB of it mapped",
					i ? ", " : "", p[i].pid, p[i].comm, (p[i].bytes + (1 << 20) - 1) >> 20);
		else
			off += snprintf(who + off, sizeof(who) - off, "%sprocess %d (%s) has it open", i ? ", " : "",
					p[i].pid, p[i].comm);
	}
	if (total > n && off < sizeof(who))
		snprintf(who + off, sizeof(who) - off, " and %zu more", total - n);
	free(p);
	return ct_fail(&ctx->err, EBUSY, "%s is in use: %s; %s would take the device from them (the kernel revokes "
		       "their mappings: their next access is killed by SIGBUS): stop them, or have them unmap and close "
		       "/dev/%s, then run this again", name, who, doing, name);
}
