/* SPDX-License-Identifier: GPL-2.0-only */
/* tap.h - a few lines of TAP for the unit tests (meson test reads it) */
#ifndef CXLTIER_TAP_H
#define CXLTIER_TAP_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_n, tap_failed;

#define ok(cond, ...) do { \
	tap_n++; \
	if (cond) { printf("ok %d - ", tap_n); } \
	else { printf("not ok %d - ", tap_n); tap_failed++; \
	       fprintf(stderr, "# %s:%d: failed: %s\n", __FILE__, __LINE__, #cond); } \
	printf(__VA_ARGS__); printf("\n"); \
} while (0)

#define is_int(a, b, ...) do { long long _a = (a), _b = (b); \
	ok(_a == _b, __VA_ARGS__); \
	if (_a != _b) fprintf(stderr, "#   got %lld, expected %lld\n", _a, _b); } while (0)

#define is_str(a, b, ...) do { const char *_a = (a), *_b = (b); \
	int _eq = _a && _b && strcmp(_a, _b) == 0; ok(_eq, __VA_ARGS__); \
	if (!_eq) fprintf(stderr, "#   got '%s', expected '%s'\n", _a ? _a : "(null)", _b ? _b : "(null)"); } while (0)

/* a mkdtemp/mkstemp template NAME.XXXXXX under $TMPDIR (tools/test.sh gives
 * its run a directory of its own and checks it is empty at the end), or
 * /tmp */
static inline char *tap_tmp_template(char *buf, size_t size, const char *name)
{
	const char *dir = getenv("TMPDIR");

	snprintf(buf, size, "%s/%s.XXXXXX", dir && *dir ? dir : "/tmp", name);
	return buf;
}

/* removes a test's tree (its TMPDIR must be empty when the tier ends):
 * a tree that cannot be removed is a failed test */
static inline void tap_rm_tree(const char *dir)
{
	char cmd[4200];

	if (!dir || !*dir)
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		ok(0, "removing the test's tree %s", dir);
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
