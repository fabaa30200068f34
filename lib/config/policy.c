// SPDX-License-Identifier: LGPL-2.1-or-later
/* policy.c - the policy file: a strict parser and the decision (policy.h) */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "config/policy.h"
#include "core/conf.h"
#include "core/units.h"

/*
 * The grammar, line by line (anything else is an error naming file, line
 * and column; blanks are spaces and tabs, a line may end in CR LF):
 *   blank* ( '#' | ';' ) anything     a comment
 *   blank* '[' blank* HEADER blank* ']' blank*
 *        HEADER: "defaults" | "device" blank+ ( "any" | KEY blank* '=' blank* VALUE )
 *   blank* KEY blank* '=' blank* VALUE blank*
 * VALUE is one word (no blanks). The file is at most CT_POLICY_MAX bytes,
 * without NUL or other control bytes.
 */

struct cursor {
	const char *name;	/* the file, for messages */
	const char *line;	/* start of the current line */
	unsigned lineno;
	struct ct_error *err;
};

static int bad(const struct cursor *c, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int bad(const struct cursor *c, const char *at, const char *fmt, ...)
{
	char what[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return ct_fail(c->err, EINVAL, "%s:%u:%u: %s", c->name, c->lineno, (unsigned)(at - c->line) + 1, what);
}

static bool blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && blank(*p))
		p++;
	return p;
}

/* a word: [A-Za-z0-9:._-]+; *len its length */
static bool word(const char *p, const char *end, size_t *len)
{
	const char *q = p;

	while (q < end && (isalnum((unsigned char)*q) || *q == ':' || *q == '.' || *q == '_' || *q == '-'))
		q++;
	*len = (size_t)(q - p);
	return q > p;
}

static bool is(const char *p, size_t len, const char *lit)
{
	return strlen(lit) == len && !memcmp(p, lit, len);
}

/* "any" or KEY=VALUE after "device" */
static int device_match(const struct cursor *c, const char *p, const char *end, struct ct_policy_rule *r)
{
	const char *k = p, *v;
	size_t klen, vlen;

	if (!word(k, end, &klen))
		return bad(c, k, "[device ...]: expected 'any' or serial=, host=, region=");
	if (is(k, klen, "any")) {
		r->match = CT_MATCH_ANY;
		p = skip_blanks(k + klen, end);
		return p == end ? 0 : bad(c, p, "[device any]: unexpected text after 'any'");
	}
	p = skip_blanks(k + klen, end);
	if (p == end || *p != '=')
		return bad(c, p, "[device %.*s]: expected 'any' or KEY=VALUE", (int)klen, k);
	v = skip_blanks(p + 1, end);
	if (!word(v, end, &vlen))
		return bad(c, v, "[device %.*s=]: a value is missing", (int)klen, k);
	p = skip_blanks(v + vlen, end);
	if (p != end)
		return bad(c, p, "[device ...]: one KEY=VALUE per section, and values without blanks");
	if (vlen >= sizeof(r->value))
		return bad(c, v, "value longer than %zu characters", sizeof(r->value) - 1);
	memcpy(r->value, v, vlen);
	r->value[vlen] = '\0';
	if (is(k, klen, "serial")) {
		char *e;
		r->match = CT_MATCH_SERIAL;
		errno = 0;
		r->serial = strtoull(r->value, &e, 0);
		if (!isdigit((unsigned char)r->value[0]) || *e || errno)
			return bad(c, v, "serial '%s' is not a number (decimal or 0x...)", r->value);
	} else if (is(k, klen, "host")) {
		r->match = CT_MATCH_HOST;
	} else if (is(k, klen, "region")) {
		r->match = CT_MATCH_REGION;
		if (strncmp(r->value, "region", 6) || !r->value[6] || strspn(r->value + 6, "0123456789") != vlen - 6)
			return bad(c, v, "region '%s': expected regionN", r->value);
	} else {
		return bad(c, k, "unknown match '%.*s' (serial=, host=, region= or any)", (int)klen, k);
	}
	return 0;
}

/* the current section when it is one another command reads ([migrate]:
 * lib/mm/migrate-conf.c, [events]: lib/events/events-conf.c): its lines are
 * that command's to check */
static struct ct_policy_rule other_section;

static int section(const struct cursor *c, const char *p, const char *end, struct ct_policy *pol,
		   struct ct_policy_rule **cur)
{
	struct ct_policy_rule r = { .online = -1, .movable = -1, .create_region = -1, .reonline = -1, .weights = -1,
				    .retire = { -1, -1, -1, -1 }, .line = c->lineno };
	const char *close = memchr(p, ']', (size_t)(end - p)), *h, *after;
	size_t hlen;
	int rc;

	if (!close)
		return bad(c, end, "section header without ']'");
	after = skip_blanks(close + 1, end);
	if (after != end)
		return bad(c, after, "unexpected text after ']' (comments go on lines of their own)");
	h = skip_blanks(p + 1, close);
	while (close > h && blank(close[-1]))
		close--;
	if (!word(h, close, &hlen))
		return bad(c, h, "empty section name (expected [defaults] or [device ...])");
	if (is(h, hlen, "defaults") && h + hlen == close) {
		if (pol->defaults.line)
			return bad(c, h, "a second [defaults] (the first is on line %u)", pol->defaults.line);
		*cur = &pol->defaults;
		pol->defaults.line = c->lineno;
		return 0;
	}
	if ((is(h, hlen, "migrate") || is(h, hlen, "events")) && h + hlen == close) {
		*cur = &other_section;
		return 0;
	}
	if (!is(h, hlen, "device") || (h + hlen < close && !blank(h[hlen])))
		return bad(c, h, "unknown section [%.*s] (expected [defaults], [device ...], [events] or [migrate])",
			   (int)(close - h), h);
	if (h + hlen == close)
		return bad(c, close, "[device]: say which: 'any', serial=, host= or region=");
	if ((rc = device_match(c, skip_blanks(h + hlen, close), close, &r)))
		return rc;
	struct ct_policy_rule *nr = realloc(pol->rule, (pol->n + 1) * sizeof(*nr));
	if (!nr)
		return ct_fail(c->err, ENOMEM, "out of memory");
	pol->rule = nr;
	pol->rule[pol->n] = r;
	*cur = &pol->rule[pol->n++];
	return 0;
}

/* the keys of a section; seen[] holds the line each was set on */
enum { KEY_ONLINE, KEY_ZONE, KEY_CREATE_REGION, KEY_REONLINE, KEY_RETIRE_PAGES, KEY_RETIRE_THRESHOLD,
       KEY_RETIRE_WINDOW, KEY_RETIRE_LIMIT, KEY_WEIGHTS, NKEYS };

/* retire-* in a [device ...] section (core/conf.h checks the value, as for
 * [events]): *key and the value into cur->retire; 1 when k is no retire key */
static int retire_setting(const struct cursor *c, const char *k, size_t klen, const char *v, size_t vlen,
			  struct ct_policy_rule *cur, bool in_defaults, int *key)
{
	char kbuf[32], vbuf[64];
	enum ct_conf_retire_key which;
	const char *expect;
	uint64_t u;
	int rc;

	if (klen >= sizeof(kbuf))
		return 1;
	memcpy(kbuf, k, klen);
	kbuf[klen] = '\0';
	/* a value too long for any good one is not cut (a cut one could pass):
	 * "" is given, which tells a retire key from another all the same */
	vbuf[0] = '\0';
	if (vlen < sizeof(vbuf)) {
		memcpy(vbuf, v, vlen);
		vbuf[vlen] = '\0';
	}
	if ((rc = ct_conf_retire_value(kbuf, vbuf, &which, &u, &expect)) == -ENOENT)
		return 1;
	if (in_defaults)
		return bad(c, k, "%s: page retirement is set in [events] (every device) or in [device ...]", kbuf);
	if (vlen >= sizeof(vbuf))
		return bad(c, v, "%s: the value is too long", kbuf);
	if (rc)
		return bad(c, v, "%s = %.*s: %s", kbuf, (int)vlen, v, expect);
	switch (which) {
	case CT_CONF_RETIRE_PAGES: *key = KEY_RETIRE_PAGES; cur->retire.pages = (int)u; break;
	case CT_CONF_RETIRE_WINDOW: *key = KEY_RETIRE_WINDOW; cur->retire.window_s = (int64_t)u; break;
	case CT_CONF_RETIRE_THRESHOLD: *key = KEY_RETIRE_THRESHOLD; cur->retire.threshold = (int64_t)u; break;
	case CT_CONF_RETIRE_LIMIT: *key = KEY_RETIRE_LIMIT; cur->retire.limit = (int64_t)u; break;
	}
	return 0;
}

static int setting(const struct cursor *c, const char *k, const char *end, struct ct_policy_rule *cur,
		   bool in_defaults, unsigned seen_line[NKEYS])
{
	const char *p, *v;
	size_t klen, vlen;
	int *field, val, key = 0, rc;
	unsigned *seen;

	if (!word(k, end, &klen))
		return bad(c, k, "expected KEY = VALUE, a [section] or a # comment");
	p = skip_blanks(k + klen, end);
	if (p == end || *p != '=')
		return bad(c, p, "expected '=' after '%.*s'", (int)klen, k);
	if (!cur)
		return bad(c, k, "'%.*s' outside a section", (int)klen, k);
	v = skip_blanks(p + 1, end);
	if (!word(v, end, &vlen))
		return bad(c, v, "%.*s = : a value is missing", (int)klen, k);
	p = skip_blanks(v + vlen, end);
	if (p != end)
		return bad(c, p, "unexpected text after '%.*s = %.*s' (comments go on lines of their own)",
			   (int)klen, k, (int)vlen, v);
	if (is(k, klen, "online") || is(k, klen, "create-region") || is(k, klen, "reonline") ||
	    is(k, klen, "interleave-weights")) {
		int key = is(k, klen, "online") ? KEY_ONLINE : is(k, klen, "reonline") ? KEY_REONLINE :
			  is(k, klen, "interleave-weights") ? KEY_WEIGHTS : KEY_CREATE_REGION;
		field = key == KEY_ONLINE ? &cur->online : key == KEY_REONLINE ? &cur->reonline :
			key == KEY_WEIGHTS ? &cur->weights : &cur->create_region;
		seen = &seen_line[key];
		if ((val = ct_conf_boolean(v, vlen)) < 0)
			return bad(c, v, "%.*s = %.*s: expected yes or no", (int)klen, k, (int)vlen, v);
	} else if (is(k, klen, "zone")) {
		field = &cur->movable;
		seen = &seen_line[KEY_ZONE];
		if (vlen == 7 && !strncasecmp(v, "movable", 7))
			val = 1;
		else if (vlen == 6 && !strncasecmp(v, "normal", 6))
			val = 0;
		else
			return bad(c, v, "zone = %.*s: expected movable or normal", (int)vlen, v);
	} else if (!(rc = retire_setting(c, k, klen, v, vlen, cur, in_defaults, &key))) {
		seen = &seen_line[key];
		field = NULL;
		val = 0;
	} else if (rc < 0) {
		return rc;
	} else {
		return bad(c, k, "unknown key '%.*s' (online, zone, create-region, reonline, interleave-weights, "
			   CT_CONF_RETIRE_KEYS ")",
			   (int)klen, k);
	}
	if (*seen)
		return bad(c, k, "'%.*s' set twice in this section (first on line %u)", (int)klen, k, *seen);
	*seen = c->lineno;
	if (field)
		*field = val;
	return 0;
}

int ct_policy_parse(const char *text, size_t len, const char *name, struct ct_policy *p, struct ct_error *err)
{
	struct cursor c = { name, text, 0, err };
	struct ct_policy_rule *cur = NULL;
	unsigned seen_line[NKEYS] = { 0 };
	const char *end = text + len;
	int rc = 0;

	memset(p, 0, sizeof(*p));
	p->defaults.online = p->defaults.movable = p->defaults.create_region = p->defaults.reonline = -1;
	p->defaults.weights = -1;
	if (len > CT_POLICY_MAX)
		return ct_fail(err, EFBIG, "%s: %zu bytes, more than the limit of %u", name, len, CT_POLICY_MAX);
	for (const char *l = text; l < end && !rc; ) {
		const char *nl = memchr(l, '\n', (size_t)(end - l)), *e = nl ? nl : end, *q;
		c.line = l;
		c.lineno++;
		if (e > l && e[-1] == '\r')
			e--;
		for (q = l; q < e && (*q == '\t' || (unsigned char)*q >= 0x20) && *q != 0x7f; q++)
			;
		if (q < e) {
			rc = bad(&c, q, "%s byte 0x%02x: the policy is text", *q ? "a control" : "a NUL",
				 (unsigned char)*q);
			break;
		}
		q = skip_blanks(l, e);
		if (q == e || *q == '#' || *q == ';')
			;
		else if (*q == '[') {
			if (!(rc = section(&c, q, e, p, &cur)))
				memset(seen_line, 0, sizeof(seen_line));
		} else if (cur != &other_section)
			rc = setting(&c, q, e, cur, cur == &p->defaults, seen_line);
		l = nl ? nl + 1 : end;
	}
	if (rc)
		ct_policy_free(p);
	return rc;
}

int ct_policy_load(const char *path, struct ct_policy *p, struct ct_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	char *text;
	size_t len = 0;
	ssize_t n;
	int rc;

	memset(p, 0, sizeof(*p));
	p->defaults.online = p->defaults.movable = p->defaults.create_region = p->defaults.reonline = -1;
	p->defaults.weights = -1;
	if (fd < 0)
		return ct_fail(err, errno, "cannot read the policy %s: %s", path, strerror(errno));
	/* one byte past the limit tells a file that is too large */
	text = malloc(CT_POLICY_MAX + 1);
	if (!text) {
		close(fd);
		return ct_fail(err, ENOMEM, "out of memory");
	}
	while (len <= CT_POLICY_MAX && (n = read(fd, text + len, CT_POLICY_MAX + 1 - len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			free(text);
			close(fd);
			return ct_fail(err, e, "cannot read the policy %s: %s", path, strerror(e));
		}
		len += (size_t)n;
	}
	close(fd);
	if (len > CT_POLICY_MAX)
		rc = ct_fail(err, EFBIG, "%s is larger than %u bytes, the limit for a policy file", path, CT_POLICY_MAX);
	else
		rc = ct_policy_parse(text, len, path, p, err);
	free(text);
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
	d->create_region = false;
	d->reonline = false;
	d->weights = false;
	d->retire = hit ? hit->retire : (struct ct_policy_retire){ -1, -1, -1, -1 };
	d->line = 0;
	for (const struct ct_policy_rule *r = &p->defaults; r; r = r == hit ? NULL : hit) {
		if (r->online >= 0)
			d->online = r->online;
		if (r->movable >= 0)
			d->movable = r->movable;
		if (r->create_region >= 0)
			d->create_region = r->create_region;
		if (r->reonline >= 0)
			d->reonline = r->reonline;
		if (r->weights >= 0)
			d->weights = r->weights;
		if (r == hit)
			d->line = hit->line;
	}
}
