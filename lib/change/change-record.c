// SPDX-License-Identifier: LGPL-2.1-or-later
/* change-record.c - the record of a region change under way, in the private
 * run directory, for the next run to finish or undo it (change-record.h) */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "change/change-record.h"
#include "core/rundir.h"
#include "core/ending-signals.h"
#include "mm/numa.h"

const char *ct_change_record_command(enum ct_change_kind k)
{
	return k == CT_CHANGE_DESTROY ? "destroy" : k == CT_CHANGE_REONLINE ? "reonline" :
	       k == CT_CHANGE_TIERING ? "tiering" : "create";
}

void ct_change_record_format(const struct ct_change_record *r, char *buf, size_t len)
{
	size_t off;

	off = (size_t)snprintf(buf, len, "pid %d\nstart %llu\ncommand %s\n", r->owner.pid,
			       (unsigned long long)r->owner.start, ct_change_record_command(r->kind));
	if (off < len && r->kind == CT_CHANGE_REONLINE) {
		snprintf(buf + off, len - off, "block %s\n", r->block);
		return;
	}
	if (r->kind == CT_CHANGE_TIERING) {
		for (unsigned i = 0; i < r->nswitches && off < len; i++)
			off += (size_t)snprintf(buf + off, len - off, "%s %lld %lld\n",
						ct_tiering_name(r->switches[i].sw), (long long)r->switches[i].from,
						(long long)r->switches[i].to);
		return;
	}
	if (off < len)
		off += (size_t)snprintf(buf + off, len - off, "root %s\n", r->root);
	if (off < len && r->region[0])
		off += (size_t)snprintf(buf + off, len - off, "region %s\n", r->region);
	for (unsigned i = 0; i < r->ndecoders && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "decoder %s%s%s\n", r->decoders[i],
					r->memdevs[i][0] ? " " : "", r->memdevs[i]);
}

/* a tiering switch's line: "demotion 0 1"; false when it is none */
static bool switch_line(struct ct_change_record *r, const char *key, const char *a, const char *b, int got)
{
	char *e1, *e2;
	long long from, to;

	for (int w = 0; w < CT_TIERING_NSWITCHES; w++) {
		if (strcmp(key, ct_tiering_name(w)))
			continue;
		from = strtoll(a, &e1, 10);
		to = strtoll(b, &e2, 10);
		if (got != 3 || *e1 || *e2 || from < 0 || to < 0 || r->nswitches >= CT_CHANGE_MAX_SWITCHES)
			return false;
		for (unsigned i = 0; i < r->nswitches; i++)
			if (r->switches[i].sw == w)
				return false;	/* a switch once */
		r->switches[r->nswitches++] = (struct ct_change_switch){ .sw = w, .from = from, .to = to };
		return true;
	}
	return false;
}

/* a device name as sysfs has them: "decoder2.0", "region3", "mem0" */
static bool name_ok(const char *s, const char *prefix)
{
	size_t p = strlen(prefix);

	if (strncmp(s, prefix, p) || !s[p])
		return false;
	for (s += p; *s; s++)
		if (!(*s >= '0' && *s <= '9') && *s != '.')
			return false;
	return true;
}

int ct_change_record_parse(const char *text, struct ct_change_record *r)
{
	unsigned long long start;
	bool pid = false, st = false, cmd = false;
	char key[16], a[CT_NAME], b[CT_NAME], extra[2];

	memset(r, 0, sizeof(*r));
	r->dirfd = -1;
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		char line[256];
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) : strlen(l);
		int got;

		if (!nl || n >= sizeof(line))
			return -EINVAL;	/* every line ends; none is that long */
		memcpy(line, l, n);
		line[n] = '\0';
		b[0] = '\0';
		got = sscanf(line, "%15s %63s %63s %1s", key, a, b, extra);
		if (got < 2 || got > 3)
			return -EINVAL;
		if (!strcmp(key, "pid") && got == 2 && !pid) {
			char *end;
			long v = strtol(a, &end, 10);
			if (*end || v <= 0 || v > 1 << 22)
				return -EINVAL;
			r->owner.pid = (int)v;
			pid = true;
		} else if (!strcmp(key, "start") && got == 2 && !st) {
			char *end;
			start = strtoull(a, &end, 10);
			if (*end || a[0] == '-')
				return -EINVAL;
			r->owner.start = start;
			st = true;
		} else if (!strcmp(key, "command") && got == 2 && !cmd) {
			if (!strcmp(a, "create"))
				r->kind = CT_CHANGE_CREATE;
			else if (!strcmp(a, "destroy"))
				r->kind = CT_CHANGE_DESTROY;
			else if (!strcmp(a, "reonline"))
				r->kind = CT_CHANGE_REONLINE;
			else if (!strcmp(a, "tiering"))
				r->kind = CT_CHANGE_TIERING;
			else
				return -EINVAL;
			cmd = true;
		} else if (!strcmp(key, "root") && got == 2 && !r->root[0] && name_ok(a, "decoder")) {
			ct_strlcpy(r->root, a, sizeof(r->root));
		} else if (!strcmp(key, "block") && got == 2 && !r->block[0] && name_ok(a, "memory") && !strchr(a, '.')) {
			ct_strlcpy(r->block, a, sizeof(r->block));
		} else if (!strcmp(key, "region") && got == 2 && !r->region[0] && name_ok(a, "region")) {
			ct_strlcpy(r->region, a, sizeof(r->region));
		} else if (!strcmp(key, "decoder") && r->ndecoders < CT_MAX_TARGETS && name_ok(a, "decoder") &&
			   (got == 2 || name_ok(b, "mem"))) {
			ct_strlcpy(r->decoders[r->ndecoders], a, CT_NAME);
			ct_strlcpy(r->memdevs[r->ndecoders], got == 3 ? b : "", CT_NAME);
			r->ndecoders++;
		} else if (!switch_line(r, key, a, b, got)) {
			return -EINVAL;
		}
	}
	if (!pid || !st || !cmd)
		return -EINVAL;
	/* a tiering change names its switches and nothing else; the others none */
	if (r->kind == CT_CHANGE_TIERING)
		return r->nswitches && !r->block[0] && !r->root[0] && !r->region[0] && !r->ndecoders ? 0 : -EINVAL;
	if (r->nswitches)
		return -EINVAL;
	/* a reonline names its block and nothing of a region; a region change
	 * its root and no block */
	if (r->kind == CT_CHANGE_REONLINE)
		return r->block[0] && !r->root[0] && !r->region[0] && !r->ndecoders ? 0 : -EINVAL;
	return r->root[0] && !r->block[0] ? 0 : -EINVAL;
}

void ct_change_record_init(struct ct_change_record *r, enum ct_change_kind k, const char *root)
{
	memset(r, 0, sizeof(*r));
	r->dirfd = -1;
	r->kind = k;
	ct_strlcpy(r->root, root, sizeof(r->root));
}

void ct_change_record_init_reonline(struct ct_change_record *r, uint64_t id)
{
	memset(r, 0, sizeof(*r));
	r->dirfd = -1;
	r->kind = CT_CHANGE_REONLINE;
	snprintf(r->block, sizeof(r->block), "memory%llu", (unsigned long long)id);
}

void ct_change_record_init_tiering(struct ct_change_record *r)
{
	memset(r, 0, sizeof(*r));
	r->dirfd = -1;
	r->kind = CT_CHANGE_TIERING;
}

void ct_change_record_add_switch(struct ct_change_record *r, int sw, int64_t from, int64_t to)
{
	if (r->nswitches >= CT_CHANGE_MAX_SWITCHES)
		return;
	r->switches[r->nswitches++] = (struct ct_change_switch){ .sw = sw, .from = from, .to = to };
}

void ct_change_record_add(struct ct_change_record *r, const char *decoder, const char *memdev)
{
	if (r->ndecoders >= CT_MAX_TARGETS || !decoder || !decoder[0])
		return;
	ct_strlcpy(r->decoders[r->ndecoders], decoder, CT_NAME);
	ct_strlcpy(r->memdevs[r->ndecoders], memdev ? memdev : "", CT_NAME);
	r->ndecoders++;
}

/* whole or not at all: FILE.new written, fsynced, renamed over FILE */
static int write_whole(struct ct_context *ctx, struct ct_change_record *r)
{
	char text[2048], tmp[80];
	bool created;
	size_t len;
	int fd, rc, e;

	snprintf(tmp, sizeof(tmp), "%s.new", r->file);
	if ((rc = ct_rundir_open_file(&ctx->sys, r->dirfd, tmp, &fd, &created)))
		return rc;
	ct_change_record_format(r, text, sizeof(text));
	len = strlen(text);
	errno = 0;
	if (ftruncate(fd, 0) || pwrite(fd, text, len, 0) != (ssize_t)len || fsync(fd)) {
		e = errno ? errno : EIO;
		close(fd);
		unlinkat(r->dirfd, tmp, 0);
		return ct_fail(&ctx->err, e, "cannot write %s" CT_RUNDIR "/%s: %s", ctx->sys.root, tmp, strerror(e));
	}
	close(fd);
	if (renameat(r->dirfd, tmp, r->dirfd, r->file)) {
		e = errno;
		unlinkat(r->dirfd, tmp, 0);
		return ct_fail(&ctx->err, e, "cannot write %s" CT_RUNDIR "/%s: %s", ctx->sys.root, r->file, strerror(e));
	}
	return 0;
}

int ct_change_record_begin(struct ct_context *ctx, struct ct_change_record *r)
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
	snprintf(r->file, sizeof(r->file), CT_CHANGE_RECORD_PREFIX "%d", r->owner.pid);
	if ((rc = ct_rundir_open(&ctx->sys, &r->dirfd)))
		return rc;
	/* an ending signal between two kernel writes would leave the change
	 * half done (a reonline's run makes its online half whatever comes:
	 * its offline write stays interruptible) */
	r->signals_held = r->kind != CT_CHANGE_REONLINE;
	if (r->signals_held)
		ct_hold_ending_signals(&r->old_mask);
	if ((rc = write_whole(ctx, r))) {
		if (r->signals_held)
			sigprocmask(SIG_SETMASK, &r->old_mask, NULL);
		r->signals_held = false;
		close(r->dirfd);
		r->dirfd = -1;
		return rc;
	}
	r->held = true;
	return 0;
}

int ct_change_record_update(struct ct_context *ctx, struct ct_change_record *r)
{
	return r->held ? write_whole(ctx, r) : 0;
}

void ct_change_record_end(struct ct_change_record *r, bool keep)
{
	if (!r->held)
		return;
	if (!keep)
		unlinkat(r->dirfd, r->file, 0);
	close(r->dirfd);
	r->dirfd = -1;
	r->held = false;
	if (r->signals_held)
		sigprocmask(SIG_SETMASK, &r->old_mask, NULL);
	r->signals_held = false;
}

/* NAME is a record's: "region-change." and digits (not a .new being written) */
static bool record_name(const char *name)
{
	const char *p = name + strlen(CT_CHANGE_RECORD_PREFIX);

	if (strncmp(name, CT_CHANGE_RECORD_PREFIX, strlen(CT_CHANGE_RECORD_PREFIX)) || !*p)
		return false;
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

static int read_one(struct ct_context *ctx, int dirfd, const char *name, struct ct_change_found *f)
{
	char text[2048];
	ssize_t n;
	int fd, rc;

	if ((rc = ct_rundir_open_existing(&ctx->sys, dirfd, name, &fd)))
		return rc == -ENOENT ? 1 : rc;	/* gone meanwhile: not there */
	n = pread(fd, text, sizeof(text) - 1, 0);
	close(fd);
	text[n > 0 ? n : 0] = '\0';
	if (n <= 0 || (size_t)n >= sizeof(text) - 1 || ct_change_record_parse(text, &f->rec))
		return ct_fail(&ctx->err, EINVAL, "%s" CT_RUNDIR "/%s is not a record of a region change as cxltier "
			       "writes it: refusing it (check the region and decoders it names with 'cxltier doctor', "
			       "then remove it)", ctx->sys.root, name);
	ct_strlcpy(f->rec.file, name, sizeof(f->rec.file));
	f->state = ct_owner_check(&ctx->sys, &f->rec.owner, NULL, 0);
	return 0;
}

int ct_change_record_list(struct ct_context *ctx, struct ct_change_found **out, size_t *n)
{
	struct ct_change_found *v = NULL;
	struct dirent *de;
	size_t cap = 0;
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
	while ((de = readdir(d)) && !rc) {
		if (!record_name(de->d_name))
			continue;
		if (*n == cap) {
			struct ct_change_found *nv = realloc(v, (cap = cap ? cap * 2 : 4) * sizeof(*v));
			if (!nv) {
				rc = ct_fail(&ctx->err, ENOMEM, "out of memory");
				break;
			}
			v = nv;
		}
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

int ct_change_record_remove(struct ct_context *ctx, const char *file)
{
	int dirfd, rc;

	if (!record_name(file))
		return ct_fail(&ctx->err, EINVAL, "'%s' is not a region change record's name", file);
	if ((rc = ct_rundir_open(&ctx->sys, &dirfd)))
		return rc;
	rc = unlinkat(dirfd, file, 0) && errno != ENOENT ? -errno : 0;
	close(dirfd);
	if (rc)
		return ct_fail(&ctx->err, -rc, "cannot remove %s" CT_RUNDIR "/%s: %s", ctx->sys.root, file, strerror(-rc));
	return 0;
}
