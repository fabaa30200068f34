/* SPDX-License-Identifier: GPL-2.0-only */
/* tree.h - a file with its text in a test's throw-away tree (ROOT + PATH),
 * its directories made on the way (0755, or MODE for the last one); a
 * file's text read back */
#ifndef CXLTIER_TEST_TREE_H
#define CXLTIER_TEST_TREE_H

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static inline void tree_put_mode(const char *root, const char *path, const char *text, mode_t last_dir_mode)
{
	char full[512], dir[512], *p, *last;
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	snprintf(dir, sizeof(dir), "%s", full);
	last = strrchr(dir, '/');
	for (p = dir + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		mkdir(dir, p == last ? last_dir_mode : 0755);
		*p = '/';
	}
	f = fopen(full, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static inline void tree_put(const char *root, const char *path, const char *text)
{
	tree_put_mode(root, path, text, 0755);
}

/* under /run/cxltier/, the directory as cxltier makes it: root's, 0700 */
static inline void tree_put_run(const char *root, const char *path, const char *text)
{
	tree_put_mode(root, path, text, strncmp(path, "/run/cxltier/", 13) ? 0755 : 0700);
}

/* ROOT + PATH's text (its first 255 bytes, in a static buffer), "(none)"
 * when it cannot be read */
static inline const char *tree_get(const char *root, const char *path)
{
	static char buf[256];
	char full[512];
	FILE *f;
	size_t n;

	snprintf(full, sizeof(full), "%s%s", root, path);
	if (!(f = fopen(full, "r")))
		return "(none)";
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

#endif
