// SPDX-License-Identifier: GPL-2.0-only
/* offline-remove.c - `cxltier offline memN --remove`: every block of the
 * regions the memdev backs offline, the regions destroyed, the memdev
 * disabled; whether the card may now be pulled; who pins what stays */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "blocks-change.h"
#include "cli/json-build.h"
#include "core/context.h"
#include "change/memdev-remove.h"
#include "change/region.h"

#define MAX_PINNERS 8

static const char *const levels[] = { "memdevs", "regions", NULL };
static const struct out_column columns[] = {
	{ "NAME", "name", OUT_STR, 0.1, 0, "memdev, or its region", NULL },
	{ "STATE", "state", OUT_STR, 0.1, 0, "region: destroyed, busy, failed, interrupted, planned", NULL },
	{ "WITH", "interleaved_with", OUT_STR, 0.2, 0, "other memdevs of the region's interleave set", NULL },
	{ "DISABLED", "disabled", OUT_BOOL, 0.1, 0, "memdev unbound from cxl_mem", NULL },
	{ "SAFE", "safe_to_remove", OUT_BOOL, 0.1, 0, "the card can be removed now", NULL },
};
static const struct out_table table = { levels, NULL, columns, sizeof(columns) / sizeof(columns[0]),
					"NAME,STATE,WITH,DISABLED,SAFE" };

/* the processes with pages on one node */
struct pinners {
	int node;
	struct ct_pinner *p;
	size_t n, total;
};

struct tally {
	unsigned progress, failed;	/* steps done, objects left undone */
	/* each node's pinners, looked for once in the run: the same answer
	 * for every block of the node, and a walk of every process's
	 * numa_maps each time cost minutes on a large device */
	struct pinners *pin;
	size_t npin;
};

static const struct pinners *pinners_of(struct cmd_env *env, int node, struct tally *tl)
{
	struct pinners *np, *pc;

	for (size_t i = 0; i < tl->npin; i++)
		if (tl->pin[i].node == node)
			return &tl->pin[i];
	if (!(np = realloc(tl->pin, (tl->npin + 1) * sizeof(*np))))
		return NULL;
	tl->pin = np;
	pc = &np[tl->npin++];
	*pc = (struct pinners){ node, NULL, 0, 0 };
	if (ct_memdev_remove_pinners(env->ctx, node, MAX_PINNERS, &pc->p, &pc->n, &pc->total))
		ct_error_clear(&env->ctx->err);
	return pc;
}

static void pinners_free(struct tally *tl)
{
	for (size_t i = 0; i < tl->npin; i++)
		free(tl->pin[i].p);
	free(tl->pin);
	tl->pin = NULL;
	tl->npin = 0;
}

/* one block that stays online: on stderr and in busy_blocks, with the
 * processes that have pages on its node */
static void busy_block(struct cmd_env *env, const struct ct_region *r, const struct ct_block_op *op, json_object *busy,
		       struct tally *tl)
{
	json_object *o = json_object_new_object(), *who;
	const struct pinners *pc;
	const struct ct_pinner *p = NULL;
	size_t n = 0, total = 0;
	char line[768] = "", hs[32];
	size_t off = 0;

	snprintf(line, sizeof(line), "memory%llu", (unsigned long long)op->before.id);
	jb_str(o, "block", line);
	jb_str(o, "region", r->name);
	jb_int_known(o, "node", op->node);
	jb_str(o, "result", ct_blocks_result_name(op->result));
	if (op->err)
		jb_str(o, "error", strerror(op->err));
	if (ct_blocks_note_of(op)[0])
		jb_str(o, "note", ct_blocks_note_of(op));
	if ((pc = pinners_of(env, op->node, tl))) {
		p = pc->p;
		n = pc->n;
		total = pc->total;
	}
	who = jb_arr(o, "pinned_by");
	line[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		json_object *w = json_object_new_object();
		jb_int(w, "pid", p[i].pid);
		jb_str(w, "comm", p[i].comm);
		jb_u64(w, "bytes", p[i].bytes);
		json_object_array_add(who, w);
		if (off < sizeof(line))
			off += snprintf(line + off, sizeof(line) - off, "%s%d (%s, %s)", i ? ", " : "", p[i].pid, p[i].comm,
					out_human_size(p[i].bytes, hs, sizeof(hs)));
	}
	if (total > n && off < sizeof(line))
		snprintf(line + off, sizeof(line) - off, " and %zu more", total - n);
	json_object_array_add(busy, o);
	cmd_err(env, "memory%llu (%s, node %d) stays online: %s%s%s; %s%s", (unsigned long long)op->before.id, r->name,
		op->node, ct_blocks_result_name(op->result), ct_blocks_note_of(op)[0] ? ": " : "", ct_blocks_note_of(op),
		n ? "processes with pages on that node: " : "no process has pages on that node (kernel allocations "
		"pin it)", line);
}

/* every block of r offline (no rollback: each busy block is named, the
 * others stay offline and a second run goes on from there); 0 when all are,
 * -EINTR when a signal stopped it (the blocks not tried are not named) */
static int offline_region(struct cmd_env *env, struct ct_topology *t, const struct ct_region *r,
			  const struct change_opts *co, json_object *busy, struct tally *tl)
{
	struct ct_blocks_opts eo;
	struct ct_blocks_plan p = { 0 };
	const struct ct_dax *devdax = NULL;
	int rc = ct_blocks_plan_add_target(&env->ctx->sys, t, &p, r->name, &devdax), bad = 0, stopped = 0;

	if (rc == -EMEDIUMTYPE || rc == -ENOENT) {	/* devdax, or no dax device: no blocks */
		ct_error_clear(&env->ctx->err);
		rc = 0;
	}
	if (rc) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		ct_blocks_plan_free(&p);
		return rc;
	}
	change_exec_opts(co, &eo);
	eo.rollback = false;
	ct_blocks_plan_decide(&p, CT_WANT_OFFLINE, false);
	ct_blocks_execute(&env->ctx->sys, &p, &eo);
	for (size_t i = 0; i < p.n; i++) {
		const struct ct_block_op *op = &p.op[i];
		if (op->result == CT_RES_DONE)
			tl->progress++;
		else if (op->result == CT_RES_INTERRUPTED)
			stopped++;
		else if (op->result != CT_RES_UNCHANGED) {
			busy_block(env, r, op, busy, tl);
			bad++;
		}
	}
	if (stopped)
		cmd_err(env, "%s: stopped by a signal: %d block%s not offlined; the region is left in place", r->name,
			stopped, stopped == 1 ? "" : "s");
	if (bad)
		cmd_err(env, "%s: %d block%s stay%s online: the region is left in place; the blocks that went offline "
			"stay offline ('cxltier online %s' puts them back)", r->name, bad, bad == 1 ? "" : "s",
			bad == 1 ? "s" : "", r->name);
	ct_blocks_plan_free(&p);
	return stopped ? -EINTR : bad ? -EBUSY : 0;
}

/* the number of memdev's endpoint decoder in r (decoderP.N: N), -1 none:
 * the kernel hands out an endpoint's capacity in decoder order and takes
 * it back only from the last one */
static long decoder_of(const struct ct_region *r, const char *memdev)
{
	for (unsigned k = 0; k < r->ntargets; k++) {
		const char *dot = strrchr(r->targets[k], '.');
		if (!strcmp(r->memdevs[k], memdev) && dot)
			return strtol(dot + 1, NULL, 10);
	}
	return -1;
}

/* the regions of memdev, last allocated first (the order in which they can
 * be destroyed); *n of them, in a malloc'd array (NULL when none) */
static const struct ct_region **regions_of(const struct ct_topology *t, const char *memdev, size_t *n)
{
	const struct ct_region **v = calloc(t->nregions ? t->nregions : 1, sizeof(*v));

	*n = 0;
	for (size_t i = 0; v && i < t->nregions; i++) {
		const struct ct_region *r = &t->regions[i];
		size_t k;
		if (!ct_region_has_memdev(r, memdev))
			continue;
		for (k = (*n)++; k > 0 && decoder_of(v[k - 1], memdev) < decoder_of(r, memdev); k--)
			v[k] = v[k - 1];
		v[k] = r;
	}
	return v;
}

/* the regions of one memdev destroyed (each checked before its memory goes
 * offline), the memdev disabled: true when the card may be removed */
static bool remove_one(struct cmd_env *env, struct ct_topology *t, const struct ct_memdev *m,
		       const struct change_opts *co, json_object *arr, json_object *busy, struct tally *tl)
{
	json_object *jm = json_object_new_object(), *regs;
	bool all = true, was = false;
	char foreign[CT_NAME] = "";	/* a region that is not cxltier's to take away */
	struct ct_blocks_opts eo;
	int rc;
	size_t busy_before = json_object_array_length(busy), nr;
	const struct ct_region **order = regions_of(t, m->name, &nr);

	change_exec_opts(co, &eo);
	jb_str(jm, "name", m->name);
	regs = jb_arr(jm, "regions");
	json_object_array_add(arr, jm);
	if (!order) {
		cmd_err(env, "out of memory");
		all = false;
	}
	/* a region whose dax device is another driver's (famfs) is never taken
	 * away: then none of the card's regions is, dry run or not (the card
	 * could not be removed anyway, and the others' memory would be gone) */
	for (size_t i = 0; order && i < nr && !foreign[0]; i++)
		if (ct_region_check_dax_owned(env->ctx, order[i])) {
			ct_strlcpy(foreign, order[i]->name, sizeof(foreign));
			cmd_err(env, "%s", ct_context_message(env->ctx));
			ct_error_clear(&env->ctx->err);
		}
	for (size_t i = 0; order && i < nr; i++) {
		const struct ct_region *r = order[i];
		struct ct_region_teardown td;
		json_object *jr, *with;
		const char *state = "destroyed";

		jr = json_object_new_object();
		jb_str(jr, "name", r->name);
		with = jb_arr(jr, "interleaved_with");
		for (unsigned k = 0; k < r->ntargets; k++)
			if (strcmp(r->memdevs[k], m->name)) {
				json_object_array_add(with, json_object_new_string(r->memdevs[k]));
				cmd_info(env, 0, "%s also spans %s: its memory on %s goes too (%s stays enabled)", r->name,
					 r->memdevs[k], r->memdevs[k], r->memdevs[k]);
			}
		json_object_array_add(regs, jr);
		if (foreign[0]) {
			char why[320];
			if (ct_region_check_dax_owned(env->ctx, r))
				ct_strlcpy(why, ct_context_message(env->ctx), sizeof(why));
			else
				snprintf(why, sizeof(why), "not taken apart: %s of %s is not cxltier's to take away", foreign,
					 m->name);
			ct_error_clear(&env->ctx->err);
			jb_str(jr, "error", why);
			jb_str(jr, "state", "failed");
			all = false;
			continue;
		}
		if (co->dry_run) {
			jb_str(jr, "state", "planned");
			continue;
		}
		if (*eo.stop) {
			cmd_err(env, "%s: not taken apart: stopped by a signal", r->name);
			state = "interrupted";
		} else if (ct_region_plan_destroy(env->ctx, t, r->name, &td)) {
			/* refused before any of its memory went offline */
			cmd_err(env, "%s; none of its memory was offlined", ct_context_message(env->ctx));
			jb_str(jr, "error", ct_context_message(env->ctx));
			ct_error_clear(&env->ctx->err);
			state = "failed";
		} else if ((rc = offline_region(env, t, r, co, busy, tl)))
			state = rc == -EINTR ? "interrupted" : "busy";
		else if (*eo.stop) {
			cmd_err(env, "%s: its memory is offline, the region left in place: stopped by a signal", r->name);
			state = "interrupted";
		} else if (ct_region_destroy(env->ctx, t, &td, &eo)) {
			cmd_err(env, "%s", ct_context_message(env->ctx));
			jb_str(jr, "error", ct_context_message(env->ctx));
			ct_error_clear(&env->ctx->err);
			state = "failed";
		} else
			tl->progress++;
		jb_str(jr, "state", state);
		all &= !strcmp(state, "destroyed");
	}
	free(order);
	if (foreign[0]) {
		cmd_err(env, "%s%s: %s is not cxltier's to take away (see above): NOT safe to remove; nothing was "
			"changed", co->dry_run ? "dry run: " : "", m->name, foreign);
		tl->failed++;
		return false;
	}
	if (co->dry_run) {
		fprintf(stderr, "cxltier offline: dry run: %s: would offline and destroy %zu region%s, then disable it; "
			"nothing was changed\n", m->name, json_object_array_length(regs),
			json_object_array_length(regs) == 1 ? "" : "s");
		return false;
	}
	if (all && ct_memdev_remove_disable(env->ctx, m->name, &was)) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		all = false;
	} else if (all && !was)
		tl->progress++;
	jb_bool(jm, "disabled", all);
	jb_bool(jm, "safe_to_remove", all);
	if (all)
		fprintf(stderr, "cxltier offline: %s: no region left, %s: safe to remove the card (%s)\n", m->name,
			was ? "was disabled already" : "disabled", m->host[0] ? m->host : "its PCI device");
	else {
		cmd_err(env, "%s: NOT safe to remove: %s", m->name,
			busy_before == json_object_array_length(busy) ? "a region or the memdev is left (see above)"
			: "its memory is still in use (see above)");
		tl->failed++;
	}
	return all;
}

int offline_remove(struct cmd_env *env, char **targets, int n, struct change_opts *co)
{
	struct ct_topology t = { 0 };
	struct tally tl = { 0, 0, NULL, 0 };
	struct ct_blocks_opts eo;
	json_object *root, *arr, *busy;
	char err[256];
	int rc;

	for (int i = 0; i < n; i++)
		if (strncmp(targets[i], "mem", 3) || !strncmp(targets[i], "memory", 6)) {
			cmd_err(env, "--remove takes memdevs (memN), not '%s'", targets[i]);
			return EXIT_USAGE;
		}
	if (out_check_columns(&env->out, &table, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		return EXIT_USAGE;
	}
	if ((rc = change_begin_load(env, co, targets, n, true, &t)))
		return rc;
	if ((rc = scope_refuse_interleaved(env, &t, targets, n, co->whole_region))) {
		change_end();
		ct_topology_free(&t);
		return rc;
	}
	root = json_object_new_object();
	arr = jb_arr(root, "memdevs");
	busy = jb_arr(root, "busy_blocks");
	change_exec_opts(co, &eo);
	for (int i = 0; i < n; i++) {
		const struct ct_memdev *m;
		if (!co->dry_run && *eo.stop) {
			cmd_err(env, "%s: not tried: stopped by a signal", targets[i]);
			tl.failed++;
			continue;
		}
		/* what an earlier memdev took away (a region of the same
		 * interleave set) is gone: read the topology again */
		if (i && !co->dry_run) {
			ct_topology_free(&t);
			if ((rc = change_load(env, targets, n, true, &t))) {
				change_end();
				pinners_free(&tl);
				json_object_put(root);
				return tl.progress ? EXIT_PARTIAL : rc;
			}
		}
		m = ct_topology_memdev(&t, targets[i]);
		if (!m) {
			cmd_err(env, "no memdev '%s' on this system (see 'cxltier list')", targets[i]);
			tl.failed++;
			continue;
		}
		remove_one(env, &t, m, co, arr, busy, &tl);
	}
	change_end();
	pinners_free(&tl);
	ct_topology_free(&t);
	if (env->out.json)
		change_recovered_json(root);
	rc = out_print(&env->out, &table, root, err, sizeof(err));
	json_object_put(root);
	if (rc) {
		cmd_err(env, "%s", err);
		return EXIT_USAGE;
	}
	if (co->dry_run || !tl.failed)
		return tl.failed ? EXIT_FAIL : EXIT_OK;
	return tl.progress ? EXIT_PARTIAL : EXIT_FAIL;
}
