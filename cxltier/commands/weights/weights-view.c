// SPDX-License-Identifier: GPL-2.0-only
/* weights-view.c - `cxltier weights` as JSON and tables: per node the
 * bandwidth the weight comes from, the weight computed as the kernel's auto
 * mode would and its arithmetic, the kernel's weight, before and after a set */
#include <stdio.h>
#include <string.h>
#include "cli/json-build.h"
#include "weights-view.h"

static const char *const levels[] = { "nodes", NULL };
static const struct out_column columns[] = {
	{ "NODE", "node", OUT_NUM, 0.1, 0, "NUMA node with memory", NULL },
	{ "RD-BW", "read_bandwidth_mbps", OUT_NUM, 0.1, 0, "access1 (CPU) read bandwidth (MB/s)", NULL },
	{ "WR-BW", "write_bandwidth_mbps", OUT_NUM, 0.1, 0, "access1 (CPU) write bandwidth (MB/s)", NULL },
	{ "BW", "bandwidth_mbps", OUT_NUM, 0.1, 0, "the bandwidth the weight comes from: min of read and write (MB/s)", NULL },
	{ "FROM", "bandwidth_source", OUT_STR, 0.1, 0, "whose access1 figures: node, or region (none: no figures)", NULL },
	{ "SCALED", "scaled", OUT_NUM, 0.1, 0, "32 x BW", NULL },
	{ "SUM", "sum_mbps", OUT_NUM, 0.1, 0, "the sum of every node's BW", NULL },
	{ "RAW", "raw_weight", OUT_NUM, 0.1, 0, "SCALED / SUM when SCALED > SUM, else 1", NULL },
	{ "GCD", "gcd", OUT_NUM, 0.1, 0, "the GCD of the RAW weights", NULL },
	{ "CALC", "computed_weight", OUT_NUM, 0.1, 0, "RAW / GCD: the weight the kernel's auto mode gives BW", NULL },
	{ "KERNEL", "kernel_weight", OUT_NUM, 0.1, 0, "the kernel's weight now", NULL },
	{ "WHY", "why", OUT_STR, 0.1, 0, "scaled, or 1 for: no-figures, zero (BW 0), small (BW at most SUM/32)", NULL },
	{ "BEFORE", "before", OUT_NUM, 0.1, 0, "a set: the kernel's weight before", NULL },
	{ "AFTER", "after", OUT_NUM, 0.1, 0, "a set: the weight after (--dry-run: would be)", NULL },
};
const struct out_table weights_table = {
	levels, NULL, columns, sizeof(columns) / sizeof(columns[0]), "NODE,BW,FROM,CALC,KERNEL",
};

static const struct ct_weights_set_node *set_node(const struct ct_weights_set_report *r, int node)
{
	for (unsigned i = 0; r && i < r->n; i++)
		if (r->v[i].node == node)
			return &r->v[i];
	return NULL;
}

static json_object *node_json(const struct ct_tier_model *m, const struct ct_tier_node *x,
			      const struct ct_weights_set_report *r)
{
	json_object *o = json_object_new_object();
	const struct ct_tier_figures *f = &x->access[1];
	const struct ct_weights_set_node *s = set_node(r, x->node->id);

	jb_int(o, "node", x->node->id);
	if (f->source != CT_FIGURES_NONE) {
		jb_u64(o, "read_bandwidth_mbps", f->acc.read_bandwidth);
		jb_u64(o, "write_bandwidth_mbps", f->acc.write_bandwidth);
		jb_str(o, "bandwidth_source", ct_access_figure_source_name(f->source));
		if (f->source == CT_FIGURES_REGION)
			jb_str(o, "region", f->region);
	}
	jb_u64(o, "bandwidth_mbps", x->wi->bandwidth);
	jb_u64(o, "scaled", x->wi->scaled);
	jb_u64(o, "sum_mbps", m->weights.calc.sum);
	jb_int(o, "raw_weight", x->wi->raw);
	jb_int(o, "gcd", m->weights.calc.gcd);
	jb_int(o, "computed_weight", x->wi->weight);
	jb_str(o, "why", ct_wi_why_name(x->wi->why));
	if (x->wi->kernel_wraps)
		jb_bool(o, "kernel_wraps", true);
	if (x->wi_kernel)
		jb_int(o, "kernel_weight", x->wi_kernel);
	if (s) {
		jb_int(o, "before", s->old);
		jb_int(o, "after", s->new);
		jb_bool(o, "written", s->written);
	}
	return o;
}

static const char *mode(bool has, bool on)
{
	return !has ? "manual" : on ? "auto" : "manual";
}

json_object *weights_json(const struct ct_tier_model *m, const struct ct_weights_set_report *r, const char *how,
			  bool dry_run)
{
	json_object *root = json_object_new_object(), *nodes, *set;

	jb_bool(root, "supported", m->weights.have);
	if (m->weights.have) {
		jb_str(root, "mode", mode(m->weights.kernel.has_auto, m->weights.kernel.auto_on));
		jb_bool(root, "has_auto", m->weights.kernel.has_auto);
	}
	jb_int(root, "weightiness", m->weights.calc.weightiness);
	jb_u64(root, "sum_mbps", m->weights.calc.sum);
	jb_int(root, "gcd", m->weights.calc.gcd);
	nodes = jb_arr(root, "nodes");
	for (size_t i = 0; i < m->count; i++)
		json_object_array_add(nodes, node_json(m, &m->nodes[i], r));
	if (!r)
		return root;
	set = jb_obj(root, "set");
	jb_str(set, "how", how);
	jb_bool(set, "dry_run", dry_run);
	jb_str(set, "mode_before", mode(r->has_auto, r->auto_old));
	jb_str(set, "mode_after", mode(r->has_auto, r->auto_new));
	jb_bool(set, "auto_turned_off", r->auto_turned_off);
	jb_int(set, "writes", r->writes);
	if (r->recovered) {
		json_object *rec = jb_obj(set, "recovered");
		jb_int(rec, "pid", r->recovered_pid);
		jb_str(rec, "outcome", r->recovered_whole ? "new-set-whole" : "old-set-put-back");
	}
	return root;
}

static void say_mode(json_object *root, bool verbose)
{
	json_object *m = out_lookup(root, "mode"), *h = out_lookup(root, "has_auto");

	if (!json_object_get_boolean(out_lookup(root, "supported")))
		printf("\nweighted interleave: not in this kernel (Linux 6.9 or later)\n");
	else
		printf("\nweights: %s%s\n", json_object_get_string(m),
		       json_object_get_boolean(h) ? "" : " (auto mode: Linux 6.16 or later)");
	if (verbose)
		printf("CALC = 32 x BW / SUM when 32 x BW > SUM, else 1; then / GCD\n"
		       "(BW: min of access1 read and write; mm/mempolicy.c, reduce_interleave_weights)\n");
}

int weights_print(struct cmd_env *env, json_object *root, bool set, char *err, size_t len)
{
	struct out_table t = weights_table;

	if (env->verbose)
		t.defaults = set ? "NODE,RD-BW,WR-BW,BW,FROM,SCALED,SUM,RAW,GCD,CALC,WHY,BEFORE,AFTER"
				 : "NODE,RD-BW,WR-BW,BW,FROM,SCALED,SUM,RAW,GCD,CALC,KERNEL,WHY";
	else if (set)
		t.defaults = "NODE,BW,FROM,CALC,BEFORE,AFTER";
	if (out_print(&env->out, &t, root, err, len))
		return -1;
	if (!env->out.json && out_full_view(&env->out))
		say_mode(root, env->verbose > 0);
	return 0;
}
