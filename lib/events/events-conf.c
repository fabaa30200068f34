// SPDX-License-Identifier: LGPL-2.1-or-later
/* events-conf.c - the [events] section of /etc/cxltier.conf: see events-conf.h */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/conf.h"
#include "core/units.h"
#include "events/events-conf.h"

static int on_key(const char *k, const char *v, const char *name, unsigned line, void *arg, struct ct_error *err)
{
	struct ct_events_conf *c = arg;

	if (!strcmp(k, "store")) {
		if (v[0] != '/' || strlen(v) >= sizeof(c->store))
			return ct_fail(err, EINVAL, "%s:%u: store = %s: an absolute path", name, line, v);
		snprintf(c->store, sizeof(c->store), "%s", v);
	} else if (!strcmp(k, "store-max-age")) {
		if (ct_parse_duration(v, &c->store_max_age_s))
			return ct_fail(err, EINVAL, "%s:%u: store-max-age = %s: a duration such as 90d or 52w (0: none)",
				       name, line, v);
	} else if (!strcmp(k, "store-max-size")) {
		if (ct_parse_size(v, &c->store_max_bytes) || (c->store_max_bytes && c->store_max_bytes < (1u << 20)))
			return ct_fail(err, EINVAL, "%s:%u: store-max-size = %s: a size of 1M or more, such as 256M "
				       "(0: none)", name, line, v);
	} else if (!strcmp(k, "retire-pages")) {
		if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "on") || !strcmp(v, "1"))
			c->retire.retire = true;
		else if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "off") || !strcmp(v, "0"))
			c->retire.retire = false;
		else
			return ct_fail(err, EINVAL, "%s:%u: retire-pages = %s: yes or no", name, line, v);
	} else if (!strcmp(k, "retire-window")) {
		if (ct_parse_duration(v, &c->retire.window_s) || !c->retire.window_s)
			return ct_fail(err, EINVAL, "%s:%u: retire-window = %s: a duration such as 24h or 7d", name, line, v);
	} else if (!strcmp(k, "retire-threshold") || !strcmp(k, "retire-limit")) {
		bool threshold = !strcmp(k, "retire-threshold");
		char *end;
		errno = 0;
		unsigned long long n = strtoull(v, &end, 10);
		if (v[0] < '0' || v[0] > '9' || *end || errno || n > 1000000 || (threshold && !n))
			return ct_fail(err, EINVAL, "%s:%u: %s = %s: %s", name, line, k, v,
				       threshold ? "a number of errors, 1 or more" : "a number of pages an hour (0: no limit)");
		*(threshold ? &c->retire.threshold : &c->retire.limit) = (unsigned)n;
	} else {
		return ct_fail(err, EINVAL, "%s:%u: [events]: unknown key '%s' (store, store-max-age, store-max-size, "
			       "retire-pages, retire-threshold, retire-window, retire-limit)", name, line, k);
	}
	return 0;
}

int ct_events_conf_parse(const char *text, const char *name, struct ct_events_conf *c, struct ct_error *err)
{
	memset(c, 0, sizeof(*c));
	c->store_max_bytes = CT_EVENTS_STORE_MAX_SIZE;
	ct_page_retire_defaults(&c->retire);
	return ct_conf_section(text, name, "events", on_key, c, err);
}

int ct_events_conf_load(const char *path, bool must_exist, struct ct_events_conf *c, struct ct_error *err)
{
	char *text;
	int rc = ct_conf_read(path, &text, err);

	if (rc == -ENOENT && must_exist)
		return ct_fail(err, ENOENT, "cannot read %s: %s", path, strerror(ENOENT));
	if (rc == -ENOENT)
		return ct_events_conf_parse("", path, c, err);
	if (rc)
		return rc;
	rc = ct_events_conf_parse(text, path, c, err);
	free(text);
	return rc;
}
