// SPDX-License-Identifier: GPL-2.0-only
/* list-select.c - which objects `list`'s filters keep, and the check that
 * every name given names something */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "list-select.h"
#include "core/context.h"

/* "0x1234" or "4660" */
static bool parse_serial(const char *s, unsigned long long *v)
{
	bool hex = !strncmp(s, "0x", 2) || !strncmp(s, "0X", 2);
	char *end;

	if (!s[hex ? 2 : 0] || s[hex ? 2 : 0] == '-' || s[hex ? 2 : 0] == '+')
		return false;
	*v = strtoull(s + (hex ? 2 : 0), &end, hex ? 16 : 10);
	return !*end;
}

static bool spec_matches(const struct ct_memdev *m, const char *name, const char *spec)
{
	if (!strcmp(spec, "all"))
		return true;
	return m ? ct_memdev_matches(m, spec) : !strcmp(name, spec);
}

bool list_filters_need_fabric(const struct list_filters *f)
{
	return filter_active(&f->port) || filter_active(&f->endpoint) || filter_active(&f->bus);
}

/* what the filters need to see of the fabric */
struct fabric_view {
	struct ct_sysfs *s;
	const struct ct_fabric *fab;
};

/* -p (the memdev's endpoint is below the port), -e (is the endpoint),
 * --bus (is on the bus): each passes when not given */
static bool port_filters_pass(struct list_filters *f, const struct fabric_view *fv, const char *name)
{
	const struct ct_endpoint_info *e = fv->fab ? ct_fabric_endpoint(fv->fab, name) : NULL;
	bool port = !filter_active(&f->port), ep = !filter_active(&f->endpoint), bus = !filter_active(&f->bus);

	for (size_t i = 0; e && i < f->port.count; i++)
		if (ct_endpoint_below_port(fv->s, e, f->port.names[i]))
			port = f->port.matched[i] = true;
	for (size_t i = 0; e && i < f->endpoint.count; i++)
		if (ct_endpoint_is(e, f->endpoint.names[i]))
			ep = f->endpoint.matched[i] = true;
	for (size_t i = 0; e && i < f->bus.count; i++)
		if (ct_endpoint_on_bus(fv->s, e, f->bus.names[i]))
			bus = f->bus.matched[i] = true;
	return port && ep && bus;
}

/* -m (memN, N, serial, PCI device, "all"), -s (serials), and the port filters */
static bool memdev_passes(struct list_filters *f, const struct fabric_view *fv, const struct ct_topology *t,
			  const char *name)
{
	const struct ct_memdev *m = ct_topology_memdev(t, name);
	bool by_spec = !filter_active(&f->memdev), by_serial = !filter_active(&f->serial);
	unsigned long long v;

	for (size_t i = 0; i < f->memdev.count; i++)
		if (spec_matches(m, name, f->memdev.names[i]))
			by_spec = f->memdev.matched[i] = true;
	for (size_t i = 0; i < f->serial.count; i++)
		if (m && m->has_serial && parse_serial(f->serial.names[i], &v) && v == m->serial)
			by_serial = f->serial.matched[i] = true;
	return by_spec && by_serial && port_filters_pass(f, fv, name);
}

static bool dax_passes(struct list_filters *f, const struct ct_dax *d)
{
	char node[16];

	if (!filter_match(&f->dax, d->name))
		return false;
	if (!filter_active(&f->node))
		return true;
	snprintf(node, sizeof(node), "%d", d->target_node);
	return d->target_node >= 0 && filter_match(&f->node, node);
}

/* a region is kept when it passes its own filter, is backed by a chosen
 * memdev and holds a chosen dax device; a memdev when it passes its
 * filters and, under region/dax/node filters, backs a kept region */
int list_select(struct ct_sysfs *s, const struct ct_topology *t, const struct ct_fabric *fab, struct list_filters *f,
		struct topology_sel *sel)
{
	bool below = filter_active(&f->region) || filter_active(&f->dax) || filter_active(&f->node);
	bool by_memdev = filter_active(&f->memdev) || filter_active(&f->serial) || list_filters_need_fabric(f);
	struct fabric_view fv = { s, fab };

	sel->memdev = calloc(t->nmemdevs + 1, sizeof(bool));
	sel->region = calloc(t->nregions + 1, sizeof(bool));
	sel->dax = calloc(t->nregions + 1, sizeof(bool *));
	if (!sel->memdev || !sel->region || !sel->dax)
		return -1;
	for (size_t i = 0; i < t->nregions; i++) {
		const struct ct_region *r = &t->regions[i];
		bool any_dax = false, any_memdev = !by_memdev;

		if (!(sel->dax[i] = calloc(r->ndax + 1, sizeof(bool))))
			return -1;
		for (size_t k = 0; k < r->ndax; k++)
			any_dax |= sel->dax[i][k] = dax_passes(f, &r->dax[k]);
		for (unsigned k = 0; k < r->ntargets && by_memdev; k++)
			any_memdev |= memdev_passes(f, &fv, t, r->memdevs[k]);
		sel->region[i] = filter_match(&f->region, r->name) && any_memdev &&
				 (any_dax || !(filter_active(&f->dax) || filter_active(&f->node)));
	}
	for (size_t i = 0; i < t->nmemdevs; i++) {
		const char *name = t->memdevs[i].name;
		bool backs = !below;

		for (size_t j = 0; j < t->nregions && !backs; j++)
			backs = sel->region[j] && ct_region_has_memdev(&t->regions[j], name);
		sel->memdev[i] = memdev_passes(f, &fv, t, name) && backs;
	}
	return 0;
}

void list_sel_free(const struct ct_topology *t, struct topology_sel *sel)
{
	for (size_t i = 0; sel->dax && i < t->nregions; i++)
		free(sel->dax[i]);
	free(sel->dax);
	free(sel->region);
	free(sel->memdev);
	memset(sel, 0, sizeof(*sel));
}

/* -m and -s: 1 when a name matches no memdev, EXIT_USAGE for a serial
 * that is no number, else 0 */
static int check_memdevs(struct cmd_env *env, const struct ct_topology *t, const struct list_filters *f)
{
	int bad = 0;

	for (size_t i = 0; i < f->memdev.count; i++) {
		bool found = !strcmp(f->memdev.names[i], "all");
		for (size_t k = 0; k < t->nmemdevs && !found; k++)
			found = ct_memdev_matches(&t->memdevs[k], f->memdev.names[i]);
		if (!found) {
			cmd_err(env, "no memdev '%s' on this system%s", f->memdev.names[i],
				t->nmemdevs ? " (see 'cxltier list')" : " (no CXL memdevs found)");
			bad = 1;
		}
	}
	for (size_t i = 0; i < f->serial.count; i++) {
		unsigned long long v;
		bool found = false;
		if (!parse_serial(f->serial.names[i], &v)) {
			cmd_err(env, "'%s' is not a serial number (0x... or decimal)", f->serial.names[i]);
			return EXIT_USAGE;
		}
		for (size_t k = 0; k < t->nmemdevs && !found; k++)
			found = t->memdevs[k].has_serial && t->memdevs[k].serial == v;
		if (!found) {
			cmd_err(env, "no memdev with serial %s on this system (see 'cxltier list')", f->serial.names[i]);
			bad = 1;
		}
	}
	return bad;
}

/* -r and -d: true when a name matches nothing */
static bool regions_missing(struct cmd_env *env, const struct ct_topology *t, const struct list_filters *f)
{
	bool bad = false;

	for (size_t i = 0; i < f->region.count; i++)
		if (!ct_topology_region(t, f->region.names[i])) {
			cmd_err(env, "no region '%s' on this system (see 'cxltier list')", f->region.names[i]);
			bad = true;
		}
	for (size_t i = 0; i < f->dax.count; i++) {
		bool found = false;
		for (size_t j = 0; j < t->nregions; j++)
			for (size_t k = 0; k < t->regions[j].ndax; k++)
				found |= strcmp(t->regions[j].dax[k].name, f->dax.names[i]) == 0;
		if (!found) {
			cmd_err(env, "no CXL dax device '%s' on this system (see 'cxltier list')", f->dax.names[i]);
			bad = true;
		}
	}
	return bad;
}

/* -N: numbers ("node1" means 1, and becomes "1"); 0 or an exit code */
static int check_nodes(struct cmd_env *env, struct list_filters *f)
{
	for (size_t i = 0; i < f->node.count; i++) {
		char *end, *n = f->node.names[i];
		if (!strncmp(n, "node", 4)) {
			char *num = strdup(n + 4);
			if (!num)
				return EXIT_FAIL;
			free(n);
			f->node.names[i] = n = num;
		}
		strtol(n, &end, 10);
		if (!*n || *end) {
			cmd_err(env, "'%s' is not a NUMA node number", f->node.names[i]);
			return EXIT_USAGE;
		}
	}
	return 0;
}

/* -e: true when a name is no endpoint, nor its memdev */
static bool endpoints_missing(struct cmd_env *env, const struct ct_topology *t, const struct list_filters *f)
{
	bool bad = false;

	for (size_t i = 0; i < f->endpoint.count; i++)
		if (strcmp(f->endpoint.names[i], "all") && !ct_topology_memdev(t, f->endpoint.names[i]) &&
		    !ct_fabric_port_exists(&env->ctx->sys, f->endpoint.names[i], (const char *const[]){ "endpoint", NULL })) {
			cmd_err(env, "no CXL endpoint '%s' on this system (endpointN, its id or its memdev; see 'cxltier list')",
				f->endpoint.names[i]);
			bad = true;
		}
	return bad;
}

/* names given to a filter that exist nowhere are errors, not empty output */
int list_check_names(struct cmd_env *env, const struct ct_topology *t, struct list_filters *f)
{
	int bad = check_memdevs(env, t, f), rc;

	if (bad == EXIT_USAGE)
		return bad;
	bad |= regions_missing(env, t, f);
	if ((rc = check_nodes(env, f)))
		return rc;
	bad |= endpoints_missing(env, t, f);
	return bad ? EXIT_FAIL : EXIT_OK;
}

int list_check_ports(struct cmd_env *env, const struct list_filters *f)
{
	int rc = EXIT_OK;

	for (size_t i = 0; i < f->port.count; i++)
		if (!f->port.matched[i] && strcmp(f->port.names[i], "root") && strcmp(f->port.names[i], "all") &&
		    !ct_fabric_port_exists(&env->ctx->sys, f->port.names[i], NULL)) {
			cmd_err(env, "no CXL port '%s' on this system (rootN, portN, endpointN, an id or a port's host; "
				"see 'cxltier list -v')", f->port.names[i]);
			rc = EXIT_FAIL;
		}
	for (size_t i = 0; i < f->bus.count; i++)
		if (!f->bus.matched[i] && strcmp(f->bus.names[i], "all") &&
		    !ct_fabric_port_exists(&env->ctx->sys, f->bus.names[i], (const char *const[]){ "root", NULL })) {
			cmd_err(env, "no CXL bus '%s' with memdevs on this system (rootN, its id, or ACPI.CXL)",
				f->bus.names[i]);
			rc = EXIT_FAIL;
		}
	return rc;
}
