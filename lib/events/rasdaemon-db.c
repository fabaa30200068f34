// SPDX-License-Identifier: LGPL-2.1-or-later
/* rasdaemon-db.c - rasdaemon's CXL records made again into the kernel's:
 * see rasdaemon-db.h */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sqlite3.h>
#include "core/time-parse.h"
#include "events/rasdaemon-db.h"

/* a table and the tracepoint its rows came from; the record format's UUID
 * where the table is of one format (CXL 3.1 Table 8-43): a row that keeps
 * none (rasdaemon writes '' when it could not read the kernel's) is of it */
static const struct {
	const char *table, *event, *uuid;
} tables[CT_RASDAEMON_TABLES] = {
	{ "cxl_general_media_event", "cxl_general_media", "fbcd0a77-c260-417f-85a9-088b1621eba6" },
	{ "cxl_dram_event", "cxl_dram", "601dcbb3-9c06-4eab-b8af-4e9bfb5c9624" },
	{ "cxl_memory_module_event", "cxl_memory_module", "fe927475-dd59-4339-a586-79bab113b774" },
	{ "cxl_generic_event", "cxl_generic_event", NULL },
	{ "cxl_poison_event", "cxl_poison", NULL },
	{ "cxl_aer_ue_event", "cxl_aer_uncorrectable_error", NULL },
	{ "cxl_aer_ce_event", "cxl_aer_correctable_error", NULL },
	{ "cxl_overflow_event", "cxl_overflow", NULL },
};

/* the size of an element of a DRAM record's cor_mask, as the running
 * kernel's tracepoint has it: 8 (u64[4]) or 1 (u8[32]) */
static unsigned cor_mask_elem = 8;

void ct_rasdaemon_cor_mask_like(struct ct_sysfs *s)
{
	char *format = NULL;
	const char *at;

	cor_mask_elem = 8;
	if (ct_sysfs_read_text(s, "/sys/kernel/tracing/events/cxl/cxl_dram/format", &format))
		return;
	/* "field:u8 cor_mask[32];" or "field:u64 cor_mask[4];" */
	if ((at = strstr(format, " cor_mask[")) && at - format >= 3 && (at[-3] == ':' || at[-3] == ' ') &&
	    at[-2] == 'u' && at[-1] == '8')
		cor_mask_elem = 1;
	free(format);
}

/* rasdaemon's column -> the kernel's field, where they differ */
static const char *field_of(const char *event, const char *column)
{
	if (!strcmp(column, "log_type"))
		return "log";
	if (!strcmp(column, "hdr_ts"))
		return "hdr_timestamp";
	if (!strcmp(column, "error_status"))
		return "status";
	if (!strcmp(column, "region"))
		return strcmp(event, "cxl_poison") ? "region_name" : "region";
	if (!strcmp(column, "region_uuid") && !strcmp(event, "cxl_poison"))
		return "uuid";
	return column;
}

/* its name as rasdaemon writes it, as a number: -1 unknown */
static int index_of(const char *text, const char *const *names, int n)
{
	for (int i = 0; text && i < n; i++)
		if (names[i] && !strcasecmp(text, names[i]))
			return i;
	return -1;
}

/* "2025-12-06 10:00:00 +0100" (rasdaemon's strftime "%Y-%m-%d %H:%M:%S %z"):
 * 0 and *ns; "1970-01-01 00:00:00 +0000" is rasdaemon's none */
static int time_of(const unsigned char *text, uint64_t *ns)
{
	return text ? ct_parse_time((const char *)text, 0, ns) : -EINVAL;
}

static unsigned hex_digit(unsigned char c)
{
	return isdigit(c) ? (unsigned)(c - '0') : (unsigned)(tolower(c) - 'a' + 10);
}

/* "fbcd0a77-c260-417f-85a9-088b1621eba6" into 16 bytes */
static bool uuid_of(const unsigned char *text, uint8_t out[16])
{
	size_t n = 0;

	for (const unsigned char *p = text; p && *p && n < 32; p++) {
		if (*p == '-')
			continue;
		if (!isxdigit(*p))
			return false;
		if (n % 2)
			out[n / 2] |= (uint8_t)hex_digit(*p);
		else
			out[n / 2] = (uint8_t)(hex_digit(*p) << 4);
		n++;
	}
	return n == 32;
}

/* a text column that names a number */
static bool named(struct ct_event *e, const char *field, const char *column, const unsigned char *text)
{
	static const char *const logs[] = { "Informational", "Warning", "Failure", "Fatal" };
	static const char *const traces[] = { "List", "Inject", "Clear" };
	static const char *const sources[] = { "Unknown", "External", "Internal", "Injected", NULL, NULL, NULL, "Vendor" };
	int v;

	if (!strcmp(column, "log_type"))
		v = index_of((const char *)text, logs, 4);
	else if (!strcmp(column, "trace_type"))
		v = index_of((const char *)text, traces, 3);
	else if (!strcmp(column, "source"))
		v = index_of((const char *)text, sources, 8);
	else
		return false;
	if (v >= 0) {
		if (!strcmp(field, "log"))
			ct_event_add_int(e, field, v);
		else
			ct_event_add_uint(e, field, (uint64_t)v);
	}
	return true;
}

/* one column into the record: false when its value does not read */
static bool column(struct ct_event *e, sqlite3_stmt *st, int i)
{
	const char *name = sqlite3_column_name(st, i), *field = field_of(e->event, name);
	int type = sqlite3_column_type(st, i);	/* (before a conversion changes it) */
	const unsigned char *text;
	uint8_t uuid[16];
	uint64_t ns;
	int len;

	if (!strcmp(name, "id") || !strncmp(name, "pldm_", 5) || type == SQLITE_NULL)
		return true;	/* rasdaemon's own, or what it made of comp_id */
	if (type == SQLITE_BLOB) {	/* cor_mask: u64[4] or u8[32]; header_log: u32[128]; comp_id, data: bytes */
		unsigned elem = !strcmp(name, "cor_mask") ? cor_mask_elem : !strcmp(name, "header_log") ? 4 : 1;
		return ct_event_add_bytes(e, field, elem > 1 ? CT_FIELD_UINT_ARRAY : CT_FIELD_BYTES,
					  sqlite3_column_blob(st, i), (size_t)sqlite3_column_bytes(st, i), elem) != NULL;
	}
	text = sqlite3_column_text(st, i);
	len = sqlite3_column_bytes(st, i);
	if (!strcmp(name, "timestamp"))
		return !time_of(text, &e->trace_time);
	if (!strcmp(name, "hdr_ts") || !strcmp(name, "first_ts") || !strcmp(name, "last_ts") ||
	    !strcmp(name, "overflow_ts")) {
		if (time_of(text, &ns))
			return false;
		return ct_event_add_uint(e, field, ns) != NULL;
	}
	if (named(e, field, name, text))
		return true;
	if (strstr(name, "uuid")) {	/* ('' or zeros for none) */
		static const uint8_t none[16];
		if (!len)
			return true;
		if (!uuid_of(text, uuid))
			return false;
		return !memcmp(uuid, none, 16) || ct_event_add_bytes(e, field, CT_FIELD_UUID, uuid, 16, 1);
	}
	if (type == SQLITE_TEXT)
		return ct_event_add_string(e, field, (const char *)text, (size_t)len) != NULL;
	if (!strcmp(name, "device_temp"))
		return ct_event_add_int(e, field, sqlite3_column_int64(st, i)) != NULL;
	return ct_event_add_uint(e, field, (uint64_t)sqlite3_column_int64(st, i)) != NULL;
}

/* one table's rows, each a record for fn */
static int read_table(sqlite3 *db, int t, ct_rasdaemon_fn fn, void *arg, struct ct_rasdaemon_table *tab,
		      struct ct_error *err)
{
	static struct ct_event e;
	uint8_t uuid[16];
	sqlite3_stmt *st;
	char sql[96];
	int rc, stop = 0;

	snprintf(sql, sizeof(sql), "SELECT * FROM %s ORDER BY id", tables[t].table);
	if ((rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL)))
		return ct_fail(err, EIO, "rasdaemon's %s: %s", tables[t].table, sqlite3_errmsg(db));
	while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		bool good = true;
		tab->rows++;
		ct_event_init(&e, tables[t].event);
		for (int i = 0; i < sqlite3_column_count(st) && good; i++)
			good = column(&e, st, i);
		if (good && tables[t].uuid && !ct_event_field(&e, "hdr_uuid") && ct_event_field(&e, "hdr_flags"))
			good = uuid_of((const unsigned char *)tables[t].uuid, uuid) &&
			       ct_event_add_bytes(&e, "hdr_uuid", CT_FIELD_UUID, uuid, 16, 1);
		ct_event_decode_fields(&e);
		if (!good || !e.memdev[0] || !e.trace_time) {
			tab->skipped++;
			continue;
		}
		stop = fn(&e, tab, arg);
	}
	if (!stop && rc != SQLITE_DONE)
		stop = ct_fail(err, EIO, "rasdaemon's %s: %s", tables[t].table, sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return stop;
}

static bool has_table(sqlite3 *db, const char *name)
{
	sqlite3_stmt *st;
	bool found = false;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", -1, &st, NULL))
		return false;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

int ct_rasdaemon_read(const char *path, ct_rasdaemon_fn fn, ct_rasdaemon_end_fn end, void *arg,
		      struct ct_rasdaemon_table tab[CT_RASDAEMON_TABLES], struct ct_error *err)
{
	sqlite3 *db = NULL;
	int rc = 0, any = 0;

	memset(tab, 0, CT_RASDAEMON_TABLES * sizeof(*tab));
	if (access(path, R_OK))
		return ct_fail(err, errno, "rasdaemon's database %s: %s", path, strerror(errno));
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL)) {
		rc = ct_fail(err, EIO, "rasdaemon's database %s: %s", path, sqlite3_errmsg(db));
		sqlite3_close(db);
		return rc;
	}
	sqlite3_busy_timeout(db, 2000);
	for (int t = 0; t < CT_RASDAEMON_TABLES; t++) {
		tab[t].name = tables[t].table;
		any += tab[t].present = has_table(db, tables[t].table);
	}
	if (!any)
		rc = ct_fail(err, EMEDIUMTYPE, "%s has no CXL table of rasdaemon's (0.8 and later keep them: "
			     "cxl_general_media_event...)", path);
	for (int t = 0; t < CT_RASDAEMON_TABLES && !rc; t++)
		if (tab[t].present && !(rc = read_table(db, t, fn, arg, &tab[t], err)) && end)
			rc = end(&tab[t], arg);
	sqlite3_close(db);
	return rc;
}
