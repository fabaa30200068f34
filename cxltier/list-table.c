// SPDX-License-Identifier: GPL-2.0-only
/* list-table.c - the table of `list`: one tree per region (its memdevs in
 * interleave position order, then its dax devices), then the memdevs that
 * back no listed region. Every object appears once. */
#include <string.h>
#include "cli/json-build.h"
#include "cmd-list.h"

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
	json_object *r = row(list_memdev_json(t, m, NULL), "memdev");

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

json_object *list_table_rows(const struct ct_topology *t, const struct list_sel *sel)
{
	json_object *root = json_object_new_object(), *rows = jb_arr(root, "rows");

	for (size_t i = 0; i < t->nregions; i++) {
		const struct ct_region *r = &t->regions[i];
		json_object *ro, *kids;

		if (!sel->region[i])
			continue;
		ro = row(list_region_json(r, NULL, NULL), "region");
		kids = jb_arr(ro, "children");
		for (unsigned k = 0; k < r->ntargets; k++)
			if (r->targets[k][0])	/* (an empty position: a destroy cut short) */
				json_object_array_add(kids, target_row(t, r, k));
		for (size_t k = 0; k < r->ndax; k++)
			if (sel->dax[i][k])
				json_object_array_add(kids, row(list_dax_json(&r->dax[k], NULL), "dax"));
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
