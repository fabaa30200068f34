// SPDX-License-Identifier: LGPL-2.1-or-later
/* event-keep.c - the records a filtered run did not show, kept: see event-keep.h */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/atomic-file.h"
#include "events/event-keep.h"
#include "core/lock.h"
#include "core/rundir.h"

/* the file: MAGIC, then each record: a header, the name, the data, zeros to a
 * multiple of 8 bytes. Native byte order: the file never leaves this boot */
#define MAGIC "CXLTKEP1"
#define MAGIC_LEN 8

struct header {
	uint32_t len;		/* the whole record, a multiple of 8 */
	uint32_t size;		/* its data */
	uint64_t ts, real_time;
	int32_t cpu;
	uint16_t name_len;
	uint16_t zero;
};

static size_t record_len(size_t name_len, size_t size)
{
	return (sizeof(struct header) + name_len + size + 7) & ~(size_t)7;
}

static bool name_ok(const char *name, size_t len)
{
	if (!len || len >= sizeof(((struct ct_event_keep_record *)0)->event))
		return false;
	for (size_t i = 0; i < len; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= '0' && name[i] <= '9') || name[i] == '_'))
			return false;
	return true;
}

void ct_event_keep_free(struct ct_event_keep *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->r[i].data);
	if (k->r)
		free(k->r - k->head);
	memset(k, 0, sizeof(*k));
}

/* the oldest record dropped: r moves on one slot, nothing is shifted */
static void drop_oldest(struct ct_event_keep *k)
{
	free(k->r[0].data);
	k->bytes -= record_len(strlen(k->r[0].event), k->r[0].size);
	k->r++;
	k->head++;
	k->n--;
	k->dropped++;
}

/* a free slot after the last record: the dropped slots reused when there
 * are at least as many as records (the move is paid for by those drops),
 * else the array grown */
static int make_room(struct ct_event_keep *k)
{
	struct ct_event_keep_record *base = k->r ? k->r - k->head : NULL;

	if (k->head + k->n < k->cap)
		return 0;
	if (k->head && k->head >= k->n) {
		memmove(base, k->r, k->n * sizeof(*k->r));
		k->moved += k->n;
		k->r = base;
		k->head = 0;
		return 0;
	}
	size_t nc = k->cap ? 2 * k->cap : 32;
	if (!(base = realloc(base, nc * sizeof(*base))))
		return -ENOMEM;
	k->r = base + k->head;
	k->cap = nc;
	return 0;
}

int ct_event_keep_add(struct ct_event_keep *k, const char *event, uint64_t ts, uint64_t real_time, int cpu, const void *data,
		uint32_t size)
{
	size_t len = strlen(event), need = record_len(len, size);
	struct ct_event_keep_record *r;

	if (!name_ok(event, len) || size > CT_KEPT_MAX_RECORD)
		return -EINVAL;
	if (make_room(k))
		return -ENOMEM;
	r = &k->r[k->n];
	memset(r, 0, sizeof(*r));
	if (!(r->data = malloc(size ? size : 1)))
		return -ENOMEM;
	memcpy(r->event, event, len);
	memcpy(r->data, data, size);
	r->ts = ts;
	r->real_time = real_time;
	r->cpu = cpu;
	r->size = size;
	if (!k->bytes)
		k->bytes = MAGIC_LEN;
	k->bytes += need;
	k->n++;
	while (k->bytes > CT_KEPT_MAX_BYTES && k->n > 1)
		drop_oldest(k);
	return 0;
}

int ct_event_keep_parse(const void *buf, size_t len, struct ct_event_keep *k, size_t *bad_at)
{
	const uint8_t *p = buf;
	size_t off = MAGIC_LEN;
	int rc;

	*bad_at = 0;
	if (!len)
		return 0;
	if (len < MAGIC_LEN || memcmp(p, MAGIC, MAGIC_LEN))
		return -EBADMSG;
	while (off < len) {
		struct header h;
		char name[sizeof(((struct ct_event_keep_record *)0)->event)];
		if (len - off < sizeof(h))
			goto bad;
		memcpy(&h, p + off, sizeof(h));
		if (h.zero || !h.name_len || h.name_len >= sizeof(name) || h.size > CT_KEPT_MAX_RECORD ||
		    h.len != record_len(h.name_len, h.size) || h.len > len - off)
			goto bad;
		memcpy(name, p + off + sizeof(h), h.name_len);
		name[h.name_len] = '\0';
		if (!name_ok(name, h.name_len))
			goto bad;
		if ((rc = ct_event_keep_add(k, name, h.ts, h.real_time, h.cpu, p + off + sizeof(h) + h.name_len, h.size)))
			return rc;
		off += h.len;
	}
	return 0;
bad:
	*bad_at = off;
	return -EBADMSG;
}

int ct_event_keep_serialize(const struct ct_event_keep *k, uint8_t **buf, size_t *len)
{
	size_t total = k->n ? k->bytes : MAGIC_LEN, off = MAGIC_LEN;
	uint8_t *p;

	if (!(p = calloc(1, total)))
		return -ENOMEM;
	memcpy(p, MAGIC, MAGIC_LEN);
	for (size_t i = 0; i < k->n; i++) {
		const struct ct_event_keep_record *r = &k->r[i];
		struct header h = { 0 };
		h.name_len = (uint16_t)strlen(r->event);
		h.size = r->size;
		h.len = (uint32_t)record_len(h.name_len, h.size);
		h.ts = r->ts;
		h.real_time = r->real_time;
		h.cpu = r->cpu;
		memcpy(p + off, &h, sizeof(h));
		memcpy(p + off + sizeof(h), r->event, h.name_len);
		memcpy(p + off + sizeof(h) + h.name_len, r->data, r->size);
		off += h.len;
	}
	*buf = p;
	*len = total;
	return 0;
}

int ct_event_keep_load(struct ct_sysfs *s, unsigned timeout_ms, volatile sig_atomic_t *stop, int *lock_fd,
		 struct ct_event_keep *k, size_t *damaged)
{
	uint8_t *buf = NULL;
	size_t len = 0, bad_at;
	int dirfd, fd, rc;

	memset(k, 0, sizeof(*k));
	*damaged = 0;
	if ((rc = ct_lock_acquire_named(s, CT_KEPT_LOCK, "reading CXL events", timeout_ms, stop, lock_fd)))
		return rc;
	if ((rc = ct_rundir_open(s, &dirfd)))
		goto fail;
	rc = ct_rundir_open_existing(s, dirfd, CT_KEPT_FILE, &fd);
	close(dirfd);
	if (rc == -ENOENT)
		return 0;	/* nothing kept */
	if (rc)
		goto fail;
	/* no store this code writes is larger: a larger one is not read whole */
	rc = ct_sysfs_read_fd(s, fd, CT_RUNDIR "/" CT_KEPT_FILE, CT_KEPT_MAX_BYTES, &buf, &len);
	close(fd);
	if (rc == -EFBIG)
		rc = ct_fail(s->err, EFBIG, "%s" CT_RUNDIR "/" CT_KEPT_FILE " is larger than the %u MiB that cxltier "
			     "keeps: it is not the store cxltier wrote. Nothing was read; move it away to read events",
			     s->root, CT_KEPT_MAX_BYTES >> 20);
	if (rc)
		goto fail;
	rc = ct_event_keep_parse(buf, len, k, &bad_at);
	free(buf);
	if (rc == -EBADMSG) {
		*damaged = len - bad_at;
		rc = 0;
	}
	if (rc) {
		ct_event_keep_free(k);
		rc = ct_fail(s->err, -rc, "cannot load %s" CT_RUNDIR "/" CT_KEPT_FILE ": %s", s->root, strerror(-rc));
		goto fail;
	}
	return 0;
fail:
	ct_lock_release(*lock_fd);
	*lock_fd = -1;
	return rc;
}

int ct_event_keep_store(struct ct_sysfs *s, const struct ct_event_keep *k)
{
	char path[4096];
	uint8_t *buf;
	size_t len;
	int rc;

	if ((size_t)snprintf(path, sizeof(path), "%s" CT_RUNDIR "/" CT_KEPT_FILE, s->root) >= sizeof(path))
		return ct_fail(s->err, ENAMETOOLONG, "%s: too long a root", s->root);
	if (!k->n) {
		if (unlink(path) && errno != ENOENT)
			return ct_fail(s->err, errno, "cannot remove %s: %s", path, strerror(errno));
		return 0;
	}
	if ((rc = ct_event_keep_serialize(k, &buf, &len)))
		return ct_fail(s->err, -rc, "out of memory");
	rc = ct_file_write_atomic(s->err, path, (const char *)buf, len, 0600);
	free(buf);
	return rc;
}
