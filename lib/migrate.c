// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <numa.h>
#include <numaif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "migrate.h"
#include "numa.h"
#include "numamaps.h"

#define BATCH 4096

const char *ct_mig_err_name(enum ct_mig_err e)
{
	static const char *const n[] = { "EFAULT", "ENOENT", "EACCES", "EBUSY", "ENOMEM", "other" };
	return e < CT_MIG_NERR ? n[e] : "other";
}

static enum ct_mig_err classify(int status)
{
	switch (-status) {
	case EFAULT: return CT_MIG_EFAULT;
	case ENOENT: return CT_MIG_ENOENT;
	case EACCES: return CT_MIG_EACCES;
	case EBUSY: case EAGAIN: return CT_MIG_EBUSY;
	case ENOMEM: return CT_MIG_ENOMEM;
	default: return CT_MIG_OTHER;
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int read_text(struct ct_sysfs *s, int pid, const char *file, char **text)
{
	char path[64];

	return ct_sysfs_read_text(s, ct_path(path, sizeof(path), "/proc/%d/%s", pid, file), text);
}

int ct_process_node_bytes(struct ct_sysfs *s, int pid, uint64_t bytes[CT_MIG_MAX_NODES])
{
	char *text;
	int rc = read_text(s, pid, "numa_maps", &text);

	if (rc == -ENOENT)
		return ct_fail(s->err, ESRCH, "process %d does not exist (any more)", pid);
	if (rc == -EACCES || rc == -EPERM)
		return ct_fail(s->err, EPERM, "no permission to read /proc/%d/numa_maps: moving another user's "
			       "process needs root (CAP_SYS_PTRACE and CAP_SYS_NICE)", pid);
	if (rc)
		return rc;
	ct_numa_maps_bytes(text, bytes);
	free(text);
	return 0;
}

static bool from_node(const struct ct_migrate_opts *o, int node)
{
	if (node == o->to)
		return false;
	return !ct_nodeset_count(&o->from) || ct_nodeset_has(&o->from, node);
}

/* the whole process at once: the kernel walks its page tables */
static int whole(struct ct_sysfs *s, int pid, const struct ct_migrate_opts *o, struct ct_migrate_result *r)
{
	struct bitmask *from = numa_allocate_nodemask(), *to = numa_allocate_nodemask();
	int rc = 0, n;

	r->mechanism = "migrate_pages";
	for (n = 0; n < CT_MIG_MAX_NODES && n <= numa_max_node(); n++)
		if (from_node(o, n))
			numa_bitmask_setbit(from, (unsigned)n);
	numa_bitmask_setbit(to, (unsigned)o->to);
	n = numa_migrate_pages(pid, from, to);
	if (n < 0) {
		int e = errno;
		if (e == ESRCH)
			r->exited = true;
		else if (e == EPERM)
			rc = ct_fail(s->err, EPERM, "no permission to move the pages of process %d: it needs the same user "
				     "and ptrace access, or root (CAP_SYS_NICE)", pid);
		else
			rc = ct_fail(s->err, e, "migrate_pages of process %d failed: %s", pid, strerror(e));
	} else {
		r->pages_failed = (uint64_t)n;	/* the kernel does not say why */
		r->failed_by[CT_MIG_OTHER] = (uint64_t)n;
	}
	numa_bitmask_free(from);
	numa_bitmask_free(to);
	return rc;
}

static bool in_ranges(const struct ct_migrate_opts *o, uint64_t addr)
{
	if (!o->nonly)
		return true;
	for (size_t k = 0; k < o->nonly; k++)
		if (addr >= o->only[k].start && addr < o->only[k].end)
			return true;
	return false;
}

/* less than 1 % or 8 MiB free: allocations there fail */
static bool node_nearly_full(struct ct_sysfs *s, int node)
{
	uint64_t total, free_bytes;

	if (ct_node_meminfo(s, node, &total, &free_bytes)) {
		ct_error_clear(s->err);
		return false;
	}
	return free_bytes < (8u << 20) || free_bytes * 100 < total;
}

/* page by page, in batches: per-page status, limits, dry run */
static int by_page(struct ct_sysfs *s, int pid, const struct ct_migrate_opts *o, struct ct_migrate_result *r)
{
	void **pages = malloc(BATCH * sizeof(void *));
	int *nodes = malloc(BATCH * sizeof(int)), *status = malloc(BATCH * sizeof(int));
	long psz = sysconf(_SC_PAGESIZE);
	char *maps = NULL, *line, *save;
	double t0 = now();
	int rc = 0;

	r->mechanism = "move_pages";
	if (!pages || !nodes || !status) {
		rc = ct_fail(s->err, ENOMEM, "out of memory");
		goto out;
	}
	rc = read_text(s, pid, "maps", &maps);
	if (rc) {
		if (rc == -ENOENT) {
			r->exited = true;
			rc = 0;
		}
		goto out;
	}
	for (line = strtok_r(maps, "\n", &save); line && !r->exited; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long a, b;
		char perms[8];
		if (sscanf(line, "%llx-%llx %7s", &a, &b, perms) != 3 || perms[0] != 'r' || strstr(line, "[vsyscall]"))
			continue;
		if (o->nonly) {	/* the part of this mapping inside the chosen ranges */
			unsigned long long lo = b, hi = a;
			for (size_t k = 0; k < o->nonly; k++) {
				unsigned long long s0 = o->only[k].start > a ? o->only[k].start : a;
				unsigned long long e0 = o->only[k].end < b ? o->only[k].end : b;
				if (s0 < e0) {
					lo = s0 < lo ? s0 : lo;
					hi = e0 > hi ? e0 : hi;
				}
			}
			if (lo >= hi)
				continue;
			a = lo & ~((unsigned long long)psz - 1);
			b = hi;
		}
		for (unsigned long long addr = a; addr < b && !r->exited;) {
			unsigned long cnt = 0, want = 0;
			for (; addr < b && cnt < BATCH; addr += (unsigned long long)psz)
				pages[cnt++] = (void *)(uintptr_t)addr;
			/* where are they now? */
			if (numa_move_pages(pid, cnt, pages, NULL, status, 0) < 0) {
				if (errno == ESRCH) {
					r->exited = true;
					break;
				}
				if (errno == EPERM) {
					rc = ct_fail(s->err, EPERM, "no permission to move the pages of process %d: it needs the "
						     "same user and ptrace access, or root (CAP_SYS_NICE)", pid);
					goto out;
				}
				continue;	/* a VMA that went away: the next one */
			}
			for (unsigned long i = 0; i < cnt; i++)
				if (status[i] >= 0 && from_node(o, status[i]) && in_ranges(o, (uintptr_t)pages[i])) {
					if (o->max_bytes && (r->pages_to_move + 1) * (uint64_t)psz > o->max_bytes)
						break;
					pages[want] = pages[i];
					nodes[want++] = o->to;
					r->pages_to_move++;
				}
			if (!want || o->dry_run)
				continue;
			for (unsigned long i = 0; i < want; i++)
				status[i] = INT32_MIN;	/* unwritten after a partial failure */
			long ret = numa_move_pages(pid, want, pages, nodes, status, MPOL_MF_MOVE);
			int batch_err = ret < 0 ? errno : 0;
			if (batch_err == ESRCH) {
				r->exited = true;
				break;
			}
			if (status[0] == INT32_MIN || status[want - 1] == INT32_MIN)
				numa_move_pages(pid, want, pages, NULL, status, 0);	/* re-query */
			/* EBUSY is transient (a page in flight, in a per-CPU LRU batch): try those again */
			for (int attempt = 0; attempt < 3; attempt++) {
				unsigned long busy = 0;
				for (unsigned long i = 0; i < want; i++)
					if (status[i] == -EBUSY || status[i] == -EAGAIN)
						busy++;
				if (!busy)
					break;
				usleep(10000);
				for (unsigned long i = 0; i < want; i++) {
					int st;
					if (status[i] != -EBUSY && status[i] != -EAGAIN)
						continue;
					if (numa_move_pages(pid, 1, &pages[i], &nodes[i], &st, MPOL_MF_MOVE) >= 0 || st != INT32_MIN)
						status[i] = st;
				}
			}
			for (unsigned long i = 0; i < want; i++) {
				if (status[i] == o->to) {
					r->pages_moved++;
				} else {
					/* left where it was: the kernel gave a count, not a reason;
					 * a target without free memory is the reason it has */
					int why = status[i] < 0 ? status[i] : batch_err ? -batch_err :
						  node_nearly_full(s, o->to) ? -ENOMEM : 0;
					r->pages_failed++;
					r->failed_by[why ? classify(why) : CT_MIG_OTHER]++;
				}
			}
			if (o->rate_mbps > 0) {	/* stay under the rate: sleep off the lead */
				double due = r->pages_moved * (double)psz / (o->rate_mbps * 1e6), lead = due - (now() - t0);
				if (lead > 0)
					usleep((useconds_t)(lead * 1e6));
			}
			if (o->stop && *o->stop)
				goto out;
			if (o->max_bytes && r->pages_to_move * (uint64_t)psz >= o->max_bytes)
				goto out;
		}
	}
out:
	free(maps);
	free(pages);
	free(nodes);
	free(status);
	return rc;
}

int ct_migrate_process(struct ct_sysfs *s, int pid, const struct ct_migrate_opts *o, struct ct_migrate_result *r)
{
	char path[64];
	double t0;
	int rc;

	memset(r, 0, sizeof(*r));
	r->pid = pid;
	if (ct_sysfs_read_str(s, ct_path(path, sizeof(path), "/proc/%d/comm", pid), r->comm, sizeof(r->comm)))
		return ct_fail(s->err, ESRCH, "process %d does not exist", pid);
	if ((rc = ct_process_node_bytes(s, pid, r->before)))
		return rc;
	t0 = now();
	if (!o->max_bytes && o->rate_mbps <= 0 && !o->dry_run && !o->nonly)
		rc = whole(s, pid, o, r);
	else
		rc = by_page(s, pid, o, r);
	r->seconds = now() - t0;
	if (rc)
		return rc;
	if (ct_process_node_bytes(s, pid, r->after)) {
		r->exited = true;	/* it went away during the run */
		ct_error_clear(s->err);
	}
	if (!strcmp(r->mechanism, "migrate_pages")) {
		/* what left the source nodes arrived on the target */
		for (int n = 0; n < CT_MIG_MAX_NODES; n++)
			if (from_node(o, n) && r->before[n] > r->after[n])
				r->bytes_moved += r->before[n] - r->after[n];
		r->pages_moved = r->bytes_moved / (uint64_t)sysconf(_SC_PAGESIZE);
	} else {
		r->bytes_moved = r->pages_moved * (uint64_t)sysconf(_SC_PAGESIZE);
	}
	return 0;
}
