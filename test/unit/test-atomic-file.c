// SPDX-License-Identifier: GPL-2.0-only
/* A file replaced whole (lib/core/atomic-file.c) in a directory opened with
 * no symbolic link on its path (lib/core/dir-nofollow.c, openat2 and the
 * walk older kernels get), of root's or the caller's, and the temporary
 * files of killed writers removed, never a running writer's nor anything
 * else */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tap.h"
#include "tree.h"
#include "core/atomic-file.h"
#include "core/dir-nofollow.h"

static char root[512];

/* root + path (which starts with '/') */
static char *at(char *buf, const char *path)
{
	snprintf(buf, 1024, "%s%s", root, path);
	return buf;
}

static bool exists(const char *rel)
{
	char p[1024];
	struct stat st;

	return lstat(at(p, rel), &st) == 0;
}

static void nofollow(void)
{
	char p[1024], q[1024];
	int (*open_fn[2])(const char *) = { ct_dir_nofollow_open, ct_dir_nofollow_walk };
	const char *how[2] = { "openat2", "the walk" };
	int fd;

	mkdir(at(p, "/a"), 0755);
	mkdir(at(p, "/a/b"), 0755);
	symlink(at(q, "/a"), at(p, "/link"));
	symlink("b", at(p, "/a/rel"));
	tree_put(root, "/a/file", "x\n");
	for (int i = 0; i < 2; i++) {
		fd = open_fn[i](at(p, "/a/b"));
		ok(fd >= 0, "%s: a path of directories opens", how[i]);
		if (fd >= 0)
			close(fd);
		fd = open_fn[i](at(p, "/a/../a/./b/"));
		ok(fd >= 0, "%s: '..' and '.' follow no link", how[i]);
		if (fd >= 0)
			close(fd);
		is_int(open_fn[i](at(p, "/link")), -ELOOP, "%s: a link last: -ELOOP", how[i]);
		is_int(open_fn[i](at(p, "/link/b")), -ELOOP, "%s: a link on the way: -ELOOP", how[i]);
		is_int(open_fn[i](at(p, "/a/rel")), -ELOOP, "%s: a relative link: -ELOOP", how[i]);
		is_int(open_fn[i](at(p, "/a/file")), -ENOTDIR, "%s: a file: -ENOTDIR", how[i]);
		is_int(open_fn[i](at(p, "/a/none")), -ENOENT, "%s: nothing there: -ENOENT", how[i]);
	}
	is_int(ct_dir_nofollow_which_link(at(p, "/link/b"), q, sizeof(q)), 0, "the link on a path is found");
	is_str(q, at(p, "/link"), "and named");
	is_int(ct_dir_nofollow_which_link(at(p, "/a/b"), q, sizeof(q)), -ENOENT, "none on a path of directories");
	if (chdir(at(p, "/a")) == 0) {
		fd = ct_dir_nofollow_walk("b");
		ok(fd >= 0, "the walk: a relative path from the working directory");
		if (fd >= 0)
			close(fd);
		is_int(ct_dir_nofollow_walk("rel"), -ELOOP, "the walk: a relative link there: -ELOOP");
		if (chdir("/"))
			ok(0, "back to /");
	}
}

static void refused(void)
{
	struct ct_error err = { 0 };
	char p[1024];

	is_int(ct_file_write_atomic(&err, at(p, "/link/b/out"), "x", 1, 0644), -ELOOP, "written through a link: refused");
	ok(strstr(err.msg, "is a symbolic link") && strstr(err.msg, "give the real path"), "saying so: %s", err.msg);
	ok(!exists("/a/b/out"), "nothing written where it points");
	ct_error_clear(&err);
	/* writable by its group alone, by others alone: either could swap the file */
	{
		static const struct { const char *dir; mode_t mode; } w[] = {
			{ "/group-w", 0775 }, { "/other-w", 0757 }, { "/sticky-w", 01757 },
		};
		for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
			char out[64];
			mkdir(at(p, w[i].dir), 0700);
			chmod(p, w[i].mode);
			snprintf(out, sizeof(out), "%s/out", w[i].dir);
			is_int(ct_file_write_atomic(&err, at(p, out), "x", 1, 0644), w[i].mode & S_ISVTX ? 0 : -EPERM,
			       "a directory of mode %04o: %s", (unsigned)w[i].mode,
			       w[i].mode & S_ISVTX ? "sticky, written" : "refused");
			if (!(w[i].mode & S_ISVTX))
				ok(strstr(err.msg, "is writable by others and not sticky") != NULL, "saying so: %s", err.msg);
			ct_error_clear(&err);
		}
	}
	mkdir(at(p, "/theirs"), 0755);
	if (chown(p, 65534, 65534)) {
		ok(1, "# SKIP cannot chown (not root)");
		return;
	}
	is_int(ct_file_write_atomic(&err, at(p, "/theirs/out"), "x", 1, 0644), -EPERM, "another user's directory: refused");
	ok(strstr(err.msg, "is owned by uid 65534") && strstr(err.msg, "chown root"), "naming its owner, what to do: %s",
	   err.msg);
	ok(!exists("/theirs/out"), "nothing written there");
	ct_error_clear(&err);
}

/* killed writers' temporary files go; a running writer's (locked) and
 * everything else stays */
static void sweep(void)
{
	static const char *const stay[] = {
		"/w/.out.fedcba9876543210",	/* locked below: a writer at work */
		"/w/.other.0123456789abcdef",	/* another file's */
		"/w/.out.0123",			/* not the pattern */
		"/w/.out.0123456789ABCDEF",
		"/w/.out.0123456789abcdef0",
		"/w/out.0123456789abcdef",
		"/w/.out.2222222222222222",	/* another user's */
	};
	struct ct_error err = { 0 };
	char p[1024], q[1024];
	int live;

	mkdir(at(p, "/w"), 0755);
	tree_put(root, "/w/.out.0123456789abcdef", "killed\n");
	tree_put(root, "/w/.out.89abcdef01234567", "killed too\n");
	for (size_t i = 0; i < sizeof(stay) / sizeof(*stay); i++)
		tree_put(root, stay[i], "stays\n");
	if (chown(at(p, "/w/.out.2222222222222222"), 65534, 65534))
		unlink(p);	/* (not root: no other user's file to try) */
	symlink(at(q, "/victim"), at(p, "/w/.out.1111111111111111"));
	tree_put(root, "/victim", "precious\n");
	mkdir(at(p, "/w/.out.3333333333333333"), 0755);
	live = open(at(p, "/w/.out.fedcba9876543210"), O_RDONLY | O_CLOEXEC);
	ok(live >= 0 && !flock(live, LOCK_EX | LOCK_NB), "a writer holds its temporary file");

	is_int(ct_file_write_atomic(&err, at(p, "/w/out"), "new\n", 4, 0644), 0, "written: %s", err.msg);
	ok(!exists("/w/.out.0123456789abcdef") && !exists("/w/.out.89abcdef01234567"), "the killed writers' files are gone");
	for (size_t i = 0; i < sizeof(stay) / sizeof(*stay); i++)
		if (strcmp(stay[i], "/w/.out.2222222222222222") || exists(stay[i]))
			ok(exists(stay[i]), "%s stays", stay[i]);
	ok(exists("/w/.out.1111111111111111") && exists("/w/.out.3333333333333333") && exists("/victim"),
	   "a link of the name, a directory of the name and what the link points to stay");
	ok(exists("/w/out"), "the file itself is there");
	close(live);
	/* nothing of its own is left behind */
	is_int(ct_file_write_atomic(&err, at(p, "/w/out"), "newer\n", 6, 0644), 0, "written again");
	ok(!exists("/w/.out.fedcba9876543210"), "the writer gone, its file goes at the next write");
}

int main(void)
{

	if (!mkdtemp(tap_tmp_template(root, sizeof(root), "cxltier-test-atomic-file")))
		return 1;
	nofollow();
	refused();
	sweep();
	tap_rm_tree(root);
	return tap_done();
}
