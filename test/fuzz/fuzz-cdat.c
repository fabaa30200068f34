// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target: the CDAT decoder must never crash or read out of bounds,
 * a table it accepts must be self-consistent, and what `cdat` and `tiers`
 * derive from it (names, cache attributes, the device's volatile figures)
 * must agree with the table: each latency in ns is the table's value in ps
 * rounded up, never wrapped. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "mm/access.h"
#include "cxl/cdat.h"

/* the figures cdat_volatile_perf should find: the first volatile DSMAS (else
 * the first), its DSLBIS for memory (not caches); later ones win; a product
 * above 2^32 - 1 is no figure, as the kernel's cdat_normalize() has it */
static void expect(const struct cdat_table *t, struct ct_access *e)
{
	const struct cdat_struct *m = NULL;

	memset(e, 0, sizeof(*e));
	for (size_t i = 0; i < t->n; i++)
		if (t->s[i].type == CDAT_DSMAS && (!m || ((m->u.dsmas.flags & CDAT_DSMAS_NON_VOLATILE) &&
							 !(t->s[i].u.dsmas.flags & CDAT_DSMAS_NON_VOLATILE))))
			m = &t->s[i];
	for (size_t i = 0; m && i < t->n; i++) {
		const struct cdat_struct *s = &t->s[i];
		unsigned __int128 v = (unsigned __int128)s->u.dslbis.base_unit * s->u.dslbis.entry[0];
		uint64_t ns;

		if (s->type != CDAT_DSLBIS || s->u.dslbis.handle != m->u.dsmas.handle || (s->u.dslbis.flags & 0x0f) ||
		    !s->u.dslbis.entry[0] || s->u.dslbis.entry[0] == 0xffff || v > UINT32_MAX ||
		    s->u.dslbis.data_type > CDAT_WRITE_BANDWIDTH)
			continue;
		ns = (uint64_t)((v + 999) / 1000);
		switch (s->u.dslbis.data_type) {
		case CDAT_ACCESS_LATENCY: e->read_latency = e->write_latency = ns; break;
		case CDAT_READ_LATENCY: e->read_latency = ns; break;
		case CDAT_WRITE_LATENCY: e->write_latency = ns; break;
		case CDAT_ACCESS_BANDWIDTH: e->read_bandwidth = e->write_bandwidth = (uint64_t)v; break;
		case CDAT_READ_BANDWIDTH: e->read_bandwidth = (uint64_t)v; break;
		case CDAT_WRITE_BANDWIDTH: e->write_bandwidth = (uint64_t)v; break;
		}
		e->present = true;
	}
}

static void derive(const struct cdat_table *t)
{
	struct ct_access got, want;

	for (size_t i = 0; i < t->n; i++) {
		const struct cdat_struct *s = &t->s[i];
		struct cdat_cache_attrs ca;
		uint64_t v;

		if (!cdat_type_name(s->type))
			abort();
		switch (s->type) {
		case CDAT_DSLBIS:
			cdat_data_type_name(s->u.dslbis.data_type);
			cdat_data_type_is_latency(s->u.dslbis.data_type);
			if (!cdat_hierarchy_name(s->u.dslbis.flags))
				abort();
			for (int k = 0; k < 3; k++)
				if (cdat_value(s->u.dslbis.base_unit, s->u.dslbis.entry[k], &v) &&
				    v / s->u.dslbis.entry[k] != s->u.dslbis.base_unit)
					abort();
			if (!cdat_dsmas(t, s->u.dslbis.handle))
				cdat_dsmas(t, 0);
			break;
		case CDAT_DSMSCIS:
			cdat_cache_attrs(s->u.dsmscis.attributes, &ca);
			if (!ca.associativity || !ca.write_policy)
				abort();
			break;
		case CDAT_DSEMTS:
			if (!cdat_efi_type_name(s->u.dsemts.efi_type))
				abort();
			break;
		case CDAT_SSLBIS:
			cdat_data_type_name(s->u.sslbis.data_type);
			for (size_t k = 0; k < s->u.sslbis.nentries; k++)
				cdat_value(s->u.sslbis.base_unit, s->u.sslbis.entries[k].value, &v);
			break;
		}
	}
	expect(t, &want);
	if (cdat_volatile_perf(t, &got) != want.present || memcmp(&got, &want, sizeof(got)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cdat_table t;
	struct ct_error err;
	int rc = cdat_decode(data, size, &t, &err);

	if (rc == 0) {
		size_t end = CDAT_HEADER_LEN;
		for (size_t i = 0; i < t.n; i++) {
			if (t.s[i].offset != end || t.s[i].length < 4)
				abort();
			end += t.s[i].length;
		}
		if (end != t.length || !t.checksum_valid || t.length > size)
			abort();
	}
	/* a table with a bad checksum is still shown, with what it says */
	derive(&t);
	cdat_free(&t);
	return 0;
}
