// SPDX-License-Identifier: LGPL-2.1-or-later
/* aer-stats.c - see aer-stats.h */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cxl/aer-stats.h"

#define CXLDEV "/sys/bus/cxl/devices"

static const char *const files[CT_AER_NSEVERITIES] = { "aer_dev_correctable", "aer_dev_nonfatal", "aer_dev_fatal" };

const char *ct_aer_severity_name(enum ct_aer_severity s)
{
	static const char *const names[CT_AER_NSEVERITIES] = { "correctable", "nonfatal", "fatal" };

	return (unsigned)s < CT_AER_NSEVERITIES ? names[s] : "unknown";
}

static int parse_line(const char *line, enum ct_aer_severity sev, struct ct_aer_stats *st)
{
	char kind[sizeof(st->counts->kind)], *end;
	const char *sp = strchr(line, ' ');
	struct ct_aer_count *c;
	size_t klen = sp ? (size_t)(sp - line) : 0;
	uint64_t n;

	if (!klen || klen >= sizeof(kind) || sp[1] < '0' || sp[1] > '9')
		return -EBADMSG;
	for (size_t i = 0; i < klen; i++)
		if (!((line[i] >= 'a' && line[i] <= 'z') || (line[i] >= 'A' && line[i] <= 'Z') ||
		      (line[i] >= '0' && line[i] <= '9') || line[i] == '_'))
			return -EBADMSG;
	memcpy(kind, line, klen);
	kind[klen] = '\0';
	errno = 0;
	n = strtoull(sp + 1, &end, 10);
	if (errno || *end)
		return -EBADMSG;
	if (!strncmp(kind, "TOTAL_", 6)) {
		st->total[sev] = n;
		return 0;
	}
	c = realloc(st->counts, (st->ncounts + 1) * sizeof(*c));
	if (!c)
		return -ENOMEM;
	st->counts = c;
	c = &st->counts[st->ncounts++];
	snprintf(c->kind, sizeof(c->kind), "%s", kind);
	c->severity = sev;
	c->n = n;
	return 0;
}

int ct_aer_stats_parse(const char *text, enum ct_aer_severity sev, struct ct_aer_stats *st)
{
	char *copy, *save = NULL;
	int rc = 0;

	if ((unsigned)sev >= CT_AER_NSEVERITIES)
		return -EINVAL;
	if (!(copy = strdup(text)))
		return -ENOMEM;
	for (char *l = strtok_r(copy, "\n", &save); l && !rc; l = strtok_r(NULL, "\n", &save))
		rc = parse_line(l, sev, st);
	free(copy);
	return rc;
}

int ct_aer_stats_read(struct ct_sysfs *s, const char *memdev, struct ct_aer_stats *st)
{
	char link[256], dev[4096], path[4200], *slash, *text;
	int rc;

	memset(st, 0, sizeof(*st));
	/* the memdev's PCI device: the parent of memX */
	rc = ct_sysfs_realpath(s, ct_path(link, sizeof(link), CXLDEV "/%s", memdev), dev, sizeof(dev));
	if (rc)
		return rc;
	slash = strrchr(dev, '/');
	if (!slash || slash == dev)
		return ct_fail(s->err, ENOENT, "%s: no parent device", memdev);
	*slash = '\0';
	for (int sev = 0; sev < CT_AER_NSEVERITIES; sev++) {
		snprintf(path, sizeof(path), "%s/%s", dev, files[sev]);
		if (!ct_sysfs_exists(s, path)) {
			ct_aer_stats_free(st);
			return -ENOENT;
		}
		if ((rc = ct_sysfs_read_text(s, path, &text))) {
			ct_aer_stats_free(st);
			return rc;
		}
		rc = ct_aer_stats_parse(text, (enum ct_aer_severity)sev, st);
		free(text);
		if (rc) {
			ct_aer_stats_free(st);
			return rc == -ENOMEM ? ct_fail(s->err, ENOMEM, "out of memory")
					     : ct_fail(s->err, EBADMSG, "%s%s: not the kernel's AER counts (NAME COUNT lines)",
						       s->root, path);
		}
	}
	return 0;
}

void ct_aer_stats_free(struct ct_aer_stats *st)
{
	free(st->counts);
	memset(st, 0, sizeof(*st));
}
