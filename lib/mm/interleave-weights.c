// SPDX-License-Identifier: LGPL-2.1-or-later
/* interleave-weights.c - reading the kernel's weighted-interleave weights */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mm/interleave-weights.h"

static int by_node(const void *a, const void *b)
{
	const struct ct_wi_node *x = a, *y = b;

	return (x->node > y->node) - (x->node < y->node);
}

/* the node ids that have a nodeN file, in *ids (malloc'd) */
static int list_nodes(struct ct_sysfs *s, int **ids, unsigned *n)
{
	int fd = ct_sysfs_openat(s, CT_WI_DIR, O_RDONLY | O_DIRECTORY, 0);
	struct dirent *de;
	DIR *d;

	*ids = NULL;
	*n = 0;
	if (fd < 0) {
		if (fd == -ENOENT || fd == -ENOTDIR)
			return ct_fail(s->err, EOPNOTSUPP, "%s%s: absent: this kernel has no weighted interleave "
				       "(Linux 6.9 or later has it)", s->root, CT_WI_DIR);
		return ct_fail(s->err, -fd, "cannot read %s%s: %s", s->root, CT_WI_DIR, strerror(-fd));
	}
	if (!(d = fdopendir(fd))) {
		int rc = -errno;

		close(fd);
		return ct_fail(s->err, -rc, "cannot read %s%s: %s", s->root, CT_WI_DIR, strerror(-rc));
	}
	*ids = calloc(CT_WI_MAX_NODES, sizeof(**ids));
	if (!*ids) {
		closedir(d);
		return ct_fail(s->err, ENOMEM, "out of memory");
	}
	while ((de = readdir(d))) {
		char *end;
		long v;

		if (strncmp(de->d_name, "node", 4) || de->d_name[4] < '0' || de->d_name[4] > '9')
			continue;
		v = strtol(de->d_name + 4, &end, 10);
		if (*end || v < 0 || v >= CT_WI_MAX_NODES || *n >= CT_WI_MAX_NODES)
			continue;
		(*ids)[(*n)++] = (int)v;
	}
	closedir(d);
	return 0;
}

int ct_wi_read(struct ct_sysfs *s, struct ct_wi_state *st)
{
	char path[256], buf[32];
	unsigned i, count;
	int *ids, rc;

	memset(st, 0, sizeof(*st));
	if ((rc = list_nodes(s, &ids, &count)) < 0)
		return rc;
	st->nodes = calloc(count ? count : 1, sizeof(*st->nodes));
	if (!st->nodes) {
		free(ids);
		return ct_fail(s->err, ENOMEM, "out of memory");
	}
	for (i = 0; i < count; i++) {
		uint64_t w;

		snprintf(path, sizeof(path), CT_WI_DIR "/node%d", ids[i]);
		rc = ct_sysfs_read_u64(s, path, 10, &w);
		if (rc == -ENOENT) {		/* the node went away meanwhile */
			ct_error_clear(s->err);
			continue;
		}
		if (rc < 0) {
			free(ids);
			ct_wi_free(st);
			return rc;
		}
		st->nodes[st->n].node = ids[i];
		st->nodes[st->n++].weight = w > CT_WI_WEIGHT_MAX ? CT_WI_WEIGHT_MAX : (unsigned)w;
	}
	free(ids);
	qsort(st->nodes, st->n, sizeof(*st->nodes), by_node);
	rc = ct_sysfs_read_str(s, CT_WI_DIR "/auto", buf, sizeof(buf));
	if (rc == 0) {
		st->has_auto = true;
		st->auto_on = !strcmp(buf, "true") || !strcmp(buf, "1") || buf[0] == 'Y' || buf[0] == 'y';
	} else if (rc == -ENOENT) {
		ct_error_clear(s->err);
	} else {
		ct_wi_free(st);
		return rc;
	}
	return 0;
}

void ct_wi_free(struct ct_wi_state *st)
{
	free(st->nodes);
	st->nodes = NULL;
	st->n = 0;
}

unsigned ct_wi_weight(const struct ct_wi_state *st, int node)
{
	for (unsigned i = 0; i < st->n; i++)
		if (st->nodes[i].node == node)
			return st->nodes[i].weight;
	return 0;
}
