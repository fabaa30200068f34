// SPDX-License-Identifier: GPL-2.0-only
/* The rooted open of lib/core/sysfs-open.c, both ways (openat2 RESOLVE_IN_ROOT
 * and the component walk used where openat2 is missing), on a tree with
 * links inside it and links leading out of it. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <linux/openat2.h>
#if defined(__has_include) && __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#include <unistd.h>
#include "tap.h"
#include "core/sysfs.h"

static char root[PATH_MAX], outside[PATH_MAX];

static void put(const char *rel, const char *text)
{
	char p[PATH_MAX * 2];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void link_(const char *target, const char *rel)
{
	char p[PATH_MAX * 2];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	if (symlink(target, p))
		perror(p);
}

static void dir(const char *rel)
{
	char p[PATH_MAX * 2];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	mkdir(p, 0755);
}

/* what reading path gives: its first line, or "-ERRNO" */
static const char *read_as(struct ct_sysfs *s, const char *path)
{
	static char buf[256];
	int rc = ct_sysfs_read_str(s, path, buf, sizeof(buf));

	if (rc)
		snprintf(buf, sizeof(buf), "%d", rc);
	return buf;
}

static void run(bool walk)
{
	const char *how = walk ? "walk" : "openat2";
	struct ct_error err = { 0 };
	struct ct_sysfs s;
	char buf[PATH_MAX], secret[PATH_MAX * 2], **names;
	size_t n;
	int fd;

	ct_sysfs_open(&s, root, &err);
	s.no_openat2 = walk;

	is_str(read_as(&s, "/a/file"), "in", "%s: a plain file", how);
	is_str(read_as(&s, "/abs/file"), "in", "%s: an absolute link to a directory, inside the tree", how);
	is_str(read_as(&s, "/up"), "in", "%s: '..' past the top stays at the top", how);
	is_str(read_as(&s, "/b/abs"), "in", "%s: an absolute link below the top, from the top of the tree", how);
	is_str(read_as(&s, "/a/rel"), "in", "%s: a relative link beside its target", how);
	is_str(read_as(&s, "/a/../a/./file"), "in", "%s: '.' and '..' components", how);
	is_str(read_as(&s, "/out"), "-2", "%s: an absolute link out of the tree reads nothing (ENOENT)", how);
	is_str(read_as(&s, "/outdir/secret"), "-2", "%s: a directory link out of the tree reads nothing", how);
	is_str(read_as(&s, "/dotdot/secret"), "-2", "%s: '..' links out of the tree read nothing", how);
	is_str(read_as(&s, "/loop"), "-40", "%s: a link loop is ELOOP", how);

	is_int(ct_sysfs_write_str(&s, "/a/file", "written"), 0, "%s: write a plain file", how);
	is_str(read_as(&s, "/a/file"), "written", "%s: the write landed", how);
	is_int(ct_sysfs_write_str(&s, "/a/rel", "x"), -ELOOP, "%s: a write never follows a link in the last component", how);
	is_int(ct_sysfs_write_str(&s, "/out", "x"), -ELOOP, "%s: a write to a link out of the tree fails", how);
	is_int(ct_sysfs_write_str(&s, "/outdir/secret", "x"), -ENOENT, "%s: a write through a directory link out of the tree fails", how);
	snprintf(secret, sizeof(secret), "%s/secret", outside);
	{
		FILE *f = fopen(secret, "r");
		char got[64] = "";
		if (f) {
			if (!fgets(got, sizeof(got), f))
				got[0] = '\0';
			fclose(f);
		}
		is_str(got, "secret\n", "%s: the file outside is untouched", how);
	}
	put("a/file", "in\n");

	ok(ct_sysfs_exists(&s, "/abs/file"), "%s: exists through an in-tree absolute link", how);
	ok(!ct_sysfs_exists(&s, "/outdir/secret"), "%s: nothing exists through a link out of the tree", how);

	is_int(ct_sysfs_link_name(&s, "/abs/rel", buf, sizeof(buf)), 0, "%s: link_name through a directory link", how);
	is_str(buf, "file", "%s: link_name's last component", how);
	is_int(ct_sysfs_realpath(&s, "/up", buf, sizeof(buf)), 0, "%s: realpath of a link climbing past the top", how);
	is_str(buf, "/a/file", "%s: realpath stays inside the tree", how);
	is_int(ct_sysfs_realpath(&s, "/out", buf, sizeof(buf)), 0, "%s: realpath of an absolute link", how);
	ok(strncmp(buf, outside, strlen(outside)) == 0, "%s: names the path inside the tree (reads of it stay there)", how);

	is_int(ct_sysfs_list(&s, "/abs", NULL, &names, &n), 0, "%s: list through a directory link", how);
	is_int(n, 2, "%s: file and rel", how);
	ct_strv_free(names, n);
	ok(ct_sysfs_list(&s, "/outdir", NULL, &names, &n) < 0, "%s: a directory link out of the tree lists nothing", how);

	is_int(ct_sysfs_mkdir(&s, "/run", 0755), 0, "%s: mkdir inside", how);
	is_int(ct_sysfs_mkdir(&s, "/run", 0755), 0, "%s: mkdir of an existing directory", how);
	is_int(ct_sysfs_mkdir(&s, "/outdir/made", 0755), -ENOENT, "%s: mkdir through a link out of the tree fails", how);
	fd = ct_sysfs_openat(&s, "/run/new", O_RDWR | O_CREAT | O_NOFOLLOW, 0644);
	ok(fd >= 0, "%s: create inside", how);
	if (fd >= 0)
		close(fd);
	fd = ct_sysfs_openat(&s, "/plant", O_RDWR | O_CREAT | O_NOFOLLOW, 0644);
	is_int(fd, -ELOOP, "%s: create refuses a planted link", how);
	ct_sysfs_close(&s);
}

/* n bytes through a file: read_fd with bound max, its result and length */
static int read_bounded(size_t n, size_t max, size_t *len)
{
	struct ct_error err = { 0 };
	struct ct_sysfs s;
	char path[PATH_MAX * 2];
	uint8_t *buf = NULL, *data = calloc(1, n + 1);
	int fd, rc;
	FILE *f;

	snprintf(path, sizeof(path), "%s/bounded", root);
	f = fopen(path, "w");
	if (!f || !data || fwrite(data, 1, n, f) != n) {
		if (f)
			fclose(f);
		free(data);
		return -EIO;
	}
	fclose(f);
	free(data);
	ct_sysfs_open(&s, root, &err);
	fd = open(path, O_RDONLY);
	*len = 0;
	rc = ct_sysfs_read_fd(&s, fd, "/bounded", max, &buf, len);
	if (rc == -EFBIG && !strstr(err.msg, "larger than"))
		rc = -EINVAL;	/* the message must say why */
	close(fd);
	free(buf);
	ct_sysfs_close(&s);
	unlink(path);
	return rc;
}

static void bound_cases(void)
{
	static const size_t maxes[] = { 10, 4096, 5000, 8192, 70000 };
	size_t i, len;

	for (i = 0; i < sizeof(maxes) / sizeof(maxes[0]); i++) {
		size_t m = maxes[i];
		is_int(read_bounded(m, m, &len), 0, "read_fd: a file of exactly its bound (%zu bytes) is read", m);
		is_int((long long)len, (long long)m, "read_fd: whole (%zu bytes)", len);
		is_int(read_bounded(m + 1, m, &len), -EFBIG, "read_fd: one byte more than %zu is EFBIG, saying so", m);
		is_int(read_bounded(0, m, &len), 0, "read_fd: an empty file under bound %zu", m);
	}
}

/* a listing comes in natural order (memory9 before memory10) whether its
 * names are all memoryN (sorted by number) or mixed with others */
static void list_order(void)
{
	static const char *const mixed[] = { "memory10", "memory_failure", "memory9", "memory100", "memory1", "memoryx2",
					     "memory0", "memory2a", "memory18446744073709551615" };
	static const char *const want[] = { "memory0", "memory1", "memory2a", "memory9", "memory10", "memory100",
					    "memory18446744073709551615", "memory_failure", "memoryx2" };
	struct ct_error err = { 0 };
	struct ct_sysfs s;
	char **names, rel[64], got[512] = "", exp[512] = "";
	size_t n;

	ct_sysfs_open(&s, root, &err);
	dir("list");
	for (size_t i = 0; i < sizeof(mixed) / sizeof(mixed[0]); i++) {
		snprintf(rel, sizeof(rel), "list/%s", mixed[i]);
		dir(rel);
	}
	is_int(ct_sysfs_list(&s, "/list", "memory", &names, &n), 0, "list: a mixed directory listed");
	for (size_t i = 0; i < n; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s ", names[i]);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		snprintf(exp + strlen(exp), sizeof(exp) - strlen(exp), "%s ", want[i]);
	is_str(got, exp, "list: memoryN by number, the others in natural order among them");
	ct_strv_free(names, n);

	dir("many");
	for (unsigned i = 0; i < 3000; i++) {
		snprintf(rel, sizeof(rel), "many/memory%u", (i * 1237) % 3000);
		dir(rel);
	}
	is_int(ct_sysfs_list(&s, "/many", "memory", &names, &n), 0, "list: 3000 blocks listed");
	{
		size_t bad = n == 3000 ? 0 : 1;
		for (size_t i = 0; i < n && !bad; i++) {
			snprintf(rel, sizeof(rel), "memory%zu", i);
			bad = strcmp(names[i], rel) != 0;
		}
		ok(!bad, "list: 3000 blocks in the order of their numbers");
	}
	ct_strv_free(names, n);
	ct_sysfs_close(&s);
}

/* renames somewhere on the system while a path with ".." resolves: openat2
 * with RESOLVE_IN_ROOT then answers EAGAIN ("the kernel could not ensure
 * that a '..' did not escape"), which a busy machine (a build next door)
 * makes happen now and then. A read must not fail for it: a captured tree
 * once lost a region's attributes that way under load. Each round opens
 * the path once as the kernel answers it (openat2 itself) and once through
 * the reader, until the kernel has said EAGAIN a few times: the race was
 * surely run, whatever the machine's speed. */
static volatile int renaming;
#define RACE_SEEN 5		/* EAGAINs of openat2 itself to see */
#define RACE_ROUNDS 200000	/* at most */

static void *renamer(void *arg)
{
	char a[PATH_MAX * 2], b[PATH_MAX * 2];

	snprintf(a, sizeof(a), "%s/ren-a", (const char *)arg);
	snprintf(b, sizeof(b), "%s/ren-b", (const char *)arg);
	mkdir(a, 0755);
	while (renaming) {
		rename(a, b);
		rename(b, a);
	}
	rmdir(a);
	rmdir(b);
	return NULL;
}

static bool on_valgrind(void)
{
#if defined(__has_include) && __has_include(<valgrind/valgrind.h>)
	return RUNNING_ON_VALGRIND;
#else
	return getenv("LD_PRELOAD") && strstr(getenv("LD_PRELOAD"), "vgpreload");
#endif
}

static int raw_open(int rootfd, const char *path)
{
	struct open_how how = { .flags = O_RDONLY | O_CLOEXEC, .resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS };
	long fd = syscall(SYS_openat2, rootfd, path, &how, sizeof(how));

	if (fd < 0)
		return -errno;
	close((int)fd);
	return 0;
}

static void rename_race(const char *base)
{
	struct ct_sysfs s;
	struct ct_error err = { 0 };
	pthread_t th;
	unsigned failed = 0, raw = 0, rounds = 0;
	int first = 0;

	if (on_valgrind()) {	/* one thread at a time there: the renamer starves the reader */
		printf("# the rename race is run outside valgrind only (the plain and ASan tiers)\n");
		return;
	}
	if (ct_sysfs_open(&s, root, &err)) {
		ok(0, "open the tree: %s", err.msg);
		return;
	}
	renaming = 1;
	if (pthread_create(&th, NULL, renamer, (void *)base)) {
		ok(0, "a thread to rename with");
		ct_sysfs_close(&s);
		return;
	}
	for (; rounds < RACE_ROUNDS && raw < RACE_SEEN; rounds++) {
		const char *v = read_as(&s, "b/../a/file");	/* a ".." the kernel must check */
		if (strcmp(v, "in")) {
			failed++;
			if (!first)
				first = atoi(v);
		}
		raw += raw_open(s.rootfd, "b/../a/file") == -EAGAIN;
	}
	renaming = 0;
	pthread_join(th, NULL);
	ok(raw >= RACE_SEEN, "openat2 itself said EAGAIN %u times in %u rounds (the race was run)", raw, rounds);
	ok(failed == 0, "a path with '..' read while another thread renames: none failed (%u of %u failed, the "
	   "first %d)", failed, rounds, first);
	ct_sysfs_close(&s);
}

int main(void)
{
	char tmpl[512], target[PATH_MAX * 2];
	char *base = mkdtemp(tap_tmp_template(tmpl, sizeof(tmpl), "cxltier-test-sysfs-open"));

	if (!base)
		return 99;
	snprintf(root, sizeof(root), "%s/tree", base);
	snprintf(outside, sizeof(outside), "%s/outside", base);
	mkdir(root, 0755);
	mkdir(outside, 0755);
	snprintf(target, sizeof(target), "%s/secret", outside);
	{
		FILE *f = fopen(target, "w");
		if (f) {
			fputs("secret\n", f);
			fclose(f);
		}
	}
	dir("a");
	put("a/file", "in\n");
	link_("file", "a/rel");
	link_("/a", "abs");
	dir("b");
	link_("/a/file", "b/abs");
	link_("../../../a/file", "up");
	link_(target, "out");
	link_(outside, "outdir");
	link_("../outside", "dotdot");
	link_("loop", "loop");
	link_(target, "plant");

	run(false);
	run(true);
	bound_cases();
	list_order();
	rename_race(base);

	snprintf(target, sizeof(target), "rm -rf -- '%s'", base);
	if (system(target) != 0)
		fprintf(stderr, "# could not remove %s\n", base);
	return tap_done();
}
