// SPDX-License-Identifier: LGPL-2.1-or-later
/* tier-weights.c - the weighted-interleave weights of the tier model's
 * nodes: the kernel's (mm/interleave-weights.h) and those computed from the
 * access1 figures that rank them (mm/interleave-compute.h) */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/context.h"
#include "views/tier-model.h"

int ct_tier_weights_load(struct ct_context *ctx, struct ct_tier_model *m)
{
	struct ct_tier_weights *w = &m->weights;
	struct ct_wi_figures *in;
	int rc;

	w->steps = calloc(m->count ? m->count : 1, sizeof(*w->steps));
	in = calloc(m->count ? m->count : 1, sizeof(*in));
	if (!w->steps || !in) {
		free(in);
		return ct_fail(&ctx->err, ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < m->count; i++) {
		const struct ct_tier_figures *f = &m->nodes[i].access[1];

		in[i].node = m->nodes[i].node->id;
		in[i].present = f->source != CT_FIGURES_NONE;
		in[i].read_bandwidth = f->acc.read_bandwidth;
		in[i].write_bandwidth = f->acc.write_bandwidth;
	}
	ct_wi_compute(in, m->count, w->steps, &w->calc);
	free(in);
	for (size_t i = 0; i < m->count; i++)
		m->nodes[i].wi = &w->steps[i];
	rc = ct_wi_read(&ctx->sys, &w->kernel);
	if (rc == -ENOMEM)
		return rc;
	if (rc) {
		ct_strlcpy(w->error, ct_context_message(ctx), sizeof(w->error));
		ct_error_clear(&ctx->err);
		return 0;
	}
	w->have = true;
	for (size_t i = 0; i < m->count; i++)
		m->nodes[i].wi_kernel = ct_wi_weight(&w->kernel, m->nodes[i].node->id);
	return 0;
}

void ct_tier_weights_free(struct ct_tier_weights *w)
{
	ct_wi_free(&w->kernel);
	free(w->steps);
	memset(w, 0, sizeof(*w));
}
