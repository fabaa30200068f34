// SPDX-License-Identifier: LGPL-2.1-or-later
/* events-conf.c - the [events] section of /etc/cxltier.conf: see events-conf.h */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/conf.h"
#include "core/units.h"
#include "config/events-conf.h"

static int on_key(const char *k, const char *v, const char *name, unsigned line, void *arg, struct ct_error *err)
{
	struct ct_events_conf *c = arg;
	enum ct_conf_retire_key which;
	const char *expect;
	uint64_t n;
	int rc;

	if (!strcmp(k, "store")) {
		if (v[0] != '/' || strlen(v) >= sizeof(c->store))
			return ct_fail(err, EINVAL, "%s:%u: store = %s: an absolute path", name, line, v);
		snprintf(c->store, sizeof(c->store), "%s", v);
	} else if (!strcmp(k, "store-max-age")) {
		if ((rc = ct_conf_duration(v, CT_CONF_DURATION_MAX_S, &c->store_max_age_s)))
			return ct_fail(err, EINVAL, "%s:%u: store-max-age = %s: a duration %ssuch as 90d or 52w (0: none)",
				       name, line, v, rc == -ERANGE ? "of at most 100 years, " : "");
	} else if (!strcmp(k, "store-max-size")) {
		if (ct_parse_size(v, &c->store_max_bytes) || (c->store_max_bytes && c->store_max_bytes < (1u << 20)))
			return ct_fail(err, EINVAL, "%s:%u: store-max-size = %s: a size of 1M or more, such as 256M "
				       "(0: none)", name, line, v);
	} else if ((rc = ct_conf_retire_value(k, v, &which, &n, &expect)) != -ENOENT) {
		if (rc)
			return ct_fail(err, EINVAL, "%s:%u: %s = %s: %s", name, line, k, v, expect);
		switch (which) {
		case CT_CONF_RETIRE_PAGES: c->retire.retire = n; break;
		case CT_CONF_RETIRE_WINDOW: c->retire.window_s = n; break;
		case CT_CONF_RETIRE_THRESHOLD: c->retire.threshold = (unsigned)n; break;
		case CT_CONF_RETIRE_LIMIT: c->retire.limit = (unsigned)n; break;
		}
	} else {
		return ct_fail(err, EINVAL, "%s:%u: [events]: unknown key '%s' (store, store-max-age, store-max-size, "
			       CT_CONF_RETIRE_KEYS ")", name, line, k);
	}
	return 0;
}

int ct_events_conf_parse(const char *text, const char *name, struct ct_events_conf *c, struct ct_error *err)
{
	memset(c, 0, sizeof(*c));
	c->store_max_bytes = CT_EVENTS_STORE_MAX_SIZE;
	ct_page_retire_conf_defaults(&c->retire);
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
