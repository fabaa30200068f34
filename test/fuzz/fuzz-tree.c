// SPDX-License-Identifier: GPL-2.0-only
/* fuzz-tree.c - hostile sysfs-like trees from fuzz input: see fuzz-tree.h */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fuzz-tree.h"

#define MAX_ENTRIES 1024
#define LONG_LINE 5000

unsigned ft_u8(struct ft_in *in)
{
	return in->pos < in->n ? in->p[in->pos++] : 0;
}

unsigned ft_pick(struct ft_in *in, unsigned dflt, unsigned max)
{
	return (dflt + ft_u8(in)) % (max + 1);
}

static uint64_t ft_u64(struct ft_in *in)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v |= (uint64_t)ft_u8(in) << (8 * i);
	return v;
}

/* ---- the description ---- */

static uint32_t hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	while (n--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static const char *path_of(const struct ft_tree *t, const struct ft_entry *e)
{
	return t->text + e->path;
}

/* the index + 1 of the entry for path[0..n), 0 when none */
static uint32_t lookup(const struct ft_tree *t, const char *path, size_t n, uint32_t h)
{
	for (size_t i = h & (t->hcap - 1); t->hash[i]; i = (i + 1) & (t->hcap - 1)) {
		const struct ft_entry *e = &t->e[t->hash[i] - 1];
		const char *p = path_of(t, e);
		if (e->hash == h && !memcmp(p, path, n) && !p[n])
			return t->hash[i];
	}
	return 0;
}

static void insert(struct ft_tree *t, uint32_t index)
{
	size_t i = t->e[index - 1].hash & (t->hcap - 1);

	while (t->hash[i])
		i = (i + 1) & (t->hcap - 1);
	t->hash[i] = index;
}

bool ft_has(const struct ft_tree *t, const char *path)
{
	return lookup(t, path, strlen(path), hash(path, strlen(path))) != 0;
}

static uint32_t store(struct ft_tree *t, const void *data, size_t len)
{
	uint32_t off = (uint32_t)t->used;

	if (t->used + len + 1 > t->tcap) {
		t->tcap = 2 * (t->used + len + 1);
		t->text = realloc(t->text, t->tcap);
		if (!t->text)
			abort();
	}
	if (len)
		memcpy(t->text + t->used, data, len);
	t->text[t->used + len] = '\0';
	t->used += len + 1;
	return off;
}

/* path[0..n) with its parent (index + 1, 0 the root); the first description
 * of a path wins. Returns the entry's index + 1, 0 when the tree is full. */
static uint32_t add_one(struct ft_tree *t, const char *path, size_t n, uint32_t parent, enum ft_type type,
			const void *data, size_t len, bool rewrite)
{
	uint32_t h = hash(path, n), old = lookup(t, path, n, h);
	struct ft_entry *e;

	if (old || t->n >= MAX_ENTRIES)
		return old;
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 256;
		t->e = realloc(t->e, t->cap * sizeof(*t->e));
		if (!t->e)
			abort();
	}
	e = &t->e[t->n];
	e->path = store(t, path, n);
	e->data = store(t, data, len);
	e->len = (uint32_t)len;
	e->hash = h;
	e->parent = parent;
	e->type = type;
	e->rewrite = rewrite;
	e->made = false;
	insert(t, (uint32_t)++t->n);
	return (uint32_t)t->n;
}

static void add(struct ft_tree *t, const char *path, enum ft_type type, const void *data, size_t len, bool rewrite)
{
	size_t n = strlen(path), at = n;
	uint32_t parent = 0;

	/* the nearest parent described already, then the missing ones below it */
	while (at > 0) {
		while (at > 0 && path[at - 1] != '/')
			at--;
		if (at == 0)
			break;
		if ((parent = lookup(t, path, at - 1, hash(path, at - 1))))
			break;
		at--;
	}
	for (size_t i = at; i < n; i++)
		if (path[i] == '/' && !(parent = add_one(t, path, i, parent, FT_DIR, NULL, 0, false)))
			return;
	add_one(t, path, n, parent, type, data, len, rewrite);
}

struct ft_tree *ft_begin(void)
{
	static struct ft_tree tree;

	if (!tree.hcap) {
		tree.hcap = 4 * MAX_ENTRIES;	/* a power of two */
		tree.hash = calloc(tree.hcap, sizeof(*tree.hash));
		if (!tree.hash)
			abort();
	} else {
		memset(tree.hash, 0, tree.hcap * sizeof(*tree.hash));
	}
	tree.n = tree.used = 0;
	tree.rewrite = false;
	return &tree;
}

void ft_dir(struct ft_tree *t, const char *path)
{
	add(t, path, FT_DIR, NULL, 0, false);
}

void ft_file(struct ft_tree *t, const char *path, const void *data, size_t len)
{
	add(t, path, FT_FILE, data, len, t->rewrite);
}

void ft_link(struct ft_tree *t, const char *path, const char *target)
{
	add(t, path, FT_LINK, target, strlen(target), false);
}

static void rel_target(const char *path, const char *target, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (const char *p = path; (p = strchr(p, '/')); p++)
		off += snprintf(buf + off, off < len ? len - off : 0, "../");
	snprintf(buf + off, off < len ? len - off : 0, "%s", target);
}

void ft_rel_link(struct ft_tree *t, const char *path, const char *target)
{
	char rel[4096];

	rel_target(path, target, rel, sizeof(rel));
	ft_link(t, path, rel);
}

/* ---- hostile variants ---- */

static const char *const hostile[] = {
	"0", "1", "-1", "-0", "+1", " 1", "1 ", "01", "08", "0x", "0x0", "0X1f", "x1", "1e9", "nan", "inf",
	"2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296",
	"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
	"18446744073709551615", "18446744073709551616", "0xffffffffffffffff", "0x10000000000000000",
	"ffffffffffffffff", "99999999999999999999999999999999", "-18446744073709551615",
	"0-1023", "0-1024", "1023", "1024", "0-3,5", "3-1", "0,", ",0", "-", "0--1", "0-", "1,1,1", "0-0",
	"online", "offline", "going-offline", "online_movable", "online_kernel", "Movable", "Normal", "Normal Movable",
	"none", "DMA DMA32 Normal Movable Device other", "Movable Movable Movable Movable Movable",
	"ram", "pmem", "mixed", "system-ram", "devdax", "kmem", "device_dax",
	"region0", "region99", "decoder2.0", "decoder0.0", "endpoint2", "mem0", "mem1", "dax0.0", "node0", "port1",
	"..", ".", "/", "//", "../../../../../../../..", "%s%s%n", "\t", "\r\n", "\n\n\n", "on", "off", "Y", "N",
	"6.12.0", "7.3.0-rc1", "6", "6.", ".12", "999999999999.999999999999", "2.6.32", "6.9", "6.8.0",
	"Node 0, zone   Normal\n  present 18446744073709551615\n",
	"Node 2147483647, zone Movable\n present 1\nNode -1, zone DMA\n present 1\n",
	"Node 0 MemTotal: 18446744073709551615 kB\nNode 0 MemFree: 18446744073709551615 kB\n",
};

enum { V_MISSING, V_EMPTY, V_NEWLINE, V_DICT, V_RAW, V_DIR, V_LOOP, V_LOOP2, V_DANGLING, V_DOT, V_JUNK,
       V_NO_NEWLINE, V_LONG, V_NUMBER, V_NUL, V_SIGN, V_COUNT };

static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static void loop2(struct ft_tree *t, const char *path)
{
	char other[4096], target[512];

	snprintf(other, sizeof(other), "%s.loop", path);
	snprintf(target, sizeof(target), "%s.loop", base(path));
	ft_link(t, path, target);
	ft_link(t, other, base(path));
}

/* the shared part of every kind of attribute: returns true when it added
 * the entry for path itself */
static bool shape(struct ft_tree *t, struct ft_in *in, const char *path, unsigned v)
{
	switch (v) {
	case V_MISSING:
		return true;
	case V_DIR:
		ft_dir(t, path);
		return true;
	case V_LOOP:
		ft_link(t, path, base(path));
		return true;
	case V_LOOP2:
		loop2(t, path);
		return true;
	case V_DANGLING:
		ft_link(t, path, "does-not-exist");
		return true;
	case V_DOT:
		ft_link(t, path, ft_u8(in) & 1 ? "." : "..");
		return true;
	}
	return false;
}

static void variant(struct ft_tree *t, struct ft_in *in, const char *path, const void *sane, size_t len,
		    const char *numfmt, unsigned v)
{
	char buf[LONG_LINE + 64];
	size_t n;

	if (shape(t, in, path, v))
		return;
	switch (v) {
	case V_EMPTY:
		ft_file(t, path, "", 0);
		return;
	case V_NEWLINE:
		ft_file(t, path, "\n", 1);
		return;
	case V_DICT: {
		const char *s = hostile[ft_u8(in) % (sizeof(hostile) / sizeof(hostile[0]))];
		n = (size_t)snprintf(buf, sizeof(buf), "%s%s", s, ft_u8(in) & 1 ? "" : "\n");
		ft_file(t, path, buf, n);
		return;
	}
	case V_RAW: {
		size_t want = ft_u8(in);
		if (want == 255)
			want += ft_u8(in) * 16;
		for (n = 0; n < want && n < sizeof(buf) && in->pos < in->n; n++)
			buf[n] = (char)ft_u8(in);
		ft_file(t, path, buf, n);
		return;
	}
	case V_JUNK:
		n = len < LONG_LINE ? len : LONG_LINE;
		memcpy(buf, sane, n);
		while (n && buf[n - 1] == '\n')
			n--;
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s", hostile[ft_u8(in) % (sizeof(hostile) / sizeof(hostile[0]))]);
		ft_file(t, path, buf, n);
		return;
	case V_NO_NEWLINE:
		ft_file(t, path, sane, len && ((const char *)sane)[len - 1] == '\n' ? len - 1 : len);
		return;
	case V_LONG: {	/* the value over and over: one line longer than any buffer */
		char sep = ft_u8(in) & 1 ? ' ' : '9';
		n = 0;
		while (n + (len ? len : 1) <= LONG_LINE) {
			if (len)
				memcpy(buf + n, sane, len);
			else
				buf[n] = '9';
			n += len ? len : 1;
			if (buf[n - 1] == '\n')
				buf[n - 1] = sep;
		}
		ft_file(t, path, buf, n);
		return;
	}
	case V_NUMBER:
		if (numfmt) {
			n = (size_t)snprintf(buf, sizeof(buf), numfmt, (unsigned long long)ft_u64(in));
			buf[n++] = '\n';
			ft_file(t, path, buf, n);
		} else {
			ft_file(t, path, sane, len);
		}
		return;
	case V_NUL:
		n = len < LONG_LINE ? len : LONG_LINE;
		memcpy(buf, sane, n);
		buf[n] = '\0';
		n++;
		if (n > 1) {
			size_t at = ft_u8(in) % n;
			memmove(buf + at + 1, buf + at, n - at);
			buf[at] = '\0';
			n++;
		}
		ft_file(t, path, buf, n);
		return;
	case V_SIGN:
		n = len < LONG_LINE ? len : LONG_LINE;
		buf[0] = "-+ 0"[ft_u8(in) & 3];
		memcpy(buf + 1, sane, n);
		ft_file(t, path, buf, n + 1);
		return;
	}
}

/* below 128: sane (so zeros and an exhausted input give a real kernel's
 * tree); above: one of the hostile variants */
static bool hostile_choice(struct ft_in *in, unsigned *v)
{
	unsigned c = ft_u8(in);

	if (c < 128)
		return false;
	*v = (c - 128) % V_COUNT;
	return true;
}

void ft_attr(struct ft_tree *t, struct ft_in *in, const char *path, const void *sane, size_t len)
{
	unsigned v;

	if (hostile_choice(in, &v))
		variant(t, in, path, sane, len, NULL, v);
	else
		ft_file(t, path, sane, len);
}

void ft_attr_str(struct ft_tree *t, struct ft_in *in, const char *path, const char *sane)
{
	char buf[1024];
	int n = snprintf(buf, sizeof(buf), "%s\n", sane);

	ft_attr(t, in, path, buf, (size_t)n);
}

void ft_attr_num(struct ft_tree *t, struct ft_in *in, const char *path, const char *fmt, uint64_t sane)
{
	char buf[64];
	int n = snprintf(buf, sizeof(buf), fmt, (unsigned long long)sane);
	unsigned v;

	buf[n++] = '\n';
	if (hostile_choice(in, &v))
		variant(t, in, path, buf, (size_t)n, fmt, v);
	else
		ft_file(t, path, buf, (size_t)n);
}

void ft_attr_dir(struct ft_tree *t, struct ft_in *in, const char *path)
{
	unsigned v;

	if (!hostile_choice(in, &v) || v == V_DIR) {
		ft_dir(t, path);
		return;
	}
	if (!shape(t, in, path, v))
		ft_file(t, path, "", 0);	/* a file where a directory belongs */
}

void ft_attr_link(struct ft_tree *t, struct ft_in *in, const char *path, const char *target, const char *alt)
{
	unsigned v;

	if (!hostile_choice(in, &v)) {
		ft_rel_link(t, path, target);
		return;
	}
	if (v == V_NUMBER && alt) {
		ft_rel_link(t, path, alt);
		return;
	}
	if (!shape(t, in, path, v))
		ft_file(t, path, target, strlen(target));	/* a file where a link belongs */
}

/* ---- on disk ---- */

static char root_dir[4096];
static struct ft_tree made;	/* the tree on disk */

static void rm_at(int at, const char *name)
{
	if (unlinkat(at, name, 0) == 0 || errno == ENOENT)
		return;
	if (errno == EISDIR || errno == EPERM || errno == ENOTEMPTY) {
		int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
		struct dirent *de;

		if (!d) {
			if (fd >= 0)
				close(fd);
			return;
		}
		while ((de = readdir(d)))
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
				rm_at(dirfd(d), de->d_name);
		closedir(d);
		unlinkat(at, name, AT_REMOVEDIR);
	}
}

static void release(struct ft_tree *t)
{
	free(t->e);
	free(t->hash);
	free(t->text);
	memset(t, 0, sizeof(*t));
}

static void cleanup(void)
{
	char *slash;

	release(&made);
	release(ft_begin());
	if (!root_dir[0])
		return;
	if (getenv("CXLTIER_FUZZ_KEEP")) {	/* triage: cxltier list --sysroot DIR */
		fprintf(stderr, "fuzz tree kept in %s\n", root_dir);
		return;
	}
	slash = strrchr(root_dir, '/');
	*slash = '\0';
	rm_at(AT_FDCWD, root_dir);	/* the mkdtemp directory holding root/ */
}

const char *ft_root(void)
{
	/* CXLTIER_FUZZ_TMPDIR first (test/fuzz/run.sh: a directory of its own,
	 * which it checks is empty when a target ends), then tmpfs */
	const char *const bases[] = { getenv("CXLTIER_FUZZ_TMPDIR"), "/dev/shm", getenv("TMPDIR"), "/tmp" };
	char tmpl[4096];

	if (root_dir[0])
		return root_dir;
	for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
		const char *b = bases[i];
		if (!b)
			continue;
		snprintf(tmpl, sizeof(tmpl), "%s/cxltier-fuzz-XXXXXX", b);
		if (mkdtemp(tmpl))
			break;
		tmpl[0] = '\0';
	}
	if (!tmpl[0])
		abort();
	/* the tree's root one level down: a ".." link at its top stays inside */
	snprintf(root_dir, sizeof(root_dir), "%s/root", tmpl);
	if (mkdir(root_dir, 0755))
		abort();
	atexit(cleanup);
	return root_dir;
}

static bool same(const struct ft_tree *a, const struct ft_entry *x, const struct ft_tree *b, const struct ft_entry *y)
{
	return x->type == y->type && x->len == y->len && !x->rewrite && !y->rewrite &&
	       (x->type == FT_DIR || !memcmp(a->text + x->data, b->text + y->data, x->len));
}

static const struct ft_entry *find(const struct ft_tree *t, const struct ft_tree *in, const struct ft_entry *e)
{
	const char *p = path_of(in, e);
	uint32_t i = t->hcap ? lookup(t, p, strlen(p), e->hash) : 0;

	return i ? &t->e[i - 1] : NULL;
}

static bool create(int rootfd, const struct ft_tree *t, const struct ft_entry *e)
{
	const char *path = path_of(t, e);
	struct stat st;
	int fd;

	switch (e->type) {
	case FT_DIR:
		return mkdirat(rootfd, path, 0755) == 0 ||
		       (errno == EEXIST && fstatat(rootfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode));
	case FT_LINK:
		return symlinkat(t->text + e->data, rootfd, path) == 0;
	case FT_FILE:
		fd = openat(rootfd, path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0)
			return false;
		if (e->len && write(fd, t->text + e->data, e->len) != (ssize_t)e->len) {
			close(fd);
			return false;
		}
		close(fd);
		return true;
	}
	return false;
}

void ft_make(struct ft_tree *t)
{
	static int rootfd = -1;
	struct ft_tree spare;

	if (rootfd < 0 && (rootfd = open(ft_root(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		abort();
	/* away with what changed or went; children come after their parents
	 * in a description, so backwards is children first */
	for (size_t i = made.n; i-- > 0;) {
		struct ft_entry *old = &made.e[i];
		const struct ft_entry *now = find(t, &made, old);
		const char *p = path_of(&made, old);
		size_t l = strlen(p);

		if (!old->made || (now && same(&made, old, t, now)))
			continue;
		rm_at(rootfd, p);
		old->made = false;
		if (old->type == FT_DIR)	/* it took its subtree with it */
			for (size_t j = i + 1; j < made.n; j++)
				if (!strncmp(path_of(&made, &made.e[j]), p, l) && path_of(&made, &made.e[j])[l] == '/')
					made.e[j].made = false;
	}
	/* then what is new, parents first, never below a parent that is not a
	 * directory (a link there would be followed) */
	for (size_t i = 0; i < t->n; i++) {
		struct ft_entry *e = &t->e[i];
		const struct ft_entry *old = find(&made, t, e);
		const struct ft_entry *parent = e->parent ? &t->e[e->parent - 1] : NULL;

		if (old && old->made && same(&made, old, t, e))
			e->made = true;
		else
			e->made = (!parent || (parent->made && parent->type == FT_DIR)) && create(rootfd, t, e);
	}
	/* the new tree is on disk; the old one's buffers describe the next */
	spare = made;
	made = *t;
	*t = spare;
}
