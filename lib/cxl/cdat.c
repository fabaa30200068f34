// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mm/access.h"
#include "cxl/cdat.h"
#include "core/bytes.h"


static const char *const type_names[] = { "dsmas", "dslbis", "dsmscis", "dsis", "dsemts", "sslbis" };
static const uint16_t fixed_len[] = { 24, 24, 20, 8, 24, 0 };

const char *cdat_type_name(uint8_t type)
{
	return type <= CDAT_SSLBIS ? type_names[type] : "reserved";
}

const char *cdat_data_type_name(uint8_t dt)
{
	static const char *const names[] = {
		"access_latency", "read_latency", "write_latency",
		"access_bandwidth", "read_bandwidth", "write_bandwidth",
	};
	return dt <= CDAT_WRITE_BANDWIDTH ? names[dt] : NULL;
}

bool cdat_data_type_is_latency(uint8_t dt)
{
	return dt <= CDAT_WRITE_LATENCY;
}

bool cdat_value(uint64_t base, uint16_t entry, uint64_t *value)
{
	if (entry == 0 || entry == 0xffff)
		return false;
	if (base > UINT64_MAX / entry)
		return false;
	*value = base * entry;
	return true;
}

bool cdat_kernel_keeps(uint64_t value)
{
	return value <= UINT32_MAX;
}

const char *cdat_efi_type_name(uint8_t t)
{
	switch (t) {
	case 0: return "conventional";
	case 1: return "specific_purpose";
	case 2: return "reserved_memory";
	default: return "unknown";
	}
}

const char *cdat_hierarchy_name(uint8_t flags)
{
	switch (flags & 0x0f) {
	case 0: return "memory";
	case 1: return "cache_level_1";
	case 2: return "cache_level_2";
	case 3: return "cache_level_3";
	default: return "reserved";
	}
}

void cdat_cache_attrs(uint32_t a, struct cdat_cache_attrs *o)
{
	static const char *const assoc[] = { "none", "direct_mapped", "complex" };
	static const char *const wp[] = { "none", "write_back", "write_through" };
	unsigned as = (a >> 8) & 0xf, w = (a >> 12) & 0xf;

	o->total_levels = a & 0xf;
	o->level = (a >> 4) & 0xf;
	o->associativity = as < 3 ? assoc[as] : "reserved";
	o->write_policy = w < 3 ? wp[w] : "reserved";
	o->line_size = a >> 16;
}

const struct cdat_struct *cdat_dsmas(const struct cdat_table *t, uint8_t handle)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->s[i].type == CDAT_DSMAS && t->s[i].u.dsmas.handle == handle)
			return &t->s[i];
	return NULL;
}

static int bad(struct ct_error *err, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int bad(struct ct_error *err, size_t off, const char *fmt, ...)
{
	char rule[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rule, sizeof(rule), fmt, ap);
	va_end(ap);
	return ct_fail(err, EBADMSG, "malformed CDAT at byte offset %zu: %s", off, rule);
}

static void fill(struct cdat_struct *s, const uint8_t *p)
{
	switch (s->type) {
	case CDAT_DSMAS:
		s->u.dsmas.handle = p[4];
		s->u.dsmas.flags = p[5];
		s->u.dsmas.dpa_base = ct_le64(p + 8);
		s->u.dsmas.dpa_length = ct_le64(p + 16);
		break;
	case CDAT_DSLBIS:
		s->u.dslbis.handle = p[4];
		s->u.dslbis.flags = p[5];
		s->u.dslbis.data_type = p[6];
		s->u.dslbis.base_unit = ct_le64(p + 8);
		for (int i = 0; i < 3; i++)
			s->u.dslbis.entry[i] = ct_le16(p + 16 + 2 * i);
		break;
	case CDAT_DSMSCIS:
		s->u.dsmscis.handle = p[4];
		s->u.dsmscis.cache_size = ct_le64(p + 8);
		s->u.dsmscis.attributes = ct_le32(p + 16);
		break;
	case CDAT_DSIS:
		s->u.dsis.flags = p[4];
		s->u.dsis.handle = p[5];
		break;
	case CDAT_DSEMTS:
		s->u.dsemts.handle = p[4];
		s->u.dsemts.efi_type = p[5];
		s->u.dsemts.dpa_offset = ct_le64(p + 8);
		s->u.dsemts.dpa_length = ct_le64(p + 16);
		break;
	}
}

int cdat_decode(const uint8_t *buf, size_t len, struct cdat_table *t, struct ct_error *err)
{
	size_t p, cap = 0;

	memset(t, 0, sizeof(*t));
	if (len < CDAT_HEADER_LEN)
		return bad(err, 0, "the table is %zu bytes, shorter than the %d-byte header",
			   len, CDAT_HEADER_LEN);
	t->length = ct_le32(buf);
	t->revision = buf[4];
	t->checksum = buf[5];
	t->sequence = ct_le32(buf + 12);
	if (t->length < CDAT_HEADER_LEN)
		return bad(err, 0, "the header's length %u is smaller than the header (%d bytes)",
			   t->length, CDAT_HEADER_LEN);
	if (t->length > len)
		return bad(err, 0, "the header's length %u runs past the end of the data (%zu bytes)",
			   t->length, len);
	t->trailing = len - t->length;

	for (p = CDAT_HEADER_LEN; p < t->length;) {
		const uint8_t *s = buf + p;
		uint8_t type;
		uint16_t slen;
		struct cdat_struct *cs;

		if (p + 4 > t->length)
			return bad(err, p, "%zu bytes left before the table's end, too few for a structure header (4)",
				   t->length - p);
		type = s[0];
		slen = ct_le16(s + 2);
		if (slen < 4)
			return bad(err, p, "%s structure length %u is shorter than its own 4-byte header",
				   cdat_type_name(type), slen);
		if (p + slen > t->length)
			return bad(err, p, "%s structure length %u runs past the table's end (byte %u)",
				   cdat_type_name(type), slen, t->length);
		if (type < CDAT_SSLBIS && slen != fixed_len[type])
			return bad(err, p, "%s structure length %u, must be %u", cdat_type_name(type), slen,
				   fixed_len[type]);
		/* at least one entry: the kernel's cdat_sslbis_handler() refuses an empty SSLBIS */
		if (type == CDAT_SSLBIS && (slen <= 16 || (slen - 16) % 8))
			return bad(err, p, "sslbis structure length %u, must be 16 + 8 x entries, at least one", slen);
		if (t->n == cap) {
			struct cdat_struct *ns = realloc(t->s, (cap ? cap * 2 : 8) * sizeof(*ns));
			if (!ns)
				return ct_fail(err, ENOMEM, "out of memory decoding CDAT");
			t->s = ns;
			cap = cap ? cap * 2 : 8;
		}
		cs = &t->s[t->n];
		memset(cs, 0, sizeof(*cs));
		cs->type = type;
		cs->length = slen;
		cs->offset = p;
		if (type == CDAT_SSLBIS) {
			size_t n = (slen - 16) / 8;
			cs->u.sslbis.data_type = s[4];
			cs->u.sslbis.base_unit = ct_le64(s + 8);
			cs->u.sslbis.nentries = n;
			if (n) {
				cs->u.sslbis.entries = calloc(n, sizeof(struct cdat_sslbis_entry));
				if (!cs->u.sslbis.entries)
					return ct_fail(err, ENOMEM, "out of memory decoding CDAT");
				for (size_t i = 0; i < n; i++) {
					cs->u.sslbis.entries[i].port_x = ct_le16(s + 16 + 8 * i);
					cs->u.sslbis.entries[i].port_y = ct_le16(s + 18 + 8 * i);
					cs->u.sslbis.entries[i].value = ct_le16(s + 20 + 8 * i);
				}
			}
		} else {
			fill(cs, s);
		}
		t->n++;
		p += slen;
	}

	for (size_t i = 0; i < t->length; i++)
		t->byte_sum += buf[i];
	t->checksum_valid = t->byte_sum == 0;
	if (!t->checksum_valid)
		return ct_fail(err, EBADMSG,
			       "malformed CDAT at byte offset 5: checksum 0x%02x does not make the table's %u bytes sum to 0 (sum 0x%02x; expected checksum 0x%02x)",
			       t->checksum, t->length, t->byte_sum, (uint8_t)(t->checksum - t->byte_sum));
	return 0;
}

void cdat_free(struct cdat_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->s[i].type == CDAT_SSLBIS)
			free(t->s[i].u.sslbis.entries);
	free(t->s);
	memset(t, 0, sizeof(*t));
}

/* ps to ns, rounded up ((ps + 999) / 1000 wraps within 999 ps of 2^64) */
static uint64_t ps_to_ns(uint64_t ps)
{
	return ps / 1000 + (ps % 1000 != 0);
}

bool cdat_volatile_perf(const struct cdat_table *t, struct ct_access *out)
{
	const struct cdat_struct *m = NULL;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < t->n && !m; i++)
		if (t->s[i].type == CDAT_DSMAS && !(t->s[i].u.dsmas.flags & CDAT_DSMAS_NON_VOLATILE))
			m = &t->s[i];
	for (size_t i = 0; i < t->n && !m; i++)
		if (t->s[i].type == CDAT_DSMAS)
			m = &t->s[i];
	if (!m)
		return false;
	for (size_t i = 0; i < t->n; i++) {
		const struct cdat_struct *s = &t->s[i];
		uint64_t v;
		if (s->type != CDAT_DSLBIS || s->u.dslbis.handle != m->u.dsmas.handle ||
		    (s->u.dslbis.flags & 0x0f) != 0 ||
		    !cdat_value(s->u.dslbis.base_unit, s->u.dslbis.entry[0], &v) || !cdat_kernel_keeps(v))
			continue;
		switch (s->u.dslbis.data_type) {
		case CDAT_ACCESS_LATENCY:
			out->read_latency = out->write_latency = ps_to_ns(v);
			break;
		case CDAT_READ_LATENCY:
			out->read_latency = ps_to_ns(v);
			break;
		case CDAT_WRITE_LATENCY:
			out->write_latency = ps_to_ns(v);
			break;
		case CDAT_ACCESS_BANDWIDTH:
			out->read_bandwidth = out->write_bandwidth = v;
			break;
		case CDAT_READ_BANDWIDTH:
			out->read_bandwidth = v;
			break;
		case CDAT_WRITE_BANDWIDTH:
			out->write_bandwidth = v;
			break;
		default:
			continue;
		}
		out->present = true;
	}
	return out->present;
}
