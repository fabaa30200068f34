// SPDX-License-Identifier: GPL-2.0-only
/* list-detail.c - what `list -v` adds to the JSON, as ndctl's -v levels do:
 * -v the decode topology (root decoders, each memdev's endpoint decoders
 * and its path of ports from the root); -vvv the memdev's partitioning
 * and firmware (its health, alert configuration and media errors, as
 * ndctl's -vvv: list-health.c). -vv adds nothing: ndctl's -vv adds
 * disabled devices, which cxltier always lists (list-detail.h). */
#include <string.h>
#include "cli/json-build.h"
#include "list-detail.h"
#include "core/context.h"

static json_object *root_json(const struct ct_root_decoder *rd, const struct ct_topology *t, const struct topology_style *st)
{
	json_object *o = json_object_new_object(), *a;

	jb_str(o, "name", rd->name);
	topology_add_hex(o, "resource", rd->start, st);
	topology_add_size(o, "size", rd->size, st);
	jb_int(o, "interleave_ways", rd->ways);
	jb_int(o, "interleave_granularity", rd->granularity);
	jb_bool(o, "volatile_capable", rd->cap_ram);
	jb_bool(o, "ram_regions", rd->can_create_ram);
	topology_add_size(o, "max_available_extent", rd->free_size, st);
	jb_int_known(o, "qos_class", rd->qos_class);
	a = jb_arr(o, "targets");
	for (unsigned i = 0; i < rd->ntargets; i++) {
		json_object *tg = json_object_new_object();
		jb_int(tg, "position", i);
		jb_int(tg, "id", rd->targets[i]);
		json_object_array_add(a, tg);
	}
	a = jb_arr(o, "regions");
	for (size_t i = 0; i < t->nregions; i++)
		if (!strcmp(t->regions[i].root_decoder, rd->name))
			json_object_array_add(a, json_object_new_string(t->regions[i].name));
	return o;
}

static void endpoint_detail(json_object *mo, const struct ct_endpoint_info *e, const struct topology_style *st)
{
	json_object *a = jb_arr(mo, "path");

	for (unsigned i = 0; i < e->depth; i++) {
		json_object *h = json_object_new_object();
		jb_str(h, "port", e->path[i].port);
		jb_int_known(h, "dport", e->path[i].dport);
		json_object_array_add(a, h);
	}
	a = jb_arr(mo, "decoders");
	for (unsigned i = 0; i < e->ndecoders; i++) {
		const struct ct_ep_decoder *d = &e->decoders[i];
		json_object *o = json_object_new_object();
		jb_str(o, "name", d->name);
		jb_str(o, "mode", d->mode);
		if (d->dpa_size) {
			if (d->dpa_resource != UINT64_MAX)
				topology_add_hex(o, "dpa_resource", d->dpa_resource, st);
			topology_add_size(o, "dpa_size", d->dpa_size, st);
		}
		jb_str(o, "region", d->region);
		if (d->locked)
			jb_bool(o, "locked", true);
		json_object_array_add(a, o);
	}
}

static void memdev_deep(struct cmd_env *env, json_object *mo, const struct ct_memdev *m, const struct topology_style *st)
{
	struct ct_partition p;
	json_object *o;

	if (ct_memdev_partition(env->ctx, m->name, &p) == 0) {
		o = jb_obj(mo, "partition_info");
		topology_add_size(o, "total_size", p.total, st);
		topology_add_size(o, "volatile_only_size", p.volatile_only, st);
		topology_add_size(o, "persistent_only_size", p.persistent_only, st);
		topology_add_size(o, "partition_alignment_size", p.alignment, st);
		if (p.have_active) {
			topology_add_size(o, "active_volatile_size", p.active_volatile, st);
			topology_add_size(o, "active_persistent_size", p.active_persistent, st);
			topology_add_size(o, "next_volatile_size", p.next_volatile, st);
			topology_add_size(o, "next_persistent_size", p.next_persistent, st);
		}
	} else
		cmd_info(env, 1, "%s", ct_context_message(env->ctx));
	ct_error_clear(&env->ctx->err);
	if (m->firmware[0] || m->fw_update[0]) {
		o = jb_obj(mo, "firmware");
		jb_str(o, "version", m->firmware);
		jb_str(o, "update_status", m->fw_update);
	}
}

void list_detail_roots(json_object *root, const struct ct_fabric *f, const struct ct_topology *t,
		       const struct topology_style *st)
{
	json_object *roots = jb_arr(root, "root_decoders");

	for (size_t i = 0; i < f->nroots; i++)
		json_object_array_add(roots, root_json(&f->roots[i], t, st));
}

void list_detail_memdev(struct cmd_env *env, json_object *mo, const char *name, const struct ct_memdev *m,
			const struct ct_fabric *f, const struct topology_style *st)
{
	const struct ct_endpoint_info *e = ct_fabric_endpoint(f, name);

	if (e)
		endpoint_detail(mo, e, st);
	if (st->verbose >= 3 && m)
		memdev_deep(env, mo, m, st);
}
