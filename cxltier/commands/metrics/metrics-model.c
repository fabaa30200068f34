// SPDX-License-Identifier: GPL-2.0-only
/* metrics-model.c - the metric families of `cxltier metrics` from what the
 * job collected (lib/jobs/metrics-collect.h): topology, memory blocks, tiers,
 * health, AER counts, the event store's counters, which collectors worked */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "cli/json-build.h"
#include "metrics-model.h"
#include "jobs/metrics-collect.h"
#include "cxl/aer-stats.h"
#include "cxl/health.h"
#include "core/nodeset.h"
#include "mm/tiers.h"
#include "views/mem-summary.h"

static const struct { const char *name, *type, *help; } families[] = {
	{ "cxltier_memdev_info", "gauge", "a CXL memory device (value 1): its serial, PCI device and state" },
	{ "cxltier_memdev_ram_bytes", "gauge", "volatile capacity of the memdev" },
	{ "cxltier_memdev_pmem_bytes", "gauge", "persistent capacity of the memdev" },
	{ "cxltier_memdev_memory_bytes", "gauge",
	  "the memdev's share of its regions' memory by node, state (online, offline, unplugged: not system RAM) and zone" },
	{ "cxltier_region_info", "gauge", "a CXL region (value 1) and its state: active, committed, disabled" },
	{ "cxltier_region_size_bytes", "gauge", "CXL capacity of the region (an extended linear cache not counted)" },
	{ "cxltier_region_extended_linear_cache_bytes", "gauge",
	  "the DRAM cache in front of the region's CXL memory (extended linear cache; regions that have one)" },
	{ "cxltier_region_memory_bytes", "gauge",
	  "the region's memory by node, state (online, offline, unplugged: not system RAM) and zone" },
	{ "cxltier_memory_block_size_bytes", "gauge", "size of a memory block (the unit of onlining)" },
	{ "cxltier_node_memory_bytes", "gauge", "memory blocks of the node by state (online, offline) and zone" },
	{ "cxltier_node_cxl_memory_bytes", "gauge", "the node's memory blocks of CXL dax devices by state" },
	{ "cxltier_node_tier_info", "gauge", "the kernel memory tier of the node (value 1; smaller tier is faster)" },
	{ "cxltier_memdev_health_status", "gauge", "Get Health Info health status flag, 1 when set" },
	{ "cxltier_memdev_media_status", "gauge", "Get Health Info media status (value 1)" },
	{ "cxltier_memdev_alert_level", "gauge", "Get Health Info life-used and temperature level (value 1)" },
	{ "cxltier_memdev_life_used_percent", "gauge", "device life used, percent" },
	{ "cxltier_memdev_temperature_celsius", "gauge", "device temperature" },
	{ "cxltier_memdev_dirty_shutdowns_total", "counter", "dirty shutdowns the device counted" },
	{ "cxltier_memdev_corrected_errors_total", "counter", "corrected memory errors the device counted, by kind" },
	{ "cxltier_memdev_aer_errors_total", "counter",
	  "PCIe AER errors the kernel counted on the memdev's PCI device since boot, by severity (correctable, "
	  "nonfatal, fatal) and kind (the kernel's name; the device's CXL RAS errors are CorrIntErr and UncorrIntErr)" },
	{ "cxltier_events_total", "counter",
	  "CXL event records the follower stored (cxltier-events.service), by memdev, serial, kind and severity: "
	  "counted as they are stored, never lowered by the store's pruning, kept across restarts and reboots" },
	{ "cxltier_events_stored_records", "gauge", "event records in the store now (bounded by age and size)" },
	{ "cxltier_events_pruned_total", "counter", "event records pruned from the store for age or size" },
	{ "cxltier_pages_retired_total", "counter",
	  "pages the follower soft-offlined for corrected errors ([events] retire-pages), by memdev and serial" },
	{ "cxltier_pages_not_retired_total", "counter",
	  "pages due for retirement the follower did not take out of use, by memdev, serial and why: failed (the "
	  "kernel refused it) or limited (the device's limit an hour was reached)" },
	{ "cxltier_metrics_collector_success", "gauge", "1 when the collector read what it reads, 0 when it failed" },
};
#define NFAMILIES (sizeof(families) / sizeof(families[0]))

static json_object *metrics_new(void)
{
	json_object *root = json_object_new_object(), *arr = jb_arr(root, "families");

	for (size_t i = 0; i < NFAMILIES; i++) {
		json_object *f = json_object_new_object();
		jb_str(f, "name", families[i].name);
		jb_str(f, "type", families[i].type);
		jb_str(f, "help", families[i].help);
		jb_arr(f, "samples");
		json_object_array_add(arr, f);
	}
	return root;
}

static void metrics_prune(json_object *root)
{
	json_object *arr = json_object_object_get(root, "families"), *keep = json_object_new_array();

	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		json_object *f = json_object_array_get_idx(arr, i);
		if (json_object_array_length(json_object_object_get(f, "samples")))
			json_object_array_add(keep, json_object_get(f));
	}
	json_object_object_add(root, "families", keep);
}

static json_object *samples_of(json_object *root, const char *family)
{
	json_object *arr = json_object_object_get(root, "families");

	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		json_object *f = json_object_array_get_idx(arr, i);
		if (!strcmp(json_object_get_string(json_object_object_get(f, "name")), family))
			return json_object_object_get(f, "samples");
	}
	return NULL;
}

static void metrics_add(json_object *root, const char *family, int64_t value, ...) __attribute__((sentinel));
static void metrics_add(json_object *root, const char *family, int64_t value, ...)
{
	json_object *samples = samples_of(root, family), *labels = json_object_new_object(), *s;
	const char *k, *v;
	va_list ap;

	if (!samples) {
		json_object_put(labels);
		return;
	}
	va_start(ap, value);
	while ((k = va_arg(ap, const char *))) {
		v = va_arg(ap, const char *);
		jb_str(labels, k, v);
	}
	va_end(ap);
	/* the same labels: one sample, the values added */
	for (size_t i = 0; i < json_object_array_length(samples); i++) {
		s = json_object_array_get_idx(samples, i);
		if (json_object_equal(json_object_object_get(s, "labels"), labels)) {
			json_object_object_add(s, "value", json_object_new_int64(
				json_object_get_int64(json_object_object_get(s, "value")) + value));
			json_object_put(labels);
			return;
		}
	}
	s = json_object_new_object();
	json_object_object_add(s, "labels", labels);
	jb_int(s, "value", value);
	json_object_array_add(samples, s);
}

static const char *num(char *buf, size_t len, int64_t v)
{
	if (v < 0)
		return NULL;
	snprintf(buf, len, "%" PRId64, v);
	return buf;
}

/* a region's memory by node, state and zone, each value divided by div
 * (the interleave ways: one memdev's share), as memdev's when memdev is given */
static void region_memory(json_object *root, const char *family, const struct ct_region *r, uint64_t bs,
			  const char *memdev, unsigned div)
{
	uint64_t plugged = 0;
	char node[16];

	for (size_t i = 0; i < r->ndax; i++) {
		const struct ct_dax *d = &r->dax[i];
		const char *n = num(node, sizeof(node), d->target_node);
		struct { const char *state, *zone; unsigned blocks; } parts[] = {
			{ "online", "movable", d->blocks.movable }, { "online", "normal", d->blocks.normal },
			{ "online", "other", d->blocks.other_zone }, { "offline", NULL, d->blocks.offline },
		};
		for (size_t k = 0; k < sizeof(parts) / sizeof(parts[0]); k++)
			metrics_add(root, family, (int64_t)(parts[k].blocks * bs / div), "memdev", memdev, "region", r->name,
				    "node", n, "state", parts[k].state, "zone", parts[k].zone, NULL);
		plugged += (uint64_t)d->blocks.total * bs;
	}
	/* what is not system RAM: devdax, no dax device, a region not active */
	metrics_add(root, family, (int64_t)((r->size > plugged ? r->size - plugged : 0) / div), "memdev", memdev,
		    "region", r->name, "node", r->ndax ? num(node, sizeof(node), r->dax[0].target_node) : NULL,
		    "state", "unplugged", NULL);
}

static void metrics_topology(json_object *root, const struct ct_topology *t)
{
	char serial[32];

	for (size_t i = 0; i < t->nmemdevs; i++) {
		const struct ct_memdev *m = &t->memdevs[i];
		snprintf(serial, sizeof(serial), "0x%" PRIx64, m->serial);
		metrics_add(root, "cxltier_memdev_info", 1, "memdev", m->name, "serial", m->has_serial ? serial : NULL,
			    "host", m->host, "state", m->enabled ? "enabled" : "disabled", NULL);
		metrics_add(root, "cxltier_memdev_ram_bytes", (int64_t)m->ram_size, "memdev", m->name, NULL);
		metrics_add(root, "cxltier_memdev_pmem_bytes", (int64_t)m->pmem_size, "memdev", m->name, NULL);
	}
	for (size_t i = 0; i < t->nregions; i++) {
		const struct ct_region *r = &t->regions[i];
		const char *state = r->enabled ? "active" : r->committed ? "committed" : "disabled";
		unsigned ways = r->ways ? r->ways : r->ntargets ? r->ntargets : 1;
		metrics_add(root, "cxltier_region_info", 1, "region", r->name, "state", state, NULL);
		metrics_add(root, "cxltier_region_size_bytes", (int64_t)(r->size - r->cache_size), "region", r->name, NULL);
		if (r->cache_size)
			metrics_add(root, "cxltier_region_extended_linear_cache_bytes", (int64_t)r->cache_size, "region",
				    r->name, NULL);
		region_memory(root, "cxltier_region_memory_bytes", r, t->block_size, NULL, 1);
		for (unsigned k = 0; k < r->ntargets; k++)
			if (r->memdevs[k][0])
				region_memory(root, "cxltier_memdev_memory_bytes", r, t->block_size, r->memdevs[k], ways);
	}
	if (t->block_size)
		metrics_add(root, "cxltier_memory_block_size_bytes", (int64_t)t->block_size, NULL);
}

static void metrics_nodes(json_object *root, const struct ct_mem_summary *s)
{
	uint64_t bs = s->block_size;
	char node[16];

	for (size_t i = 0; i < s->nnodes; i++) {
		const struct ct_node_blocks *n = &s->nodes[i];
		const char *id = num(node, sizeof(node), n->node);
		metrics_add(root, "cxltier_node_memory_bytes", (int64_t)(n->movable * bs), "node", id, "state", "online",
			    "zone", "movable", NULL);
		metrics_add(root, "cxltier_node_memory_bytes", (int64_t)(n->normal * bs), "node", id, "state", "online",
			    "zone", "normal", NULL);
		metrics_add(root, "cxltier_node_memory_bytes", (int64_t)(n->other_zone * bs), "node", id, "state", "online",
			    "zone", "other", NULL);
		metrics_add(root, "cxltier_node_memory_bytes", (int64_t)(n->offline * bs), "node", id, "state", "offline", NULL);
		metrics_add(root, "cxltier_node_cxl_memory_bytes", (int64_t)(n->cxl_online * bs), "node", id,
			    "state", "online", NULL);
		metrics_add(root, "cxltier_node_cxl_memory_bytes", (int64_t)((n->cxl - n->cxl_online) * bs), "node", id,
			    "state", "offline", NULL);
	}
}

static void metrics_tiers(json_object *root, const struct ct_tiers *tiers)
{
	char node[16], tier[16];
	int n;

	for (size_t i = 0; i < tiers->count; i++) {
		snprintf(tier, sizeof(tier), "%d", tiers->tier[i].id);
		ct_nodeset_foreach(&tiers->tier[i].nodes, n)
			metrics_add(root, "cxltier_node_tier_info", 1, "node", num(node, sizeof(node), n), "tier", tier, NULL);
	}
}

static void metrics_health(json_object *root, const char *memdev, const struct ct_health *h)
{
	static const struct { unsigned bit; const char *name; } bits[] = {
		{ CT_HEALTH_MAINTENANCE_NEEDED, "maintenance_needed" },
		{ CT_HEALTH_PERFORMANCE_DEGRADED, "performance_degraded" },
		{ CT_HEALTH_HW_REPLACEMENT_NEEDED, "hw_replacement_needed" },
		{ CT_HEALTH_CAPACITY_DEGRADED, "capacity_degraded" },
	};

	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		metrics_add(root, "cxltier_memdev_health_status", !!(h->health_status & bits[i].bit), "memdev", memdev,
			    "state", bits[i].name, NULL);
	metrics_add(root, "cxltier_memdev_media_status", 1, "memdev", memdev, "state",
		    ct_media_status_name(h->media_status), NULL);
	metrics_add(root, "cxltier_memdev_alert_level", 1, "memdev", memdev, "kind", "life_used", "severity",
		    ct_level_name(h->life_used_state), NULL);
	metrics_add(root, "cxltier_memdev_alert_level", 1, "memdev", memdev, "kind", "temperature", "severity",
		    ct_level_name(h->temperature_state), NULL);
	if (h->has_life_used)
		metrics_add(root, "cxltier_memdev_life_used_percent", h->life_used, "memdev", memdev, NULL);
	if (h->has_temperature)
		metrics_add(root, "cxltier_memdev_temperature_celsius", h->temperature, "memdev", memdev, NULL);
	metrics_add(root, "cxltier_memdev_dirty_shutdowns_total", h->dirty_shutdowns, "memdev", memdev, NULL);
	metrics_add(root, "cxltier_memdev_corrected_errors_total", h->corrected_volatile_errors, "memdev", memdev,
		    "kind", "volatile", NULL);
	metrics_add(root, "cxltier_memdev_corrected_errors_total", h->corrected_persistent_errors, "memdev", memdev,
		    "kind", "persistent", NULL);
}

static void metrics_aer(json_object *root, const char *memdev, const struct ct_aer_stats *st)
{
	for (size_t i = 0; i < st->ncounts; i++) {
		const struct ct_aer_count *c = &st->counts[i];
		metrics_add(root, "cxltier_memdev_aer_errors_total", (int64_t)c->n, "memdev", memdev, "severity",
			    ct_aer_severity_name(c->severity), "kind", c->kind, NULL);
	}
}

static void metrics_events(json_object *root, const char *memdev, uint64_t serial, const char *kind, const char *severity,
		    uint64_t n)
{
	char s[32];

	snprintf(s, sizeof(s), "0x%" PRIx64, serial);
	metrics_add(root, "cxltier_events_total", (int64_t)n, "memdev", memdev, "serial", serial ? s : NULL, "kind", kind,
		    "severity", severity, NULL);
}

static void metrics_retired(json_object *root, const char *memdev, uint64_t serial, const char *action, uint64_t n)
{
	char s[32];
	bool retired = !strcmp(action, "retired");

	snprintf(s, sizeof(s), "0x%" PRIx64, serial);
	metrics_add(root, retired ? "cxltier_pages_retired_total" : "cxltier_pages_not_retired_total", (int64_t)n,
		    "memdev", memdev, "serial", serial ? s : NULL, "why", retired ? NULL : action, NULL);
}

static void metrics_collector(json_object *root, const char *collector, bool ok)
{
	metrics_add(root, "cxltier_metrics_collector_success", ok, "collector", collector, NULL);
}

json_object *metrics_json(const struct ct_metrics_report *r)
{
	json_object *root = metrics_new();

	if (r->have_topology)
		metrics_topology(root, &r->topology);
	if (r->have_blocks)
		metrics_nodes(root, &r->blocks);
	if (r->have_tiers)
		metrics_tiers(root, &r->tiers);
	for (size_t i = 0; i < r->nhealth; i++)
		metrics_health(root, r->health[i].memdev, &r->health[i].h);
	for (size_t i = 0; i < r->naer; i++)
		metrics_aer(root, r->aer[i].memdev, &r->aer[i].st);
	for (size_t i = 0; i < r->ncounts; i++)
		metrics_events(root, r->counts[i].memdev, r->counts[i].serial, r->counts[i].kind, r->counts[i].severity,
			       r->counts[i].n);
	for (size_t i = 0; i < r->nretired; i++)
		metrics_retired(root, r->retired[i].memdev, r->retired[i].serial,
				ct_retire_log_action_name(r->retired[i].action), r->retired[i].n);
	if (r->have_store_totals) {
		metrics_add(root, "cxltier_events_stored_records", (int64_t)r->store_records, NULL);
		metrics_add(root, "cxltier_events_pruned_total", (int64_t)r->store_pruned, NULL);
	}
	for (size_t i = 0; i < r->ncollectors; i++)
		metrics_collector(root, r->collectors[i].name, r->collectors[i].ok);
	metrics_prune(root);
	return root;
}
