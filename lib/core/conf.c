// SPDX-License-Identifier: LGPL-2.1-or-later
/* conf.c - one section of /etc/cxltier.conf: see conf.h */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "core/conf.h"
#include "core/time-parse.h"

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

int ct_conf_boolean(const char *v, size_t len)
{
	static const char *const yes[] = { "yes", "true", "on", "1" }, *const no[] = { "no", "false", "off", "0" };

	for (size_t i = 0; i < 4; i++) {
		if (strlen(yes[i]) == len && !strncasecmp(v, yes[i], len))
			return 1;
		if (strlen(no[i]) == len && !strncasecmp(v, no[i], len))
			return 0;
	}
	return -1;
}

int ct_conf_duration(const char *value, uint64_t max_s, uint64_t *seconds)
{
	uint64_t ns;
	int rc = ct_parse_span(value, CT_NS_PER_SEC, max_s * CT_NS_PER_SEC, &ns);

	if (rc)
		return rc;
	if (ns % CT_NS_PER_SEC)
		return -EINVAL;
	*seconds = ns / CT_NS_PER_SEC;
	return 0;
}

int ct_conf_retire_value(const char *key, const char *value, enum ct_conf_retire_key *which, uint64_t *out,
			 const char **expect)
{
	char *end;
	int b;

	if (!strcmp(key, "retire-pages")) {
		*which = CT_CONF_RETIRE_PAGES;
		*expect = "yes or no";
		if ((b = ct_conf_boolean(value, strlen(value))) < 0)
			return -EINVAL;
		*out = (uint64_t)b;
	} else if (!strcmp(key, "retire-window")) {
		int rc = ct_conf_duration(value, CT_CONF_DURATION_MAX_S, out);
		*which = CT_CONF_RETIRE_WINDOW;
		*expect = rc == -ERANGE ? "a duration of at most 100 years, such as 24h or 7d" : "a duration such as 24h or 7d";
		if (rc || !*out)
			return -EINVAL;
	} else if (!strcmp(key, "retire-threshold") || !strcmp(key, "retire-limit")) {
		bool threshold = !strcmp(key, "retire-threshold");
		*which = threshold ? CT_CONF_RETIRE_THRESHOLD : CT_CONF_RETIRE_LIMIT;
		*expect = threshold ? "a number of errors, 1 or more" : "a number of pages an hour (0: no limit)";
		errno = 0;
		*out = strtoull(value, &end, 10);
		if (value[0] < '0' || value[0] > '9' || *end || errno || *out > 1000000 || (threshold && !*out))
			return -EINVAL;
	} else {
		return -ENOENT;
	}
	return 0;
}
