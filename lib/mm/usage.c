// SPDX-License-Identifier: LGPL-2.1-or-later
/* usage.c - where a process's or a cgroup's memory is: see usage.h */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mm/numamaps.h"
#include "core/process.h"
#include "mm/usage.h"

uint64_t ct_usage_node_bytes(const struct ct_usage_node *n)
{
	return n->anon + n->file + n->huge + n->kernel;
}

uint64_t ct_usage_bytes(const struct ct_usage *u)
{
	uint64_t sum = 0;

	for (int n = 0; n < CT_USAGE_MAX_NODES; n++)
		sum += ct_usage_node_bytes(&u->node[n]);
	return sum;
}

static void add_vma(const struct ct_numa_vma *v, void *arg)
{
	struct ct_usage *u = arg;

	for (int n = 0; n < CT_USAGE_MAX_NODES; n++) {
		uint64_t b = v->pages[n] * (v->page_kb ? v->page_kb : 4) * 1024;
		if (v->huge)
			u->node[n].huge += b;
		else if (!strcmp(v->kind, "file"))
			u->node[n].file += b;
		else
			u->node[n].anon += b;
	}
}

void ct_usage_from_numa_maps(const char *text, struct ct_usage *u)
{
	memset(u, 0, sizeof(*u));
	ct_numa_maps_foreach(text, add_vma, u);
}

/* which part of a node's usage a memory.numa_stat counter adds to; NULL:
 * none (the others break these down: shmem, file_mapped, anon_thp...) */
static uint64_t *counter(struct ct_usage_node *un, const char *name, size_t len)
{
	static const char *const kernel[] = { "kernel_stack", "pagetables", "sec_pagetables", "slab_reclaimable",
					      "slab_unreclaimable" };

	if (len == 4 && !strncmp(name, "anon", 4))
		return &un->anon;
	if (len == 4 && !strncmp(name, "file", 4))
		return &un->file;
	for (size_t k = 0; k < sizeof(kernel) / sizeof(kernel[0]); k++)
		if (len == strlen(kernel[k]) && !strncmp(name, kernel[k], len))
			return &un->kernel;
	return NULL;
}

/* "anon N0=123 N1=456 ...": bytes per node of each counter */
int ct_usage_from_numa_stat(const char *text, struct ct_usage *u)
{
	const char *p = text;
	int lines = 0;

	memset(u, 0, sizeof(*u));
	while (*p) {
		size_t len = strcspn(p, "\n"), klen = strcspn(p, " \n");
		const char *q = p + klen, *end = p + len;
		bool counted = false;

		while (q < end) {
			unsigned long long v;
			uint64_t *slot;
			int node, used = 0;
			while (q < end && *q == ' ')
				q++;
			if (sscanf(q, "N%d=%llu%n", &node, &v, &used) == 2 && node >= 0 && node < CT_USAGE_MAX_NODES) {
				if ((slot = counter(&u->node[node], p, klen)))
					*slot += v;
				counted = true;
			}
			q += used ? (size_t)used : strcspn(q, " \n");
		}
		lines += counted;
		p = *end ? end + 1 : end;
	}
	return lines ? 0 : -EINVAL;
}

int ct_usage_numa_maps(struct ct_sysfs *s, int pid, const char *needs_root, char **text)
{
	char path[64];
	int rc = ct_sysfs_read_text(s, ct_path(path, sizeof(path), "/proc/%d/numa_maps", pid), text);

	if (rc == -ENOENT)
		return ct_fail(s->err, ESRCH, "process %d does not exist (any more)", pid);
	if (rc == -EACCES || rc == -EPERM)
		return ct_fail(s->err, EPERM, "no permission to read /proc/%d/numa_maps: %s", pid, needs_root);
	return rc;
}

int ct_usage_process(struct ct_sysfs *s, int pid, struct ct_usage *u)
{
	char *text;
	int rc = ct_usage_numa_maps(s, pid, "another user's process needs root (CAP_SYS_PTRACE)", &text);

	if (rc)
		return rc;
	ct_usage_from_numa_maps(text, u);
	free(text);
	return 0;
}

int ct_usage_process_nodes(struct ct_sysfs *s, int pid, const char *needs_root, uint64_t bytes[CT_USAGE_MAX_NODES])
{
	char *text;
	int rc = ct_usage_numa_maps(s, pid, needs_root, &text);

	if (rc)
		return rc;
	ct_numa_maps_bytes(text, bytes);
	free(text);
	return 0;
}

int ct_usage_cgroup(struct ct_sysfs *s, const char *cgroup, struct ct_usage *u)
{
	char dir[4000], path[4096], *text;
	int rc;

	snprintf(path, sizeof(path), "%s/memory.numa_stat", ct_cgroup_dir(cgroup, dir, sizeof(dir)));
	if ((rc = ct_sysfs_read_text(s, path, &text)))
		return ct_fail(s->err, ENOENT, "cgroup %s: no memory.numa_stat (no such cgroup, or the memory "
			       "controller is not enabled for it: see cgroup.subtree_control of its parent)", cgroup);
	rc = ct_usage_from_numa_stat(text, u);
	free(text);
	if (rc)
		return ct_fail(s->err, EINVAL, "%s%s: no per-node counters in it", s->root, path);
	return 0;
}
