// SPDX-License-Identifier: LGPL-2.1-or-later
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/sysfs.h"
#include "core/crash-point.h"

/* "/sys/x" -> "sys/x", relative to the root fd */
static const char *rel(const char *path)
{
	while (*path == '/')
		path++;
	return *path ? path : ".";
}

static int fail_io(struct ct_sysfs *s, int err, const char *what, const char *path)
{
	return ct_fail(s->err, err, "cannot %s %s%s: %s", what, s->root, path, strerror(err));
}

int ct_sysfs_open(struct ct_sysfs *s, const char *root, struct ct_error *err)
{
	s->err = err;
	s->no_openat2 = false;
	if (!root || !*root)
		root = "/";
	s->rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (s->rootfd < 0)
		return ct_fail(err, errno, "cannot open the system root %s: %s", root, strerror(errno));
	/* any root but "/" itself is a tree to stay inside (even "/." or "//") */
	s->confined = strcmp(root, "/") != 0;
	if (!s->confined)
		s->root[0] = '\0';
	else {
		snprintf(s->root, sizeof(s->root), "%s", root);
		size_t n = strlen(s->root);
		while (n > 1 && s->root[n - 1] == '/')
			s->root[--n] = '\0';
	}
	return 0;
}

void ct_sysfs_close(struct ct_sysfs *s)
{
	if (s->rootfd >= 0)
		close(s->rootfd);
	s->rootfd = -1;
}

static int open_ro(struct ct_sysfs *s, const char *path)
{
	int fd = ct_sysfs_openat(s, path, O_RDONLY, 0);

	if (fd < 0)
		return fail_io(s, -fd, "read", path);
	return fd;
}

/* readlink of path's last component, the directories before it resolved in the root */
static ssize_t read_link(struct ct_sysfs *s, const char *path, char *target, size_t len)
{
	const char *name;
	ssize_t n;
	int dfd;

	if (!s->confined) {
		n = readlinkat(s->rootfd, rel(path), target, len - 1);
		if (n < 0)
			return fail_io(s, errno, "read the link", path);
	} else {
		dfd = ct_sysfs_open_parent(s, path, &name);
		if (dfd < 0)
			return fail_io(s, -dfd, "read the link", path);
		n = readlinkat(dfd, name, target, len - 1);
		if (n < 0) {
			int e = errno;
			close(dfd);
			return fail_io(s, e, "read the link", path);
		}
		close(dfd);
	}
	target[n] = '\0';
	return n;
}

int ct_sysfs_read_str(struct ct_sysfs *s, const char *path, char *buf, size_t len)
{
	int fd = open_ro(s, path);
	ssize_t n;

	if (fd < 0)
		return fd;
	do
		n = read(fd, buf, len - 1);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		int e = errno;
		close(fd);
		return fail_io(s, e, "read", path);
	}
	close(fd);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int ct_sysfs_read_fd(struct ct_sysfs *s, int fd, const char *path, size_t max, uint8_t **out, size_t *outlen)
{
	size_t cap = 4096, len = 0;
	uint8_t *buf = malloc(cap);

	if (!buf)
		return ct_fail(s->err, ENOMEM, "out of memory reading %s%s", s->root, path);
	for (;;) {
		ssize_t n;
		if (len > max) {
			free(buf);
			return ct_fail(s->err, EFBIG, "%s%s is larger than %zu bytes, the most read from it", s->root,
				       path, max);
		}
		if (len == cap) {
			/* at most one byte beyond max: it tells a file of max bytes from a larger one */
			size_t want = cap > max / 2 ? max + 1 : cap * 2;
			uint8_t *nb = realloc(buf, want);
			if (!nb) {
				free(buf);
				return ct_fail(s->err, ENOMEM, "out of memory reading %s%s", s->root, path);
			}
			buf = nb;
			cap = want;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			free(buf);
			return fail_io(s, e, "read", path);
		}
		if (n == 0)
			break;
		len += n;
	}
	*out = buf;
	*outlen = len;
	return 0;
}

int ct_sysfs_read_bin(struct ct_sysfs *s, const char *path, uint8_t **out, size_t *outlen)
{
	int fd = open_ro(s, path), rc;

	if (fd < 0)
		return fd;
	rc = ct_sysfs_read_fd(s, fd, path, CT_SYSFS_READ_MAX, out, outlen);
	close(fd);
	return rc;
}

int ct_sysfs_read_text(struct ct_sysfs *s, const char *path, char **text)
{
	uint8_t *buf;
	size_t len;
	int rc = ct_sysfs_read_bin(s, path, &buf, &len);

	if (rc)
		return rc;
	*text = realloc(buf, len + 1);
	if (!*text) {
		free(buf);
		return ct_fail(s->err, ENOMEM, "out of memory reading %s", path);
	}
	(*text)[len] = '\0';
	return 0;
}

int ct_sysfs_read_u64(struct ct_sysfs *s, const char *path, int base, uint64_t *v)
{
	char buf[64], *end;
	int rc = ct_sysfs_read_str(s, path, buf, sizeof(buf));

	if (rc)
		return rc;
	errno = 0;
	*v = strtoull(buf, &end, base);
	if (errno || end == buf || (*end && *end != ' '))
		return ct_fail(s->err, EINVAL, "%s%s: \"%s\" is not a number", s->root, path, buf);
	return 0;
}

int ct_sysfs_read_s64(struct ct_sysfs *s, const char *path, int64_t *v)
{
	char buf[64], *end;
	int rc = ct_sysfs_read_str(s, path, buf, sizeof(buf));

	if (rc)
		return rc;
	errno = 0;
	*v = strtoll(buf, &end, 0);
	if (errno || end == buf || (*end && *end != ' '))
		return ct_fail(s->err, EINVAL, "%s%s: \"%s\" is not a number", s->root, path, buf);
	return 0;
}

int ct_sysfs_link_name(struct ct_sysfs *s, const char *path, char *buf, size_t len)
{
	char target[PATH_MAX];
	ssize_t n = read_link(s, path, target, sizeof(target));
	const char *base;

	if (n < 0)
		return (int)n;
	base = strrchr(target, '/');
	snprintf(buf, len, "%s", base ? base + 1 : target);
	return 0;
}

int ct_sysfs_realpath(struct ct_sysfs *s, const char *path, char *buf, size_t len)
{
	char target[PATH_MAX], joined[2 * PATH_MAX];
	char *parts[256];
	size_t np = 0;
	ssize_t n = read_link(s, path, target, sizeof(target));

	if (n < 0)
		return (int)n;
	/* an absolute target is read inside the root, ".." stops at its top:
	 * the result always names a path inside the root */
	if (target[0] == '/')
		snprintf(joined, sizeof(joined), "%s", target);
	else {
		const char *slash = strrchr(path, '/');
		int dl = slash ? (int)(slash - path) : 0;
		snprintf(joined, sizeof(joined), "%.*s/%s", dl, path, target);
	}
	/* normalise . and .. lexically (sysfs links never point through links) */
	for (char *save, *t = strtok_r(joined, "/", &save); t; t = strtok_r(NULL, "/", &save)) {
		if (strcmp(t, ".") == 0)
			continue;
		if (strcmp(t, "..") == 0) {
			if (np)
				np--;
			continue;
		}
		if (np < 256)
			parts[np++] = t;
	}
	size_t off = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < np && off < len; i++)
		off += snprintf(buf + off, len - off, "/%s", parts[i]);
	if (!np)
		snprintf(buf, len, "/");
	return 0;
}

bool ct_sysfs_exists(struct ct_sysfs *s, const char *path)
{
	int fd;

	if (!s->confined)
		return faccessat(s->rootfd, rel(path), F_OK, 0) == 0;
	fd = ct_sysfs_openat(s, path, O_PATH, 0);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

int ct_sysfs_present(struct ct_sysfs *s, const char *path)
{
	int fd = ct_sysfs_openat(s, path, O_PATH, 0);

	if (fd >= 0) {
		close(fd);
		return 1;
	}
	if (fd == -ENOENT || fd == -ENOTDIR)
		return 0;
	return fail_io(s, -fd, "read", path);
}

int ct_sysfs_stat(struct ct_sysfs *s, const char *path, struct stat *st)
{
	int fd = ct_sysfs_openat(s, path, O_PATH, 0), rc = 0;

	if (fd < 0)
		return fd;
	if (fstat(fd, st))
		rc = -errno;
	close(fd);
	return rc;
}

int ct_sysfs_write_str(struct ct_sysfs *s, const char *path, const char *val)
{
	int fd;
	size_t len = strlen(val);
	ssize_t n;

	/* (test-only builds: a run stopped at its Nth write, core/crash-point.h;
	 * every write, a busy one's every try included, goes through here) */
	ct_crash_point("%s = %s", path, val);
	/* O_NOFOLLOW: an attribute is never a symlink; one swapped in is refused;
	 * O_TRUNC: as a shell's >, so captured trees keep the last value */
	fd = ct_sysfs_openat(s, path, O_WRONLY | O_TRUNC | O_NOFOLLOW, 0);
	if (fd == -ELOOP)
		return ct_fail(s->err, ELOOP, "not writing \"%s\" to %s%s: it is a symbolic link, which a "
			       "kernel attribute never is", val, s->root, path);
	if (fd < 0)
		return fail_io(s, -fd, "open for writing", path);
	n = write(fd, val, len);
	if (n < 0) {
		int e = errno;
		close(fd);
		return ct_fail(s->err, e, "writing \"%s\" to %s%s failed: %s", val, s->root, path, strerror(e));
	}
	close(fd);
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	/* natural order: memory9 before memory10 */
	while (*x && *y) {
		if (*x >= '0' && *x <= '9' && *y >= '0' && *y <= '9') {
			char *ex, *ey;
			unsigned long long nx = strtoull(x, &ex, 10), ny = strtoull(y, &ey, 10);
			if (nx != ny)
				return nx < ny ? -1 : 1;
			x = ex;
			y = ey;
			continue;
		}
		if (*x != *y)
			return (unsigned char)*x - (unsigned char)*y;
		x++;
		y++;
	}
	return (unsigned char)*x - (unsigned char)*y;
}

/* a name read once for sorting: "memory123" is its stem "memory" and 123 */
struct name_key {
	const char *name;
	size_t stem;			/* the characters before the first digit */
	unsigned long long num;		/* the digits that end it, when ok */
	bool ok;			/* stem, then 1 to 19 digits: num holds them */
};

/* the order of cmp_names, without parsing a number per comparison when
 * both names are one stem and a number (a directory of memoryN, nodeN) */
static int cmp_keys(const void *a, const void *b)
{
	const struct name_key *x = a, *y = b;

	if (x->ok && y->ok && x->stem == y->stem && x->num != y->num && !memcmp(x->name, y->name, x->stem))
		return x->num < y->num ? -1 : 1;
	return cmp_names(&x->name, &y->name);
}

/* keys of one stem and distinct numbers in the order of their numbers: a
 * radix sort, linear however many there are; false when two are equal */
static bool radix_by_number(struct name_key *k, size_t n, struct name_key *tmp)
{
	unsigned long long max = 0;

	for (size_t i = 0; i < n; i++)
		if (k[i].num > max)
			max = k[i].num;
	for (unsigned shift = 0; shift < 64 && max >> shift; shift += 8) {
		size_t at[257] = { 0 };

		for (size_t i = 0; i < n; i++)
			at[((k[i].num >> shift) & 0xff) + 1]++;
		for (unsigned d = 0; d < 256; d++)
			at[d + 1] += at[d];
		for (size_t i = 0; i < n; i++)
			tmp[at[(k[i].num >> shift) & 0xff]++] = k[i];
		memcpy(k, tmp, n * sizeof(*k));
	}
	for (size_t i = 1; i < n; i++)
		if (k[i].num == k[i - 1].num)
			return false;	/* "memory05" beside "memory5": cmp_names decides */
	return true;
}

/* a directory of memoryN (and a few others: memory_failure): the numbered
 * names of the first one's stem radix-sorted, the rest sorted, the two
 * merged; false, k unsorted, when cmp_names alone can tell the order */
static bool sort_by_number(struct name_key *k, size_t n)
{
	const struct name_key *first = NULL;
	struct name_key *tmp, *rest;
	size_t nnum = 0, nrest = 0, i = 0, j = 0, o = 0;
	bool ok;

	for (size_t x = 0; x < n && !first; x++)
		if (k[x].ok)
			first = &k[x];
	if (!first || !(tmp = malloc(2 * n * sizeof(*tmp))))
		return false;
	rest = tmp + n;
	for (size_t x = 0; x < n; x++) {
		if (k[x].ok && k[x].stem == first->stem && !memcmp(k[x].name, first->name, first->stem))
			tmp[nnum++] = k[x];
		else
			rest[nrest++] = k[x];
	}
	memcpy(k, tmp, nnum * sizeof(*k));
	ok = radix_by_number(k, nnum, tmp);
	if (ok && nrest) {
		struct name_key *num = tmp;

		memcpy(num, k, nnum * sizeof(*k));
		qsort(rest, nrest, sizeof(*rest), cmp_keys);
		while (ok && (i < nnum || j < nrest)) {
			int c = i == nnum ? 1 : j == nrest ? -1 : cmp_keys(&num[i], &rest[j]);

			ok = c != 0;	/* a tie: the order qsort gives it */
			k[o++] = c < 0 ? num[i++] : rest[j++];
		}
	}
	free(tmp);
	return ok;
}

static struct name_key key_of(const char *name)
{
	size_t stem = strcspn(name, "0123456789"), digits = strspn(name + stem, "0123456789");
	struct name_key k = { name, stem, 0, digits && digits <= 19 && !name[stem + digits] };

	if (k.ok)
		k.num = strtoull(name + stem, NULL, 10);
	return k;
}

static void sort_names(char **v, size_t n)
{
	struct name_key *k = n > 1 ? malloc(n * sizeof(*k)) : NULL;

	if (!k) {
		qsort(v, n, sizeof(*v), cmp_names);
		return;
	}
	for (size_t i = 0; i < n; i++)
		k[i] = key_of(v[i]);
	if (!sort_by_number(k, n)) {
		for (size_t i = 0; i < n; i++)	/* as read: the order qsort is given */
			k[i] = key_of(v[i]);
		qsort(k, n, sizeof(*k), cmp_keys);
	}
	for (size_t i = 0; i < n; i++)
		v[i] = (char *)k[i].name;
	free(k);
}

int ct_sysfs_list(struct ct_sysfs *s, const char *dir, const char *prefix,
		  char ***names, size_t *count)
{
	int fd = ct_sysfs_openat(s, dir, O_RDONLY | O_DIRECTORY, 0);
	size_t n = 0, cap = 16, plen = prefix ? strlen(prefix) : 0;
	char **v;
	DIR *d;
	struct dirent *de;

	*names = NULL;
	*count = 0;
	if (fd < 0)
		return fail_io(s, -fd, "list", dir);
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return fail_io(s, errno, "list", dir);
	}
	v = malloc(cap * sizeof(*v));
	while (v && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (plen && strncmp(de->d_name, prefix, plen))
			continue;
		if (n == cap) {
			char **nv = realloc(v, 2 * cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
			cap *= 2;
		}
		v[n] = strdup(de->d_name);
		if (!v[n])
			break;
		n++;
	}
	closedir(d);
	if (!v)
		return ct_fail(s->err, ENOMEM, "out of memory listing %s", dir);
	sort_names(v, n);
	*names = v;
	*count = n;
	return 0;
}

void ct_strv_free(char **v, size_t n)
{
	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

char *ct_path(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return buf;
}

void ct_strlcpy(char *dst, const char *src, size_t size)
{
	size_t n = strlen(src);

	if (!size)
		return;
	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}
