// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "policy.h"

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

static int boolean(const char *v)
{
	if (!strcasecmp(v, "yes") || !strcasecmp(v, "true") || !strcmp(v, "1") || !strcasecmp(v, "on"))
		return 1;
	if (!strcasecmp(v, "no") || !strcasecmp(v, "false") || !strcmp(v, "0") || !strcasecmp(v, "off"))
		return 0;
	return -1;
}

static int section(char *hdr, const char *name, unsigned line, struct ct_policy *p, struct ct_policy_rule **cur,
		   struct ct_error *err)
{
	struct ct_policy_rule r = { .online = -1, .movable = -1, .line = line };
	char *eq;

	if (!strcmp(hdr, "migrate"))
		return 1;	/* cxltier migrate's (see migrate-conf.h) */
	if (!strcmp(hdr, "defaults")) {
		*cur = &p->defaults;
		p->defaults.line = line;
		return 0;
	}
	if (strncmp(hdr, "device", 6))
		return ct_fail(err, EINVAL, "%s:%u: unknown section [%s] (expected [defaults] or [device ...])", name, line, hdr);
	hdr = trim(hdr + 6);
	if (!strcmp(hdr, "any")) {
		r.match = CT_MATCH_ANY;
	} else if ((eq = strchr(hdr, '='))) {
		*eq = '\0';
		const char *k = trim(hdr), *v = trim(eq + 1);
		snprintf(r.value, sizeof(r.value), "%s", v);
		if (!strcmp(k, "serial")) {
			char *end;
			r.match = CT_MATCH_SERIAL;
			r.serial = strtoull(v, &end, 0);
			if (!*v || *end)
				return ct_fail(err, EINVAL, "%s:%u: serial '%s' is not a number", name, line, v);
		} else if (!strcmp(k, "host")) {
			r.match = CT_MATCH_HOST;
		} else if (!strcmp(k, "region")) {
			r.match = CT_MATCH_REGION;
		} else {
			return ct_fail(err, EINVAL, "%s:%u: unknown match '%s' (serial=, host=, region= or any)", name, line, k);
		}
	} else {
		return ct_fail(err, EINVAL, "%s:%u: [device %s]: expected 'any' or KEY=VALUE", name, line, hdr);
	}
	struct ct_policy_rule *nr = realloc(p->rule, (p->n + 1) * sizeof(*nr));
	if (!nr)
		return ct_fail(err, ENOMEM, "out of memory");
	p->rule = nr;
	p->rule[p->n] = r;
	*cur = &p->rule[p->n++];
	return 0;
}

int ct_policy_parse(const char *text, const char *name, struct ct_policy *p, struct ct_error *err)
{
	struct ct_policy_rule *cur = NULL;
	bool other = false;	/* in a section another command reads */
	char *copy = strdup(text);
	unsigned line = 0;
	int rc = 0;

	memset(p, 0, sizeof(*p));
	p->defaults.online = -1;
	p->defaults.movable = -1;
	if (!copy)
		return ct_fail(err, ENOMEM, "out of memory");
	for (char *l = copy, *next; l && !rc; l = next) {
		next = strchr(l, '\n');
		if (next)
			*next++ = '\0';
		line++;
		l = trim(l);
		if (!*l || *l == '#' || *l == ';')
			continue;
		if (*l == '[') {
			char *close = strchr(l, ']');
			if (!close) {
				rc = ct_fail(err, EINVAL, "%s:%u: section header without ']'", name, line);
				break;
			}
			*close = '\0';
			rc = section(trim(l + 1), name, line, p, &cur, err);
			other = rc == 1;
			if (other)
				rc = 0;
			continue;
		}
		if (other)
			continue;
		char *eq = strchr(l, '=');
		if (!eq) {
			rc = ct_fail(err, EINVAL, "%s:%u: expected KEY = VALUE", name, line);
			break;
		}
		*eq = '\0';
		char *k = trim(l), *v = trim(eq + 1);
		if (!cur) {
			rc = ct_fail(err, EINVAL, "%s:%u: '%s' outside a section", name, line, k);
		} else if (!strcmp(k, "online")) {
			if ((cur->online = boolean(v)) < 0)
				rc = ct_fail(err, EINVAL, "%s:%u: online = %s: expected yes or no", name, line, v);
		} else if (!strcmp(k, "zone")) {
			if (!strcasecmp(v, "movable"))
				cur->movable = 1;
			else if (!strcasecmp(v, "normal"))
				cur->movable = 0;
			else
				rc = ct_fail(err, EINVAL, "%s:%u: zone = %s: expected movable or normal", name, line, v);
		} else {
			rc = ct_fail(err, EINVAL, "%s:%u: unknown key '%s' (online, zone)", name, line, k);
		}
	}
	free(copy);
	if (rc)
		ct_policy_free(p);
	return rc;
}

void ct_policy_free(struct ct_policy *p)
{
	free(p->rule);
	p->rule = NULL;
	p->n = 0;
}

static bool matches(const struct ct_policy_rule *r, const struct ct_policy_subject *s)
{
	switch (r->match) {
	case CT_MATCH_ANY:
		return true;
	case CT_MATCH_REGION:
		return s->region && !strcmp(s->region, r->value);
	case CT_MATCH_SERIAL:
		for (size_t i = 0; i < s->nmemdevs; i++)
			if (s->serials && s->serials[i] == r->serial)
				return true;
		return false;
	case CT_MATCH_HOST:
		for (size_t i = 0; i < s->nmemdevs; i++)
			if (s->hosts && s->hosts[i] && !strcmp(s->hosts[i], r->value))
				return true;
		return false;
	}
	return false;
}

void ct_policy_decide(const struct ct_policy *p, const struct ct_policy_subject *s, struct ct_policy_decision *d)
{
	const struct ct_policy_rule *hit = NULL;

	for (size_t i = 0; i < p->n && !hit; i++)
		if (matches(&p->rule[i], s))
			hit = &p->rule[i];
	d->online = true;
	d->movable = true;
	d->line = 0;
	if (p->defaults.online >= 0)
		d->online = p->defaults.online;
	if (p->defaults.movable >= 0)
		d->movable = p->defaults.movable;
	if (hit) {
		if (hit->online >= 0)
			d->online = hit->online;
		if (hit->movable >= 0)
			d->movable = hit->movable;
		d->line = hit->line;
	}
}
