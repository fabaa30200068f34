// SPDX-License-Identifier: GPL-2.0-only
/* who has pages on a node (ct_memdev_remove_pinners) and disabling a memdev
 * (ct_memdev_remove_disable), on a tree made here and opened as --sysroot */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "tap.h"
#include "core/context.h"
#include "change/memdev-remove.h"
#include "change/dax-users.h"

static char root[256];

static void put(const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	if (system(cmd) != 0)
		abort();
	if (!(f = fopen(path, "w")))
		abort();
	fputs(text, f);
	fclose(f);
}

/* a process: comm, flags (PF_KTHREAD 0x200000), vsize, numa_maps */
static void proc(int pid, const char *comm, unsigned long flags, unsigned long vsize, const char *maps)
{
	char rel[64], stat[256];

	snprintf(stat, sizeof(stat), "%d (%s) S 1 %d %d 0 -1 %lu 0 0 0 0 0 0 0 0 20 0 1 0 %d %lu 100 0\n", pid, comm,
		 pid, pid, flags, 1000 + pid, vsize);
	snprintf(rel, sizeof(rel), "proc/%d/stat", pid);
	put(rel, stat);
	snprintf(rel, sizeof(rel), "proc/%d/comm", pid);
	snprintf(stat, sizeof(stat), "%s\n", comm);
	put(rel, stat);
	snprintf(rel, sizeof(rel), "proc/%d/numa_maps", pid);
	put(rel, maps);
}

static void pinners(void)
{
	struct ct_context *ctx;
	struct ct_pinner *p;
	size_t n, total;

	proc(100, "small", 0x400100, 1 << 20, "7f0000000000 default anon=4 dirty=4 N0=2 N1=2 kernelpagesize_kB=4\n");
	proc(200, "big", 0x400100, 1 << 20,
	     "7f0000000000 default anon=256 dirty=256 N1=256 kernelpagesize_kB=4\n"
	     "7f1000000000 default file=/usr/lib/x mapped=16 N1=16 kernelpagesize_kB=4\n");
	proc(300, "elsewhere", 0x400100, 1 << 20, "7f0000000000 default anon=8 dirty=8 N0=8 kernelpagesize_kB=4\n");
	proc(400, "kworker", 0x200000 | 0x40, 0, "");
	is_int(ct_context_new(&ctx, root), 0, "a context on the tree");
	is_int(ct_memdev_remove_pinners(ctx, 1, 8, &p, &n, &total), 0, "pinners of node 1");
	is_int(total, 2, "two processes have pages on node 1");
	ok(n == 2 && p[0].pid == 200 && !strcmp(p[0].comm, "big") && p[0].bytes == 272 * 4096,
	   "most bytes first: big, 272 pages");
	ok(n == 2 && p[1].pid == 100 && p[1].bytes == 2 * 4096, "then small, 2 pages");
	free(p);
	is_int(ct_memdev_remove_pinners(ctx, 1, 1, &p, &n, &total), 0, "at most one");
	ok(n == 1 && total == 2 && p[0].pid == 200, "the first one, and how many there were");
	free(p);
	is_int(ct_memdev_remove_pinners(ctx, 5, 8, &p, &n, &total), 0, "a node nobody uses");
	ok(n == 0 && total == 0, "nobody");
	free(p);
	ct_context_free(ctx);
}

/* a process whose name holds a newline (prctl PR_SET_NAME takes any
 * byte): /proc/PID/stat is read whole, so it is found, named whole, and
 * never taken for a process that is gone */
static void name_with_newline(void)
{
	struct ct_context *ctx;
	struct ct_pinner *p;
	size_t n, total;
	char path[512];

	proc(500, "a\nb", 0x400100, 1 << 20, "7f0000000000 default anon=16 dirty=16 N2=16 kernelpagesize_kB=4\n");
	is_int(ct_context_new(&ctx, root), 0, "a context on the tree");
	is_int(ct_memdev_remove_pinners(ctx, 2, 8, &p, &n, &total), 0, "pinners of node 2");
	ok(n == 1 && p[0].pid == 500 && p[0].bytes == 16 * 4096, "the process named a<newline>b, its 16 pages");
	is_str(n ? p[0].comm : "", "a\nb", "its name whole");
	free(p);

	/* the same process with /dev/dax0.0 open: a user of the device */
	put("sys/bus/dax/devices/dax0.0/dev", "251:0\n");
	put("proc/500/maps", "");
	snprintf(path, sizeof(path), "%s/dev", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/dev/dax0.0", root);
	if (mknod(path, S_IFCHR | 0600, makedev(251, 0))) {
		ok(1, "# SKIP no mknod here: the dax users' scan is not tried");
		ct_context_free(ctx);
		return;
	}
	snprintf(path, sizeof(path), "%s/proc/500/fd", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/500/fd/3", root);
	if (symlink("/dev/dax0.0", path))
		abort();
	is_int(ct_dax_users(ctx, "dax0.0", 8, &p, &n, &total), 0, "who has dax0.0 open: %s", ctx->err.msg);
	ok(n == 1 && p[0].pid == 500 && !p[0].bytes, "the process named a<newline>b has it open");
	is_str(n ? p[0].comm : "", "a\nb", "named whole");
	free(p);

	/* a process that has exited (a zombie; its fd list a leftover) is no user */
	put("proc/600/stat", "600 (gone) Z 1 600 600 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 1600 0 0 0\n");
	put("proc/600/maps", "");
	snprintf(path, sizeof(path), "%s/proc/600/fd", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/600/fd/3", root);
	if (symlink("/dev/dax0.0", path))
		abort();
	is_int(ct_dax_users(ctx, "dax0.0", 8, &p, &n, &total), 0, "who has dax0.0 open, beside a zombie");
	ok(n == 1 && p[0].pid == 500, "the running process alone");
	free(p);
	ct_context_free(ctx);
}

static void disable(void)
{
	struct ct_context *ctx;
	char path[512], buf[64] = "";
	bool was;
	FILE *f;

	put("sys/bus/cxl/devices/mem0/serial", "0x1\n");
	put("sys/bus/cxl/devices/mem1/serial", "0x2\n");
	put("sys/bus/cxl/drivers/cxl_mem/unbind", "");
	snprintf(path, sizeof(path), "%s/sys/bus/cxl/devices/mem0/driver", root);
	if (symlink("../../drivers/cxl_mem", path))
		abort();
	is_int(ct_context_new(&ctx, root), 0, "a context on the tree");
	is_int(ct_memdev_remove_disable(ctx, "mem1", &was), 0, "a memdev bound to nothing");
	ok(was, "... was disabled already");
	is_int(ct_memdev_remove_disable(ctx, "mem0", &was), -EBUSY, "still bound after the write: -EBUSY");
	ok(strstr(ctx->err.msg, "mem0 is still bound to cxl_mem") != NULL, "says so: %s", ctx->err.msg);
	snprintf(path, sizeof(path), "%s/sys/bus/cxl/drivers/cxl_mem/unbind", root);
	if ((f = fopen(path, "r"))) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	is_str(buf, "mem0", "the memdev's name was written to unbind");
	is_int(ct_memdev_remove_disable(ctx, "mem7", &was), -ENOENT, "no such memdev");
	is_int(ct_memdev_remove_disable(ctx, "mem0/../x", &was), -ENOENT, "a name that is no memdev name");
	ct_context_free(ctx);
}

int main(void)
{

	if (!mkdtemp(tap_tmp_template(root, sizeof(root), "cxltier-test-memdev-remove")))
		return 1;
	pinners();
	name_with_newline();
	disable();
	tap_rm_tree(root);
	return tap_done();
}
