// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/context.h"
#include "mm/memblock.h"

static const char *const state_names[] = {
	[CT_BLOCK_OFFLINE] = "offline",
	[CT_BLOCK_ONLINE] = "online",
	[CT_BLOCK_GOING_OFFLINE] = "going-offline",
	[CT_BLOCK_UNKNOWN] = "unknown",
};

static const char *const zone_names[] = {
	[CT_ZONE_NONE] = "none", [CT_ZONE_MOVABLE] = "Movable", [CT_ZONE_NORMAL] = "Normal",
	[CT_ZONE_DMA32] = "DMA32", [CT_ZONE_DMA] = "DMA", [CT_ZONE_DEVICE] = "Device",
	[CT_ZONE_OTHER] = "other",
};

enum ct_block_state ct_block_state_parse(const char *s)
{
	for (unsigned i = 0; i < CT_BLOCK_UNKNOWN; i++)
		if (strcmp(s, state_names[i]) == 0)
			return i;
	return CT_BLOCK_UNKNOWN;
}

const char *ct_block_state_name(enum ct_block_state st)
{
	return state_names[st <= CT_BLOCK_UNKNOWN ? st : CT_BLOCK_UNKNOWN];
}

const char *ct_zone_name(enum ct_zone z)
{
	return zone_names[z <= CT_ZONE_OTHER ? z : CT_ZONE_OTHER];
}

unsigned ct_zones_parse(const char *s, enum ct_zone *zones, unsigned max)
{
	unsigned n = 0;

	while (*s && n < max) {
		size_t len;
		enum ct_zone z = CT_ZONE_OTHER;

		s += strspn(s, " \n");
		len = strcspn(s, " \n");
		if (!len)
			break;
		for (unsigned i = 0; i < CT_ZONE_OTHER; i++)
			if (strlen(zone_names[i]) == len && strncmp(s, zone_names[i], len) == 0)
				z = i;
		zones[n++] = z;
		s += len;
	}
	return n;
}

#define MIN_BLOCK_SIZE (16ULL << 20)

int ct_block_size(struct ct_sysfs *s, uint64_t *bytes)
{
	uint64_t bs;
	/* hex without 0x */
	int rc = ct_sysfs_read_u64(s, "/sys/devices/system/memory/block_size_bytes", 16, &bs);

	if (rc)
		return rc;
	if (!bs)
		return ct_fail(s->err, EINVAL, "%s/sys/devices/system/memory/block_size_bytes is 0", s->root);
	if (bs & (bs - 1))	/* the kernel's is a power of two */
		return ct_fail(s->err, EINVAL, "%s/sys/devices/system/memory/block_size_bytes is 0x%llx, not a power of two: "
			       "not a kernel's memory block size", s->root, (unsigned long long)bs);
	/* a block is at least a memory section: 16 MiB on powerpc, the
	 * smallest of any architecture (128 MiB on x86-64 and arm64) */
	if (bs < MIN_BLOCK_SIZE)
		return ct_fail(s->err, EINVAL, "%s/sys/devices/system/memory/block_size_bytes is 0x%llx, smaller than any "
			       "kernel's memory section (0x%llx): not a kernel's memory block size", s->root,
			       (unsigned long long)bs, (unsigned long long)MIN_BLOCK_SIZE);
	*bytes = bs;	/* only a good one: a caller may cache it */
	return 0;
}

int ct_block_size_cached(struct ct_context *ctx, uint64_t *bytes)
{
	int rc = 0;

	if (!ctx->block_size)
		rc = ct_block_size(&ctx->sys, &ctx->block_size);
	*bytes = ctx->block_size;
	return rc;
}

int ct_block_read_state(struct ct_sysfs *s, uint64_t id, struct ct_block *b)
{
	char path[128], buf[128];
	int rc;

	memset(b, 0, sizeof(*b));
	b->id = id;
	rc = ct_sysfs_read_str(s, ct_path(path, sizeof(path), CT_MEMORY_DIR "/memory%llu/state",
					   (unsigned long long)id), buf, sizeof(buf));
	if (rc)
		return rc;
	b->state = ct_block_state_parse(buf);
	return 0;
}

int ct_block_write_state(struct ct_sysfs *s, uint64_t id, const char *state)
{
	char path[128];

	return ct_sysfs_write_str(s, ct_path(path, sizeof(path), CT_MEMORY_DIR "/memory%llu/state", (unsigned long long)id),
				  state);
}

bool ct_block_exists(struct ct_sysfs *s, uint64_t id)
{
	char path[128];

	return ct_sysfs_exists(s, ct_path(path, sizeof(path), CT_MEMORY_DIR "/memory%llu", (unsigned long long)id));
}

void ct_block_read_zones(struct ct_sysfs *s, struct ct_block *b)
{
	char path[128], buf[128];

	b->nzones = 0;
	/* valid_zones needs CONFIG_MEMORY_HOTREMOVE: absent means unknown */
	if (ct_sysfs_read_str(s, ct_path(path, sizeof(path), CT_MEMORY_DIR "/memory%llu/valid_zones",
					 (unsigned long long)b->id), buf, sizeof(buf)) == 0)
		b->nzones = ct_zones_parse(buf, b->zones, 4);
	else
		ct_error_clear(s->err);
}

int ct_block_read(struct ct_sysfs *s, uint64_t id, struct ct_block *b)
{
	int rc = ct_block_read_state(s, id, b);

	if (!rc)
		ct_block_read_zones(s, b);
	return rc;
}

void ct_block_range(uint64_t start, uint64_t size, uint64_t bs, uint64_t *first, unsigned *count)
{
	uint64_t end = size > UINT64_MAX - start ? UINT64_MAX : start + size;
	uint64_t a = start / bs + (start % bs != 0), e = end / bs;

	*first = a;
	*count = e > a ? (e - a > UINT_MAX ? UINT_MAX : (unsigned)(e - a)) : 0;
}

int ct_block_range_checked(struct ct_sysfs *s, const char *owner, uint64_t start, uint64_t size, uint64_t bs,
			   uint64_t *first, unsigned *count)
{
	ct_block_range(start, size, bs, first, count);
	if (*count <= CT_MAX_RANGE_BLOCKS)
		return 0;
	return ct_fail(s->err, EINVAL, "%s%s0x%llx+0x%llx spans %s%u memory blocks of 0x%llx bytes: its size or "
		       "%s/sys/devices/system/memory/block_size_bytes is bogus; check both", owner ? owner : "",
		       owner ? ": " : "", (unsigned long long)start, (unsigned long long)size,
		       *count == UINT_MAX ? "over " : "", *count, (unsigned long long)bs, s->root);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int ct_block_walk_begin(struct ct_sysfs *s, uint64_t first, unsigned count, struct ct_block_walk *w)
{
	char **names;
	size_t n, k = 0;
	int rc;

	memset(w, 0, sizeof(*w));
	w->first = w->next = first;
	w->count = count;
	if (count <= CT_PROBE_BLOCKS)
		return 0;
	if ((rc = ct_sysfs_list(s, CT_MEMORY_DIR, "memory", &names, &n)))
		return rc;
	w->ids = malloc((n ? n : 1) * sizeof(*w->ids));
	if (!w->ids) {
		ct_strv_free(names, n);
		return ct_fail(s->err, ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		const char *digits = names[i] + 6;	/* after "memory" */
		char *end;
		unsigned long long id;

		if (*digits < '0' || *digits > '9')
			continue;
		errno = 0;
		id = strtoull(digits, &end, 10);
		if (*end || errno || id < first || id - first >= count)
			continue;
		w->ids[w->n++] = id;
	}
	ct_strv_free(names, n);
	qsort(w->ids, w->n, sizeof(*w->ids), cmp_u64);
	/* once each ("memory05" beside "memory5" in a tree no kernel made) */
	for (size_t i = 0; i < w->n; i++)
		if (!k || w->ids[i] != w->ids[k - 1])
			w->ids[k++] = w->ids[i];
	w->n = k;
	return 0;
}

bool ct_block_walk_next(struct ct_block_walk *w, uint64_t *id)
{
	if (w->ids) {
		if (w->at == w->n)
			return false;
		*id = w->ids[w->at++];
		return true;
	}
	if (w->next - w->first >= w->count)
		return false;
	*id = w->next++;
	return true;
}

void ct_block_walk_end(struct ct_block_walk *w)
{
	free(w->ids);
	w->ids = NULL;
}

int ct_blocks_count(struct ct_sysfs *s, uint64_t start, uint64_t size, uint64_t bs,
		    struct ct_blocks *out)
{
	struct ct_block_walk w;
	unsigned count;
	uint64_t id;
	int rc;

	memset(out, 0, sizeof(*out));
	if (ct_block_range_checked(s, NULL, start, size, bs, &out->first, &count))
		return -EINVAL;
	if ((rc = ct_block_walk_begin(s, out->first, count, &w)))
		return rc;
	while (ct_block_walk_next(&w, &id)) {
		struct ct_block b;

		if ((rc = ct_block_read(s, id, &b)) == -ENOENT)
			continue;	/* not hot-added (yet) */
		if (rc)
			break;
		out->total++;
		if (b.state != CT_BLOCK_ONLINE) {
			out->offline++;
			continue;
		}
		out->online++;
		if (b.nzones == 1 && b.zones[0] == CT_ZONE_MOVABLE)
			out->movable++;
		else if (b.nzones == 1 && b.zones[0] == CT_ZONE_NORMAL)
			out->normal++;
		else
			out->other_zone++;
	}
	ct_block_walk_end(&w);
	return rc == -ENOENT ? 0 : rc;
}
