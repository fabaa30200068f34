// SPDX-License-Identifier: LGPL-2.1-or-later
/* weights-record.c - the record of a weights change under way, for the next
 * run to put the old set back (weights-record.h) */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "change/weights-record.h"
#include "core/ending-signals.h"
#include "core/rundir.h"

#define TEXT_MAX (64 + 24 * CT_WI_MAX_NODES)

int ct_weights_record_format(const struct ct_weights_record *r, char *buf, size_t len)
{
	size_t off = (size_t)snprintf(buf, len, "pid %d\nstart %llu\ncommand weights\n", r->owner.pid,
				      (unsigned long long)r->owner.start);

	if (off < len && r->has_auto)
		off += (size_t)snprintf(buf + off, len - off, "auto %d %d\n", r->auto_old, r->auto_new);
	for (unsigned i = 0; i < r->n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "node %d %u %u\n", r->v[i].node, r->v[i].old, r->v[i].new);
	return off < len ? 0 : -ENOSPC;
}

static bool number(const char *s, long lo, long hi, long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtol(s, &end, 10);
	return !errno && !*end && *v >= lo && *v <= hi;
}

/* one line after the first three: "auto A B" or "node N OLD NEW" */
static int parse_line(const char *line, struct ct_weights_record *r)
{
	char key[8], a[16], b[16], c[16], extra[2];
	int got = sscanf(line, "%7s %15s %15s %15s %1s", key, a, b, c, extra);
	long x, y, z;

	if (!strcmp(key, "auto") && got == 3 && !r->has_auto && !r->n && number(a, 0, 1, &x) && number(b, 0, 1, &y)) {
		r->has_auto = true;
		r->auto_old = x;
		r->auto_new = y;
		return 0;
	}
	if (!strcmp(key, "node") && got == 4 && r->n < CT_WI_MAX_NODES && number(a, 0, CT_WI_MAX_NODES - 1, &x) &&
	    number(b, 1, CT_WI_WEIGHT_MAX, &y) && number(c, 1, CT_WI_WEIGHT_MAX, &z)) {
		r->v[r->n++] = (struct ct_weights_change){ (int)x, (unsigned)y, (unsigned)z };
		return 0;
	}
	return -EINVAL;
}

int ct_weights_record_parse(const char *text, struct ct_weights_record *r)
{
	unsigned long long start;
	char extra[2];
	int pid, k = 0;

	memset(r, 0, sizeof(*r));
	r->dirfd = -1;
	for (const char *l = text; *l; k++) {
		char line[64];
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) : 0;

		if (!nl || n >= sizeof(line))
			return -EINVAL;	/* every line ends; none is that long */
		memcpy(line, l, n);
		line[n] = '\0';
		l = nl + 1;
		if (k == 0 && sscanf(line, "pid %d %1s", &pid, extra) == 1 && pid > 0)
			r->owner.pid = pid;
		else if (k == 1 && sscanf(line, "start %llu %1s", &start, extra) == 1 && line[6] != '-')
			r->owner.start = start;
		else if (k == 2 && !strcmp(line, "command weights"))
			;
		else if (k < 3 || parse_line(line, r))
			return -EINVAL;
	}
	return k >= 3 ? 0 : -EINVAL;
}

static int write_whole(struct ct_context *ctx, struct ct_weights_record *r)
{
	char *text = malloc(TEXT_MAX), tmp[80];
	bool created;
	size_t len;
	int fd, rc, e;

	if (!text)
		return ct_fail(&ctx->err, ENOMEM, "out of memory");
	if (ct_weights_record_format(r, text, TEXT_MAX)) {
		free(text);
		return ct_fail(&ctx->err, ENOSPC, "the weights change record is too long");
	}
	snprintf(tmp, sizeof(tmp), "%s.new", r->file);
	if ((rc = ct_rundir_open_file(&ctx->sys, r->dirfd, tmp, &fd, &created))) {
		free(text);
		return rc;
	}
	len = strlen(text);
	errno = 0;
	if (ftruncate(fd, 0) || pwrite(fd, text, len, 0) != (ssize_t)len || fsync(fd) || renameat(r->dirfd, tmp, r->dirfd, r->file)) {
		e = errno ? errno : EIO;
		close(fd);
		unlinkat(r->dirfd, tmp, 0);
		free(text);
		return ct_fail(&ctx->err, e, "cannot write %s" CT_RUNDIR "/%s: %s", ctx->sys.root, r->file, strerror(e));
	}
	close(fd);
	free(text);
	return 0;
}

int ct_weights_record_begin(struct ct_context *ctx, struct ct_weights_record *r)
{
	int rc;

	r->held = false;
	if ((rc = ct_owner_self(&ctx->sys, &r->owner))) {
		if (!ctx->sys.confined)
			return rc;
		/* a --sysroot tree's /proc is not this system's: this pid, no start time */
		ct_error_clear(&ctx->err);
		r->owner.pid = getpid();
		r->owner.start = 0;
	}
	snprintf(r->file, sizeof(r->file), CT_WEIGHTS_RECORD_PREFIX "%d", r->owner.pid);
	if ((rc = ct_rundir_open(&ctx->sys, &r->dirfd)))
		return rc;
	ct_hold_ending_signals(&r->old_mask);
	if ((rc = write_whole(ctx, r))) {
		sigprocmask(SIG_SETMASK, &r->old_mask, NULL);
		close(r->dirfd);
		r->dirfd = -1;
		return rc;
	}
	r->held = true;
	return 0;
}

void ct_weights_record_end(struct ct_weights_record *r, bool keep)
{
	if (!r->held)
		return;
	if (!keep)
		unlinkat(r->dirfd, r->file, 0);
	close(r->dirfd);
	r->dirfd = -1;
	r->held = false;
	sigprocmask(SIG_SETMASK, &r->old_mask, NULL);
}

static bool record_name(const char *name)
{
	const char *p = name + strlen(CT_WEIGHTS_RECORD_PREFIX);

	if (strncmp(name, CT_WEIGHTS_RECORD_PREFIX, strlen(CT_WEIGHTS_RECORD_PREFIX)) || !*p)
		return false;
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

/* 0 read, 1 gone meanwhile, -errno */
static int read_one(struct ct_context *ctx, int dirfd, const char *name, struct ct_weights_found *f)
{
	char *text = malloc(TEXT_MAX);
	ssize_t n;
	int fd, rc;

	if (!text)
		return ct_fail(&ctx->err, ENOMEM, "out of memory");
	if ((rc = ct_rundir_open_existing(&ctx->sys, dirfd, name, &fd))) {
		free(text);
		return rc == -ENOENT ? 1 : rc;
	}
	n = pread(fd, text, TEXT_MAX - 1, 0);
	close(fd);
	text[n > 0 ? n : 0] = '\0';
	rc = n <= 0 || n >= TEXT_MAX - 1 || ct_weights_record_parse(text, &f->rec);
	free(text);
	if (rc)
		return ct_fail(&ctx->err, EINVAL, "%s" CT_RUNDIR "/%s is not a record of a weights change as cxltier "
			       "writes it: refusing it (check the weights with 'cxltier weights', then remove it)",
			       ctx->sys.root, name);
	ct_strlcpy(f->rec.file, name, sizeof(f->rec.file));
	f->state = ct_owner_check(&ctx->sys, &f->rec.owner, NULL, 0);
	return 0;
}

int ct_weights_record_list(struct ct_context *ctx, struct ct_weights_found **out, size_t *n)
{
	struct ct_weights_found *v = NULL;
	struct dirent *de;
	int dirfd, fd, rc = 0;
	DIR *d;

	*out = NULL;
	*n = 0;
	if ((rc = ct_rundir_open(&ctx->sys, &dirfd)))
		return rc;
	fd = dup(dirfd);
	if (fd < 0 || !(d = fdopendir(fd))) {
		rc = ct_fail(&ctx->err, errno, "cannot list %s" CT_RUNDIR ": %s", ctx->sys.root, strerror(errno));
		if (fd >= 0)
			close(fd);
		close(dirfd);
		return rc;
	}
	while (!rc && (de = readdir(d))) {
		struct ct_weights_found *nv;

		if (!record_name(de->d_name))
			continue;
		if (!(nv = realloc(v, (*n + 1) * sizeof(*v)))) {
			rc = ct_fail(&ctx->err, ENOMEM, "out of memory");
			break;
		}
		v = nv;
		rc = read_one(ctx, dirfd, de->d_name, &v[*n]);
		if (rc == 0)
			(*n)++;
		else if (rc > 0)
			rc = 0;
	}
	closedir(d);
	close(dirfd);
	if (rc) {
		free(v);
		*n = 0;
		return rc;
	}
	*out = v;
	return 0;
}

int ct_weights_record_remove(struct ct_context *ctx, const char *file)
{
	int dirfd, rc;

	if (!record_name(file))
		return ct_fail(&ctx->err, EINVAL, "'%s' is not a weights change record's name", file);
	if ((rc = ct_rundir_open(&ctx->sys, &dirfd)))
		return rc;
	rc = unlinkat(dirfd, file, 0) && errno != ENOENT ? -errno : 0;
	close(dirfd);
	if (rc)
		return ct_fail(&ctx->err, -rc, "cannot remove %s" CT_RUNDIR "/%s: %s", ctx->sys.root, file, strerror(-rc));
	return 0;
}

int ct_weights_record_pending(struct ct_context *ctx)
{
	struct ct_weights_found *v;
	struct stat st;
	char dir[sizeof(ctx->sys.root) + sizeof(CT_RUNDIR)];
	size_t n;
	int pid = 0;

	snprintf(dir, sizeof(dir), "%s" CT_RUNDIR, ctx->sys.root);
	if (stat(dir, &st) || ct_weights_record_list(ctx, &v, &n)) {
		ct_error_clear(&ctx->err);
		return 0;
	}
	for (size_t i = 0; i < n && !pid; i++)
		if (v[i].state != CT_OWNER_RUNS)
			pid = v[i].rec.owner.pid;
	free(v);
	return pid;
}
