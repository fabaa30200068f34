// SPDX-License-Identifier: GPL-2.0-only
/* topology-json.c - memdevs, regions and dax devices as `list -j` shows them
 * (and `region`, the region it made), and as the rows of their tree: one
 * tree per region (its memdevs in interleave position order, then its dax
 * devices), then the memdevs that back no region kept. Each object once. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "cli/json-build.h"
#include "render/topology-json.h"
#include "cli/output.h"

/* bytes: an integer, or with -u a string as people read it */
void topology_add_size(json_object *o, const char *k, uint64_t v, const struct topology_style *st)
{
	char buf[32];

	if (st && st->human)
		json_object_object_add(o, k, json_object_new_string(out_human_size(v, buf, sizeof(buf))));
	else
		jb_u64(o, k, v);
}

/* addresses and serials: an integer, or with -u a 0x... string */
void topology_add_hex(json_object *o, const char *k, uint64_t v, const struct topology_style *st)
{
	char buf[32];

	if (st && st->human) {
		snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
		json_object_object_add(o, k, json_object_new_string(buf));
	} else
		jb_u64(o, k, v);
}

json_object *topology_dax_json(const struct ct_dax *d, const struct topology_style *st)
{
	json_object *o = json_object_new_object(), *b;

	jb_str(o, "name", d->name);
	jb_str(o, "mode", d->mode);
	topology_add_size(o, "size", d->size, st);
	topology_add_hex(o, "resource", d->resource, st);
	jb_int_known(o, "target_node", d->target_node);
	jb_int_known(o, "memory_tier", d->memory_tier);
	if (d->blocks.total) {
		b = jb_obj(o, "memory_blocks");
		jb_u64(b, "first", d->blocks.first);
		jb_int(b, "total", d->blocks.total);
		jb_int(b, "online", d->blocks.online);
		jb_int(b, "offline", d->blocks.offline);
		jb_int(b, "movable", d->blocks.movable);
		jb_int(b, "normal", d->blocks.normal);
	}
	return o;
}

const char *topology_region_state(const struct ct_region *r)
{
	if (r->enabled)
		return "active";
	return r->committed ? "committed" : "disabled";
}

json_object *topology_region_json(const struct ct_region *r, const bool *keep_dax, const struct topology_style *st)
{
	json_object *o = json_object_new_object(), *targets, *daxes;

	jb_str(o, "name", r->name);
	jb_str(o, "mode", r->mode);
	topology_add_size(o, "size", r->size - r->cache_size, st);	/* the CXL capacity */
	if (r->resource)
		topology_add_hex(o, "resource", r->resource, st);
	if (r->cache_size) {	/* ndctl's key; its size counts the cache, hpa_size here */
		topology_add_size(o, "extended_linear_cache_size", r->cache_size, st);
		topology_add_size(o, "hpa_size", r->size, st);
	}
	jb_int(o, "interleave_ways", r->ways);
	if (r->granularity)
		jb_int(o, "interleave_granularity", r->granularity);
	jb_str(o, "root_decoder", r->root_decoder);
	jb_bool(o, "committed", r->committed);
	jb_bool(o, "enabled", r->enabled);
	jb_str(o, "state", topology_region_state(r));
	targets = jb_arr(o, "targets");
	for (unsigned i = 0; i < r->ntargets; i++) {
		json_object *t;

		if (!r->targets[i][0])	/* an empty position (a destroy cut short) */
			continue;
		t = json_object_new_object();
		jb_int(t, "position", i);
		jb_str(t, "decoder", r->targets[i]);
		jb_str(t, "memdev", r->memdevs[i]);
		if (r->dpa[i].size) {
			if (r->dpa[i].resource != UINT64_MAX)	/* not yet allocated (a plan) */
				topology_add_hex(t, "dpa_resource", r->dpa[i].resource, st);
			topology_add_size(t, "dpa_size", r->dpa[i].size, st);
		}
		json_object_array_add(targets, t);
	}
	daxes = jb_arr(o, "dax_devices");
	for (size_t i = 0; i < r->ndax; i++)
		if (!keep_dax || keep_dax[i])
			json_object_array_add(daxes, topology_dax_json(&r->dax[i], st));
	return o;
}

json_object *topology_memdev_json(const struct ct_topology *t, const struct ct_memdev *m,
			      const struct topology_style *st)
{
	json_object *o = json_object_new_object(), *regs;

	jb_str(o, "name", m->name);
	if (m->has_serial)
		topology_add_hex(o, "serial", m->serial, st);
	jb_str(o, "host", m->host);
	topology_add_size(o, "ram_size", m->ram_size, st);
	topology_add_size(o, "pmem_size", m->pmem_size, st);
	jb_str(o, "firmware_version", m->firmware);
	jb_int_known(o, "ram_qos_class", m->ram_qos_class);
	jb_int_known(o, "numa_node", m->numa_node);
	jb_str(o, "endpoint", m->endpoint);
	jb_bool(o, "enabled", m->enabled);
	jb_str(o, "state", m->enabled ? "enabled" : "disabled");
	regs = jb_arr(o, "regions");
	for (size_t i = 0; i < t->nregions; i++)
		if (ct_region_has_memdev(&t->regions[i], m->name))
			json_object_array_add(regs, json_object_new_string(t->regions[i].name));
	return o;
}

/* the scalar fields of src (arrays left out) with a "type"; src is released */
static json_object *row(json_object *src, const char *type)
{
	json_object *r = json_object_new_object();

	json_object_object_foreach(src, k, v)
		if (!json_object_is_type(v, json_type_array))
			json_object_object_add(r, k, json_object_get(v));
	jb_str(r, "type", type);
	json_object_put(src);
	return r;
}

static json_object *memdev_row(const struct ct_topology *t, const struct ct_memdev *m)
{
	json_object *r = row(topology_memdev_json(t, m, NULL), "memdev");

	jb_u64(r, "size", m->ram_size);
	return r;
}

/* a region's target: its memdev, with the share it gives (the decoder's DPA size) */
static json_object *target_row(const struct ct_topology *t, const struct ct_region *reg, unsigned i)
{
	const struct ct_memdev *m = ct_topology_memdev(t, reg->memdevs[i]);
	json_object *r;

	if (m)
		r = memdev_row(t, m);
	else {
		r = json_object_new_object();
		jb_str(r, "name", reg->memdevs[i][0] ? reg->memdevs[i] : "?");
		jb_str(r, "type", "memdev");
	}
	if (reg->dpa[i].size)
		jb_u64(r, "size", reg->dpa[i].size);
	jb_int(r, "position", i);
	jb_str(r, "decoder", reg->targets[i]);
	return r;
}

json_object *topology_table_rows(const struct ct_topology *t, const struct topology_sel *sel)
{
	json_object *root = json_object_new_object(), *rows = jb_arr(root, "rows");

	for (size_t i = 0; i < t->nregions; i++) {
		const struct ct_region *r = &t->regions[i];
		json_object *ro, *kids;

		if (!sel->region[i])
			continue;
		ro = row(topology_region_json(r, NULL, NULL), "region");
		kids = jb_arr(ro, "children");
		for (unsigned k = 0; k < r->ntargets; k++)
			if (r->targets[k][0])	/* (an empty position: a destroy cut short) */
				json_object_array_add(kids, target_row(t, r, k));
		for (size_t k = 0; k < r->ndax; k++)
			if (sel->dax[i][k])
				json_object_array_add(kids, row(topology_dax_json(&r->dax[k], NULL), "dax"));
		json_object_array_add(rows, ro);
	}
	for (size_t i = 0; i < t->nmemdevs; i++) {
		bool shown = false;

		if (!sel->memdev[i])
			continue;
		for (size_t j = 0; j < t->nregions && !shown; j++)
			shown = sel->region[j] && ct_region_has_memdev(&t->regions[j], t->memdevs[i].name);
		if (!shown)
			json_object_array_add(rows, memdev_row(t, &t->memdevs[i]));
	}
	return root;
}
