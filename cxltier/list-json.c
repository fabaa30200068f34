// SPDX-License-Identifier: GPL-2.0-only
/* list-json.c - memdevs, regions and dax devices as `list -j` shows them */
#include <inttypes.h>
#include <stdio.h>
#include "cli/json-build.h"
#include "list-json.h"
#include "cli/output.h"

/* bytes: an integer, or with -u a string as people read it */
void list_add_size(json_object *o, const char *k, uint64_t v, const struct list_style *st)
{
	char buf[32];

	if (st && st->human)
		json_object_object_add(o, k, json_object_new_string(out_human_size(v, buf, sizeof(buf))));
	else
		jb_u64(o, k, v);
}

/* addresses and serials: an integer, or with -u a 0x... string */
void list_add_hex(json_object *o, const char *k, uint64_t v, const struct list_style *st)
{
	char buf[32];

	if (st && st->human) {
		snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
		json_object_object_add(o, k, json_object_new_string(buf));
	} else
		jb_u64(o, k, v);
}

json_object *list_dax_json(const struct ct_dax *d, const struct list_style *st)
{
	json_object *o = json_object_new_object(), *b;

	jb_str(o, "name", d->name);
	jb_str(o, "mode", d->mode);
	list_add_size(o, "size", d->size, st);
	list_add_hex(o, "resource", d->resource, st);
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

const char *list_region_state(const struct ct_region *r)
{
	if (r->enabled)
		return "active";
	return r->committed ? "committed" : "disabled";
}

json_object *list_region_json(const struct ct_region *r, const bool *keep_dax, const struct list_style *st)
{
	json_object *o = json_object_new_object(), *targets, *daxes;

	jb_str(o, "name", r->name);
	jb_str(o, "mode", r->mode);
	list_add_size(o, "size", r->size - r->cache_size, st);	/* the CXL capacity */
	if (r->resource)
		list_add_hex(o, "resource", r->resource, st);
	if (r->cache_size) {	/* ndctl's key; its size counts the cache, hpa_size here */
		list_add_size(o, "extended_linear_cache_size", r->cache_size, st);
		list_add_size(o, "hpa_size", r->size, st);
	}
	jb_int(o, "interleave_ways", r->ways);
	if (r->granularity)
		jb_int(o, "interleave_granularity", r->granularity);
	jb_str(o, "root_decoder", r->root_decoder);
	jb_bool(o, "committed", r->committed);
	jb_bool(o, "enabled", r->enabled);
	jb_str(o, "state", list_region_state(r));
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
				list_add_hex(t, "dpa_resource", r->dpa[i].resource, st);
			list_add_size(t, "dpa_size", r->dpa[i].size, st);
		}
		json_object_array_add(targets, t);
	}
	daxes = jb_arr(o, "dax_devices");
	for (size_t i = 0; i < r->ndax; i++)
		if (!keep_dax || keep_dax[i])
			json_object_array_add(daxes, list_dax_json(&r->dax[i], st));
	return o;
}

json_object *list_memdev_json(const struct ct_topology *t, const struct ct_memdev *m,
			      const struct list_style *st)
{
	json_object *o = json_object_new_object(), *regs;

	jb_str(o, "name", m->name);
	if (m->has_serial)
		list_add_hex(o, "serial", m->serial, st);
	jb_str(o, "host", m->host);
	list_add_size(o, "ram_size", m->ram_size, st);
	list_add_size(o, "pmem_size", m->pmem_size, st);
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
