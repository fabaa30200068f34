// SPDX-License-Identifier: GPL-2.0-only
/* events-journal.c - CXL event records as journal entries: see
 * events-journal.h. The MESSAGE_IDs are fixed (docs/cxltier-events.txt
 * lists them): a catalog or a query may rely on them. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <syslog.h>
#include <unistd.h>
#include <systemd/sd-journal.h>
#include "events-journal.h"

#define MAX_FIELDS 16

/* per kind, in the order of enum ct_event_kind */
static const char *const message_ids[] = {
	"1f3e5a25bb9348d5a758dd78e5e0c6a0",	/* general_media */
	"3fdea6c34d8544d39bf1fa9c0d584ed5",	/* dram */
	"de38f5dc1674416e81eae693f3ca5195",	/* memory_module */
	"04dba87926a34c76aceef25b0352b76d",	/* poison */
	"1fb6107e901a4a60990a51f674486416",	/* overflow */
	"e72098c2c13f45b2ba743f9daf9e057d",	/* aer */
	"9f8faf3185a64e3e9e9536d2349fff4d",	/* generic */
};

/* informational, warning, failure, fatal: a failure lost data (err), a
 * fatal one took the device's memory away (crit) */
static const int priorities[] = { LOG_INFO, LOG_WARNING, LOG_ERR, LOG_CRIT };

static bool is_fd(int fd, unsigned long long dev, unsigned long long ino)
{
	struct stat st;

	return !fstat(fd, &st) && st.st_dev == dev && st.st_ino == ino;
}

bool events_journal_stream(void)
{
	const char *v = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;

	if (!v || sscanf(v, "%llu:%llu", &dev, &ino) != 2)
		return false;
	return is_fd(STDERR_FILENO, dev, ino) && is_fd(STDOUT_FILENO, dev, ino);
}

struct entry {
	struct iovec iov[MAX_FIELDS];
	int n;
};

static void add(struct entry *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct entry *j, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (j->n < MAX_FIELDS && vasprintf(&s, fmt, ap) >= 0)
		j->iov[j->n++] = (struct iovec){ .iov_base = s, .iov_len = strlen(s) };
	va_end(ap);
}

/* "mem0: warning general_media at DPA 0x1000 (HPA 0x..., region0): DETAIL" */
static void add_message(struct entry *j, const struct ct_event *e, const char *kind, const char *sev,
			const char *detail, bool dpa)
{
	char where[128] = "";

	if (dpa)
		snprintf(where, sizeof(where), " at DPA 0x%" PRIx64, e->dpa);
	if (dpa && e->has_hpa)
		snprintf(where + strlen(where), sizeof(where) - strlen(where), " (HPA 0x%" PRIx64 "%s%s)", e->hpa,
			 e->region[0] ? ", " : "", e->region);
	add(j, "MESSAGE=%s: %s %s%s%s%s", e->memdev[0] ? e->memdev : "cxl", sev, kind, where, detail[0] ? ": " : "",
	    detail);
}

int events_journal_send(const struct ct_event *e, json_object *o, const char *detail)
{
	int s = ct_event_severity(e);
	const char *kind = ct_event_kind_name(e->kind), *sev = ct_severity_name((uint8_t)s);
	bool dpa = e->kind == CT_EV_GENERAL_MEDIA || e->kind == CT_EV_DRAM || e->kind == CT_EV_POISON;
	struct entry j = { .n = 0 };
	int rc;

	add_message(&j, e, kind, sev, detail, dpa);
	add(&j, "MESSAGE_ID=%s", message_ids[e->kind < 7 ? e->kind : CT_EV_GENERIC]);
	add(&j, "PRIORITY=%d", s >= 0 && s < 4 ? priorities[s] : LOG_NOTICE);
	add(&j, "SYSLOG_IDENTIFIER=cxltier");
	add(&j, "CXL_KIND=%s", kind);
	add(&j, "CXL_SEVERITY=%s", sev);
	if (e->event[0])
		add(&j, "CXL_EVENT=%s", e->event);
	if (e->memdev[0])
		add(&j, "CXL_MEMDEV=%s", e->memdev);
	if (e->host[0])
		add(&j, "CXL_HOST=%s", e->host);
	if (e->has_serial)
		add(&j, "CXL_SERIAL=0x%" PRIx64, e->serial);
	if (dpa)
		add(&j, "CXL_DPA=0x%" PRIx64, e->dpa);
	if (e->has_hpa)
		add(&j, "CXL_HPA=0x%" PRIx64, e->hpa);
	if (e->region[0])
		add(&j, "CXL_REGION=%s", e->region);
	add(&j, "CXL_JSON=%s", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	rc = sd_journal_sendv(j.iov, j.n);
	for (int i = 0; i < j.n; i++)
		free(j.iov[i].iov_base);
	return rc;
}
