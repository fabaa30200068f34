// SPDX-License-Identifier: LGPL-2.1-or-later
/* conf.c - one section of /etc/cxltier.conf: see conf.h */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/conf.h"

#define CONF_MAX 65536

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

int ct_conf_section(const char *text, const char *name, const char *section, ct_conf_fn fn, void *arg,
		    struct ct_error *err)
{
	char *copy = strdup(text);
	bool mine = false;
	unsigned line = 0;
	int rc = 0;

	if (!copy)
		return ct_fail(err, ENOMEM, "out of memory");
	for (char *l = copy, *next; l && !rc; l = next) {
		char *eq;
		next = strchr(l, '\n');
		if (next)
			*next++ = '\0';
		line++;
		l = trim(l);
		if (!*l || *l == '#' || *l == ';')
			continue;
		if (*l == '[') {
			char *close = strchr(l, ']');
			if (close)
				*close = '\0';
			mine = !strcmp(trim(l + 1), section);
			continue;
		}
		if (!mine)
			continue;
		if (!(eq = strchr(l, '='))) {
			rc = ct_fail(err, EINVAL, "%s:%u: expected KEY = VALUE", name, line);
			break;
		}
		*eq = '\0';
		rc = fn(trim(l), trim(eq + 1), name, line, arg, err);
	}
	free(copy);
	return rc;
}

int ct_conf_read(const char *path, char **text, struct ct_error *err)
{
	FILE *f = fopen(path, "re");
	size_t len;
	char *t;

	*text = NULL;
	if (!f)
		return errno == ENOENT ? -ENOENT : ct_fail(err, errno, "cannot read %s: %s", path, strerror(errno));
	if (!(t = malloc(CONF_MAX + 1))) {
		fclose(f);
		return ct_fail(err, ENOMEM, "out of memory");
	}
	len = fread(t, 1, CONF_MAX + 1, f);
	if (ferror(f) || len > CONF_MAX) {
		int e = ferror(f) ? EIO : EFBIG;
		fclose(f);
		free(t);
		return ct_fail(err, e, "cannot read %s: %s", path, e == EFBIG ? "larger than 64 KiB" : strerror(e));
	}
	fclose(f);
	t[len] = '\0';
	*text = t;
	return 0;
}
