// SPDX-License-Identifier: GPL-2.0-only
/* cdat-json.c - a decoded CDAT table and the kernel's view beside it as
 * JSON: every field, in real units (the table cells: cdat-table.c) */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cdat-json.h"
#include "render/figures-json.h"
#include "cli/json-build.h"
#include "mm/access.h"
#include "cxl/cdat.h"
#include "cxl/memdev-view.h"

/* ---- decode to JSON ---- */

static void add_value(json_object *o, uint8_t dt, uint64_t base, uint16_t entry)
{
	uint64_t v;

	if (!cdat_value(base, entry, &v))
		return;	/* 0 = not given, 0xffff = unreachable: absent */
	if (cdat_data_type_is_latency(dt)) {
		jb_u64(o, "latency_ps", v);
		jb_double(o, "latency_ns", v / 1000.0);
	} else if (cdat_data_type_name(dt)) {
		jb_u64(o, "bandwidth_mbps", v);
	} else {
		return;
	}
	if (!cdat_kernel_keeps(v))
		jb_bool(o, "kernel_ignores", true);	/* tiers and doctor go without it too */
}

static void add_data_type(json_object *o, uint8_t dt)
{
	const char *n = cdat_data_type_name(dt);

	jb_str(o, "data_type", n ? n : "reserved");
	jb_int(o, "data_type_id", dt);
}

/* DSLBIS, DSMSCIS: the whole range of the DSMAS with this handle */
static void add_dsmas_range(json_object *o, const struct cdat_table *t, uint8_t handle)
{
	const struct cdat_struct *m = cdat_dsmas(t, handle);

	if (!m)
		return;
	jb_u64(o, "dpa_base", m->u.dsmas.dpa_base);
	jb_u64(o, "dpa_length", m->u.dsmas.dpa_length);
}

/* DSEMTS: its own part of the DSMAS range, DPA Offset from the DSMAS's
 * base for DPA Length bytes (0 bytes: no range; CDAT gives 0 no "whole
 * range" meaning); no base when the offset runs past 2^64 */
static void add_dsemts_range(json_object *o, const struct cdat_table *t, const struct cdat_struct *s)
{
	const struct cdat_struct *m = cdat_dsmas(t, s->u.dsemts.handle);

	if (m && s->u.dsemts.dpa_offset <= UINT64_MAX - m->u.dsmas.dpa_base)
		jb_u64(o, "dpa_base", m->u.dsmas.dpa_base + s->u.dsemts.dpa_offset);
	jb_u64(o, "dpa_length", s->u.dsemts.dpa_length);
}

static void port_id(json_object *o, const char *k, uint16_t id)
{
	char key[32];

	snprintf(key, sizeof(key), "%s_id", k);
	jb_int(o, key, id);
	if (id == CDAT_SSLBIS_PORT_UPSTREAM)
		jb_str(o, k, "upstream");
	else if (id == CDAT_SSLBIS_PORT_ANY)
		jb_str(o, k, "any");
	else {
		char s[16];
		snprintf(s, sizeof(s), "downstream%u", id);
		jb_str(o, k, s);
	}
}

static void dsmas_json(json_object *o, const struct cdat_struct *s)
{
	static const struct { unsigned bit; const char *name; } flags[] = {
		{ CDAT_DSMAS_NON_VOLATILE, "non_volatile" }, { CDAT_DSMAS_SHAREABLE, "shareable" },
		{ CDAT_DSMAS_HW_COHERENCY, "hw_managed_coherency" },
		{ CDAT_DSMAS_DYNAMIC_CAPACITY, "dynamic_capacity" }, { CDAT_DSMAS_READ_ONLY, "read_only" },
	};
	json_object *a;

	jb_int(o, "handle", s->u.dsmas.handle);
	jb_int(o, "flags", s->u.dsmas.flags);
	a = jb_arr(o, "flag_names");
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (s->u.dsmas.flags & flags[i].bit)
			json_object_array_add(a, json_object_new_string(flags[i].name));
	jb_u64(o, "dpa_base", s->u.dsmas.dpa_base);
	jb_u64(o, "dpa_length", s->u.dsmas.dpa_length);
}

static void dslbis_json(json_object *o, const struct cdat_table *t, const struct cdat_struct *s)
{
	json_object *a;

	jb_int(o, "handle", s->u.dslbis.handle);
	jb_int(o, "flags", s->u.dslbis.flags);
	jb_str(o, "hierarchy", cdat_hierarchy_name(s->u.dslbis.flags));
	add_data_type(o, s->u.dslbis.data_type);
	jb_u64(o, "entry_base_unit", s->u.dslbis.base_unit);
	a = jb_arr(o, "entries");
	for (int i = 0; i < 3; i++)
		json_object_array_add(a, json_object_new_int(s->u.dslbis.entry[i]));
	add_value(o, s->u.dslbis.data_type, s->u.dslbis.base_unit, s->u.dslbis.entry[0]);
	add_dsmas_range(o, t, s->u.dslbis.handle);
}

static void dsmscis_json(json_object *o, const struct cdat_table *t, const struct cdat_struct *s)
{
	struct cdat_cache_attrs c;
	json_object *co;

	cdat_cache_attrs(s->u.dsmscis.attributes, &c);
	jb_int(o, "handle", s->u.dsmscis.handle);
	jb_u64(o, "cache_size", s->u.dsmscis.cache_size);
	jb_int(o, "attributes", s->u.dsmscis.attributes);
	co = jb_obj(o, "cache");
	jb_int(co, "total_levels", c.total_levels);
	jb_int(co, "level", c.level);
	jb_str(co, "associativity", c.associativity);
	jb_str(co, "write_policy", c.write_policy);
	jb_int(co, "line_size", c.line_size);
	add_dsmas_range(o, t, s->u.dsmscis.handle);
}

static void sslbis_json(json_object *o, const struct cdat_struct *s)
{
	json_object *a;

	add_data_type(o, s->u.sslbis.data_type);
	jb_u64(o, "entry_base_unit", s->u.sslbis.base_unit);
	a = jb_arr(o, "entries");
	for (size_t i = 0; i < s->u.sslbis.nentries; i++) {
		const struct cdat_sslbis_entry *e = &s->u.sslbis.entries[i];
		json_object *eo = json_object_new_object();
		port_id(eo, "port_x", e->port_x);
		port_id(eo, "port_y", e->port_y);
		jb_int(eo, "entry", e->value);
		add_value(eo, s->u.sslbis.data_type, s->u.sslbis.base_unit, e->value);
		json_object_array_add(a, eo);
	}
}

static json_object *struct_json(const struct cdat_table *t, const struct cdat_struct *s)
{
	json_object *o = json_object_new_object();

	jb_str(o, "type", cdat_type_name(s->type));
	jb_int(o, "type_id", s->type);
	jb_u64(o, "offset", s->offset);
	jb_int(o, "length", s->length);
	switch (s->type) {
	case CDAT_DSMAS:
		dsmas_json(o, s);
		break;
	case CDAT_DSLBIS:
		dslbis_json(o, t, s);
		break;
	case CDAT_DSMSCIS:
		dsmscis_json(o, t, s);
		break;
	case CDAT_DSIS:
		jb_int(o, "flags", s->u.dsis.flags);
		jb_bool(o, "memory_attached", s->u.dsis.flags & 1);
		jb_int(o, "handle", s->u.dsis.handle);
		break;
	case CDAT_DSEMTS:
		jb_int(o, "handle", s->u.dsemts.handle);
		jb_int(o, "efi_type", s->u.dsemts.efi_type);
		jb_str(o, "efi_type_name", cdat_efi_type_name(s->u.dsemts.efi_type));
		jb_u64(o, "dpa_offset", s->u.dsemts.dpa_offset);
		add_dsemts_range(o, t, s);
		break;
	case CDAT_SSLBIS:
		sslbis_json(o, s);
		break;
	}
	return o;
}

/* order: by DSMAD handle group, and in a group the DSMAS first, then its
 * DSLBIS, DSMSCIS and DSEMTS, each kind in table order; the structures
 * with no DSMAD handle (DSIS, SSLBIS, reserved types) after every group,
 * in table order */
static int group_of(const struct cdat_struct *s)
{
	switch (s->type) {
	case CDAT_DSMAS: return s->u.dsmas.handle * 4;
	case CDAT_DSLBIS: return s->u.dslbis.handle * 4 + 1;
	case CDAT_DSMSCIS: return s->u.dsmscis.handle * 4 + 2;
	case CDAT_DSEMTS: return s->u.dsemts.handle * 4 + 3;
	default: return 1024;	/* past 255 * 4 + 3 */
	}
}

static int cmp_group(const void *a, const void *b)
{
	const struct cdat_struct *x = *(const struct cdat_struct *const *)a, *y = *(const struct cdat_struct *const *)b;
	int gx = group_of(x), gy = group_of(y);

	if (gx != gy)
		return gx < gy ? -1 : 1;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

json_object *cdat_table_json(const struct cdat_table *t, const uint8_t *buf, size_t len, bool raw)
{
	json_object *o = json_object_new_object(), *arr;
	const struct cdat_struct **order = calloc(t->n ? t->n : 1, sizeof(*order));

	jb_u64(o, "length", t->length);
	jb_int(o, "revision", t->revision);
	jb_int(o, "checksum", t->checksum);
	jb_bool(o, "checksum_valid", t->checksum_valid);
	jb_u64(o, "sequence", t->sequence);
	if (t->trailing)
		jb_u64(o, "trailing_bytes", t->trailing);
	arr = jb_arr(o, "structures");
	if (order) {
		for (size_t i = 0; i < t->n; i++)
			order[i] = &t->s[i];
		qsort(order, t->n, sizeof(*order), cmp_group);
		for (size_t i = 0; i < t->n; i++)
			json_object_array_add(arr, struct_json(t, order[i]));
		free(order);
	}
	if (raw) {
		char *hex = malloc(2 * len + 1);
		if (hex) {
			for (size_t i = 0; i < len; i++)
				snprintf(hex + 2 * i, 3, "%02x", buf[i]);
			hex[2 * len] = '\0';
			jb_str(o, "raw", hex);
			free(hex);
		}
	}
	return o;
}

/* ---- the kernel's view ---- */

void cdat_kernel_json(json_object *tab, const struct ct_memdev_view *v)
{
	json_object *k = jb_obj(tab, "kernel"), *figs;

	if (v->has_ram_qos)
		jb_int(k, "ram_qos_class", v->ram_qos);
	if (v->has_pmem_qos)
		jb_int(k, "pmem_qos_class", v->pmem_qos);
	figs = jb_arr(k, "figures");
	for (size_t i = 0; i < v->nfigures; i++) {
		const struct ct_figure *x = &v->figures[i];
		json_object *f = json_object_new_object();
		jb_str(f, "object", x->object);
		jb_int(f, "access", x->access);
		jb_str(f, "source", ct_access_figure_source_name(x->source));
		jb_str(f, "region", x->region);
		jb_u64(f, "read_latency_ns", x->acc.read_latency);
		jb_u64(f, "write_latency_ns", x->acc.write_latency);
		jb_u64(f, "read_bandwidth_mbps", x->acc.read_bandwidth);
		jb_u64(f, "write_bandwidth_mbps", x->acc.write_bandwidth);
		latency_check_json(f, &x->check);
		json_object_array_add(figs, f);
	}
}
