// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mm/numa.h"

#define NODEDIR "/sys/devices/system/node"

const struct ct_node *ct_numa_node(const struct ct_numa *n, int id)
{
	for (size_t i = 0; i < n->count; i++)
		if (n->nodes[i].id == id)
			return &n->nodes[i];
	return NULL;
}

int ct_numa_distance(const struct ct_numa *n, int from, int to)
{
	const struct ct_node *f = ct_numa_node(n, from);

	if (!f || !f->distance)
		return -1;
	for (size_t i = 0; i < n->count; i++)
		if (n->nodes[i].id == to)
			return f->distance[i];
	return -1;
}

static struct ct_node *node_mut(struct ct_numa *n, int id)
{
	return (struct ct_node *)ct_numa_node(n, id);
}

int ct_zoneinfo_parse(const char *text, struct ct_numa *n, uint64_t page_size)
{
	const char *p = text;
	struct ct_node *cur = NULL;
	uint64_t *zone = NULL;

	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char line[256], zname[32];
		int node;
		unsigned long long v;

		snprintf(line, sizeof(line), "%.*s", (int)(len < 255 ? len : 255), p);
		if (sscanf(line, "Node %d, zone %31s", &node, zname) == 2) {
			cur = node_mut(n, node);
			zone = NULL;
			if (cur) {
				cur->has_zones = true;
				if (!strcmp(zname, "DMA"))
					zone = &cur->zone_dma;
				else if (!strcmp(zname, "DMA32"))
					zone = &cur->zone_dma32;
				else if (!strcmp(zname, "Normal"))
					zone = &cur->zone_normal;
				else if (!strcmp(zname, "Movable"))
					zone = &cur->zone_movable;
				else if (!strcmp(zname, "Device"))
					zone = &cur->zone_device;
			}
		} else if (zone && sscanf(line, " present %llu", &v) == 1) {
			*zone += v * page_size;
		}
		p += len;
		if (*p == '\n')
			p++;
	}
	return 0;
}

bool ct_node_exists(struct ct_sysfs *s, int node)
{
	char path[128];

	return node >= 0 && ct_sysfs_exists(s, ct_path(path, sizeof(path), NODEDIR "/node%d", node));
}

int ct_node_has_memory(struct ct_sysfs *s, int node)
{
	struct ct_nodeset mem;
	char buf[4096];

	/* (has_memory is N_MEMORY, the set move_pages and migrate_pages accept
	 * as targets; a kernel without the file cannot say: assume it has) */
	if (ct_sysfs_read_str(s, NODEDIR "/has_memory", buf, sizeof(buf)) || ct_nodeset_parse(&mem, buf)) {
		ct_error_clear(s->err);
		return 1;
	}
	return ct_nodeset_has(&mem, node);
}

int ct_node_meminfo(struct ct_sysfs *s, int node, uint64_t *total, uint64_t *free_bytes)
{
	char path[128], *text, *p;
	unsigned long long kb;
	int rc = ct_sysfs_read_text(s, ct_path(path, sizeof(path), NODEDIR "/node%d/meminfo", node), &text);

	if (rc)
		return rc;
	*total = *free_bytes = 0;
	if ((p = strstr(text, "MemTotal:")) && sscanf(p, "MemTotal: %llu", &kb) == 1)
		*total = kb * 1024;
	if ((p = strstr(text, "MemFree:")) && sscanf(p, "MemFree: %llu", &kb) == 1)
		*free_bytes = kb * 1024;
	free(text);
	return 0;
}

static int read_access(struct ct_sysfs *s, struct ct_node *nd)
{
	for (int a = 0; a < 2; a++) {
		char dir[128], **names;
		size_t count;
		int rc;

		ct_node_access_dir(dir, sizeof(dir), nd->id, a);
		if (!ct_sysfs_exists(s, dir))
			continue;	/* no HMAT (or kernel before 5.2) */
		rc = ct_access_read(s, dir, &nd->access[a]);
		if (rc)
			return rc;
		if (ct_sysfs_list(s, dir, "node", &names, &count) == 0) {
			for (size_t i = 0; i < count; i++)
				ct_nodeset_add(&nd->initiators[a], atoi(names[i] + 4));
			ct_strv_free(names, count);
		}
	}
	ct_error_clear(s->err);
	return 0;
}

int ct_numa_load(struct ct_sysfs *s, struct ct_numa *n)
{
	struct ct_nodeset online, cpu, mem;
	char buf[4096], path[128];
	int id, rc;

	memset(n, 0, sizeof(*n));
	rc = ct_sysfs_read_str(s, NODEDIR "/online", buf, sizeof(buf));
	if (rc)
		return rc;
	if (ct_nodeset_parse(&online, buf))
		return ct_fail(s->err, EINVAL, "%s" NODEDIR "/online: malformed node list \"%s\"", s->root, buf);
	memset(&cpu, 0, sizeof(cpu));
	memset(&mem, 0, sizeof(mem));
	if (ct_sysfs_read_str(s, NODEDIR "/has_cpu", buf, sizeof(buf)) == 0)
		ct_nodeset_parse(&cpu, buf);
	if (ct_sysfs_read_str(s, NODEDIR "/has_memory", buf, sizeof(buf)) == 0)
		ct_nodeset_parse(&mem, buf);
	ct_error_clear(s->err);
	n->nodes = calloc(ct_nodeset_count(&online) + 1, sizeof(*n->nodes));
	if (!n->nodes)
		return ct_fail(s->err, ENOMEM, "out of memory");
	ct_nodeset_foreach(&online, id) {
		struct ct_node *nd = &n->nodes[n->count++];
		nd->id = id;
		nd->has_cpu = ct_nodeset_has(&cpu, id);
		nd->has_memory = ct_nodeset_has(&mem, id);
		ct_sysfs_read_str(s, ct_path(path, sizeof(path), NODEDIR "/node%d/cpulist", id),
				  nd->cpulist, sizeof(nd->cpulist));
		nd->has_meminfo = ct_node_meminfo(s, id, &nd->mem_total, &nd->mem_free) == 0;
		rc = read_access(s, nd);
		if (rc)
			goto fail;
	}
	/* distances: one per online node, in the online list's order */
	for (size_t i = 0; i < n->count; i++) {
		struct ct_node *nd = &n->nodes[i];
		char *p = buf, *end;
		if (ct_sysfs_read_str(s, ct_path(path, sizeof(path), NODEDIR "/node%d/distance", nd->id), buf, sizeof(buf)))
			continue;
		nd->distance = calloc(n->count, sizeof(int));
		if (!nd->distance) {
			rc = ct_fail(s->err, ENOMEM, "out of memory");
			goto fail;
		}
		for (size_t j = 0; j < n->count; j++) {
			long v = strtol(p, &end, 10);
			nd->distance[j] = end == p ? -1 : (int)v;
			p = end;
		}
	}
	ct_error_clear(s->err);
	if (ct_sysfs_exists(s, "/proc/zoneinfo")) {
		char *text;
		if (ct_sysfs_read_text(s, "/proc/zoneinfo", &text) == 0) {
			long ps = sysconf(_SC_PAGESIZE);
			ct_zoneinfo_parse(text, n, ps > 0 ? (uint64_t)ps : 4096);
			free(text);
		}
	}
	ct_error_clear(s->err);
	return 0;
fail:
	ct_numa_free(n);
	return rc;
}

void ct_numa_free(struct ct_numa *n)
{
	for (size_t i = 0; i < n->count; i++)
		free(n->nodes[i].distance);
	free(n->nodes);
	memset(n, 0, sizeof(*n));
}

int ct_tiering_settings_read(struct ct_sysfs *s, struct ct_tiering_settings *t)
{
	char buf[64];
	int64_t v;

	t->demotion_enabled = t->numa_balancing = -1;
	t->promote_rate_limit_mbps = -1;
	if (ct_sysfs_read_str(s, "/sys/kernel/mm/numa/demotion_enabled", buf, sizeof(buf)) == 0)
		t->demotion_enabled = !strcmp(buf, "true") || !strcmp(buf, "1") || buf[0] == 'y' || buf[0] == 'Y';
	if (ct_sysfs_read_s64(s, "/proc/sys/kernel/numa_balancing", &v) == 0)
		t->numa_balancing = (int)v;
	if (ct_sysfs_read_s64(s, "/proc/sys/kernel/numa_balancing_promote_rate_limit_MBps", &v) == 0)
		t->promote_rate_limit_mbps = v;
	ct_error_clear(s->err);
	return 0;
}

const char *ct_numa_balancing_name(int mode)
{
	switch (mode) {
	case 0: return "disabled";
	case 1: return "normal";
	case 2: return "memory_tiering";
	case 3: return "normal+memory_tiering";
	default: return "unknown";
	}
}

static const char *const tiering_paths[CT_TIERING_NSWITCHES] = {
	"/sys/kernel/mm/numa/demotion_enabled",
	"/proc/sys/kernel/numa_balancing",
	"/proc/sys/kernel/numa_balancing_promote_rate_limit_MBps",
};
static const char *const tiering_names[CT_TIERING_NSWITCHES] = { "demotion", "balancing", "promote-rate" };

const char *ct_tiering_path(enum ct_tiering_switch w)
{
	return w < CT_TIERING_NSWITCHES ? tiering_paths[w] : "";
}

const char *ct_tiering_name(enum ct_tiering_switch w)
{
	return w < CT_TIERING_NSWITCHES ? tiering_names[w] : "";
}

int64_t ct_tiering_value(const struct ct_tiering_settings *t, enum ct_tiering_switch w)
{
	switch (w) {
	case CT_TIERING_DEMOTION: return t->demotion_enabled;
	case CT_TIERING_BALANCING: return t->numa_balancing;
	case CT_TIERING_PROMOTE_RATE: return t->promote_rate_limit_mbps;
	default: return -1;
	}
}

int ct_tiering_write(struct ct_sysfs *s, enum ct_tiering_switch w, int64_t value)
{
	static const int64_t max[CT_TIERING_NSWITCHES] = {
		1, CT_NUMA_BALANCING_NORMAL | CT_NUMA_BALANCING_MEMORY_TIERING, CT_PROMOTE_RATE_MAX,
	};
	char buf[24];
	int rc;

	if (w >= CT_TIERING_NSWITCHES || value < 0 || value > max[w])
		return ct_fail(s->err, EINVAL, "%lld is not a value of %s (0 to %lld)", (long long)value,
			       ct_tiering_path(w), (long long)(w < CT_TIERING_NSWITCHES ? max[w] : 0));
	snprintf(buf, sizeof(buf), "%lld", (long long)value);
	rc = ct_sysfs_write_str(s, tiering_paths[w], buf);
	if (rc == -EACCES || rc == -EPERM || rc == -EROFS) {
		char why[512];
		ct_strlcpy(why, s->err->msg, sizeof(why));
		return ct_fail(s->err, -rc, "%s: permission denied: the kernel's tiering switches are root's (and "
			       "numa_balancing needs CAP_SYS_ADMIN%s); run it as root", why,
			       rc == -EROFS ? ", in a /proc/sys mounted writable" : "");
	}
	return rc;
}
