// SPDX-License-Identifier: LGPL-2.1-or-later
/* metrics-state.c - see metrics-state.h. The file:
 *   # cxltier metrics state 1
 *   boot_id B
 *   since S
 *   lost N
 *   event MEMDEV KIND SEVERITY N      (MEMDEV, SEVERITY "-" when none)
 *   poison MEMDEV AT RECORDS BYTES
 */
#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "metrics-state.h"

#define HEADER "# cxltier metrics state 1"

static bool token(const char *s)
{
	size_t n = strlen(s);

	if (!n || n >= CT_METRICS_TOKEN)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:-", s[i]))
			return false;
	return true;
}

/* "" for a name that is not a token, "-" in the file */
static const char *name_of(const char *s)
{
	return s && token(s) && strcmp(s, "-") ? s : "";
}

int ct_metrics_state_count(struct ct_metrics_state *st, const char *memdev, const char *kind,
			   const char *severity, uint64_t n)
{
	struct ct_metrics_count *c;

	memdev = name_of(memdev);
	kind = name_of(kind);
	severity = name_of(severity);
	for (size_t i = 0; i < st->ncounts; i++) {
		c = &st->counts[i];
		if (!strcmp(c->memdev, memdev) && !strcmp(c->kind, kind) && !strcmp(c->severity, severity)) {
			c->n += n;
			return 0;
		}
	}
	c = realloc(st->counts, (st->ncounts + 1) * sizeof(*c));
	if (!c)
		return -ENOMEM;
	st->counts = c;
	c = &st->counts[st->ncounts++];
	memset(c, 0, sizeof(*c));
	snprintf(c->memdev, sizeof(c->memdev), "%s", memdev);
	snprintf(c->kind, sizeof(c->kind), "%s", kind);
	snprintf(c->severity, sizeof(c->severity), "%s", severity);
	c->n = n;
	return 0;
}

int ct_metrics_state_poison(struct ct_metrics_state *st, const char *memdev, uint64_t at,
			    uint64_t records, uint64_t bytes)
{
	struct ct_metrics_poison *p = NULL;

	memdev = name_of(memdev);
	for (size_t i = 0; i < st->npoison && !p; i++)
		if (!strcmp(st->poison[i].memdev, memdev))
			p = &st->poison[i];
	if (!p) {
		p = realloc(st->poison, (st->npoison + 1) * sizeof(*p));
		if (!p)
			return -ENOMEM;
		st->poison = p;
		p = &st->poison[st->npoison++];
		memset(p, 0, sizeof(*p));
		snprintf(p->memdev, sizeof(p->memdev), "%s", memdev);
	}
	p->at = at;
	p->records = records;
	p->bytes = bytes;
	return 0;
}

void ct_metrics_state_free(struct ct_metrics_state *st)
{
	free(st->counts);
	free(st->poison);
	memset(st, 0, sizeof(*st));
}

void ct_metrics_state_reset(struct ct_metrics_state *st)
{
	ct_metrics_state_free(st);
}

static bool number(const char *s, uint64_t *v)
{
	char *end;

	if (!s || !*s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && !*end;
}

static int parse_line(char *line, struct ct_metrics_state *st)
{
	char *w[6], *save = NULL;
	size_t n = 0;
	uint64_t a, b, c;

	for (char *t = strtok_r(line, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		if (n == 6 || !token(t))
			return -1;
		w[n++] = t;
	}
	if (n == 2 && !strcmp(w[0], "boot_id")) {
		snprintf(st->boot_id, sizeof(st->boot_id), "%s", w[1]);
		return 0;
	}
	if (n == 2 && !strcmp(w[0], "since"))
		return number(w[1], &st->since) ? 0 : -1;
	if (n == 2 && !strcmp(w[0], "lost"))
		return number(w[1], &st->lost) ? 0 : -1;
	if (n == 5 && !strcmp(w[0], "event") && number(w[4], &a))
		return ct_metrics_state_count(st, w[1], w[2], w[3], a) ? -1 : 0;
	if (n == 5 && !strcmp(w[0], "poison") && number(w[2], &a) && number(w[3], &b) && number(w[4], &c))
		return ct_metrics_state_poison(st, w[1], a, b, c) ? -1 : 0;
	return -1;
}

int ct_metrics_state_parse(const char *text, struct ct_metrics_state *st, struct ct_error *err)
{
	char *copy = strdup(text), *save = NULL;
	unsigned lineno = 0;

	memset(st, 0, sizeof(*st));
	if (!copy)
		return ct_fail(err, ENOMEM, "out of memory");
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		lineno++;
		if (lineno == 1 && !strcmp(l, HEADER))
			continue;
		if (lineno == 1 || parse_line(l, st)) {
			free(copy);
			ct_metrics_state_free(st);
			return ct_fail(err, EBADMSG, "line %u is not one of a cxltier metrics state", lineno);
		}
	}
	free(copy);
	if (lineno == 0)
		return ct_fail(err, EBADMSG, "empty");
	return 0;
}

char *ct_metrics_state_format(const struct ct_metrics_state *st)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fprintf(f, HEADER "\n");
	if (token(st->boot_id))
		fprintf(f, "boot_id %s\n", st->boot_id);
	fprintf(f, "since %" PRIu64 "\nlost %" PRIu64 "\n", st->since, st->lost);
	for (size_t i = 0; i < st->ncounts; i++) {
		const struct ct_metrics_count *c = &st->counts[i];
		fprintf(f, "event %s %s %s %" PRIu64 "\n", c->memdev[0] ? c->memdev : "-", c->kind[0] ? c->kind : "-",
			c->severity[0] ? c->severity : "-", c->n);
	}
	for (size_t i = 0; i < st->npoison; i++) {
		const struct ct_metrics_poison *p = &st->poison[i];
		fprintf(f, "poison %s %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", p->memdev[0] ? p->memdev : "-", p->at,
			p->records, p->bytes);
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}
