// SPDX-License-Identifier: LGPL-2.1-or-later
/* doctor-tiering.c - the kernel's own tiering against the memory it has:
 * CXL or lower-tier memory online with demotion off, promotion that cannot
 * happen, weighted-interleave weights left at the kernel's default 1 over
 * nodes of different bandwidth (doctor.h) */
#include <stdio.h>
#include <string.h>
#include "core/context.h"
#include "mm/interleave-weights.h"
#include "views/doctor.h"
#include "views/findings.h"
#include "views/tier-model.h"

/* a node's bandwidth as the kernel gives it for CPUs (else any
 * initiator): read + write MB/s, 0 unknown */
static uint64_t bandwidth(const struct ct_tier_node *x)
{
	const struct ct_access *a = x->access[1].acc.present ? &x->access[1].acc : &x->access[0].acc;

	return a->present ? a->read_bandwidth + a->write_bandwidth : 0;
}

/* the nodes below the CPUs' tier, or with CXL memory: "node1,node2" */
static size_t lower_nodes(const struct ct_tier_model *m, char *buf, size_t len)
{
	int top = -1;
	size_t n = 0, off = 0;

	for (size_t i = 0; i < m->count; i++)
		if (m->nodes[i].node->has_cpu && m->nodes[i].tier >= 0 && (top < 0 || m->nodes[i].tier < top))
			top = m->nodes[i].tier;
	buf[0] = '\0';
	for (size_t i = 0; i < m->count; i++) {
		const struct ct_tier_node *x = &m->nodes[i];
		if (!x->has_cxl && !(top >= 0 && x->tier > top))
			continue;
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, "%snode%d", n ? "," : "", x->node->id);
		n++;
	}
	return n;
}

static void demotion(const struct ct_tier_model *m, const char *lower, struct ct_findings *f)
{
	if (m->settings.demotion_enabled != 0)
		return;
	ct_finding_add(f, "demotion", lower, CT_FINDING_INFO, "cxltier tiering --demotion on",
		       "CXL or lower-tier memory is online on %s, but demotion is off (demotion_enabled false): "
		       "reclaim drops or swaps cold pages instead of moving them there", lower);
}

static void promotion(const struct ct_tier_model *m, const char *lower, struct ct_findings *f)
{
	int bal = m->settings.numa_balancing;

	if (bal >= 0 && !(bal & CT_NUMA_BALANCING_MEMORY_TIERING))
		ct_finding_add(f, "promotion", lower, CT_FINDING_INFO,
			       bal & CT_NUMA_BALANCING_NORMAL ? "cxltier tiering --balancing normal+tiering"
							      : "cxltier tiering --balancing tiering",
			       "NUMA balancing's memory-tiering bit is off (numa_balancing %d, %s): hot pages on %s "
			       "are never promoted to the top tier", bal, ct_numa_balancing_name(bal), lower);
	else if (bal >= 0 && m->settings.promote_rate_limit_mbps == 0)
		ct_finding_add(f, "promotion", lower, CT_FINDING_INFO, "cxltier tiering --promote-rate 65536",
			       "the promotion rate limit is 0 MB/s (numa_balancing_promote_rate_limit_MBps): hot "
			       "pages on %s are never promoted to the top tier", lower);
}

/* the fastest and slowest nodes by bandwidth differ by a quarter or more,
 * yet every weight is 1 (and the kernel does not derive them itself) */
static void weights(struct ct_context *ctx, const struct ct_tier_model *m, struct ct_findings *f)
{
	const struct ct_tier_node *fast = NULL, *slow = NULL;
	struct ct_wi_state wi;
	bool all_one = true;

	if (ct_wi_read(&ctx->sys, &wi)) {
		ct_error_clear(&ctx->err);	/* no weighted interleave here: nothing to say */
		return;
	}
	for (size_t i = 0; i < m->count; i++) {
		const struct ct_tier_node *x = &m->nodes[i];
		uint64_t bw = bandwidth(x);
		all_one &= ct_wi_weight(&wi, x->node->id) <= 1;
		if (!bw)
			continue;
		if (!fast || bw > bandwidth(fast))
			fast = x;
		if (!slow || bw < bandwidth(slow))
			slow = x;
	}
	if (!wi.auto_on && all_one && fast && slow && bandwidth(fast) * 4 >= bandwidth(slow) * 5)
		ct_finding_add(f, "weights", CT_WI_DIR, CT_FINDING_INFO, "cxltier weights --set",
			       "the weighted-interleave weights are all 1, the kernel's default, while node%d reads and "
			       "writes at %llu MB/s and node%d at %llu MB/s: a process under weighted interleave puts as "
			       "much on node%d as on node%d", fast->node->id, (unsigned long long)bandwidth(fast),
			       slow->node->id, (unsigned long long)bandwidth(slow), slow->node->id, fast->node->id);
	ct_wi_free(&wi);
}

void ct_doctor_tiering(struct ct_context *ctx, struct ct_findings *f)
{
	struct ct_tier_model m;
	char lower[128];

	if (ct_tier_model_load(ctx, -1, &m)) {
		ct_error_clear(&ctx->err);	/* no NUMA here: nothing to tier */
		return;
	}
	if (lower_nodes(&m, lower, sizeof(lower))) {
		demotion(&m, lower, f);
		promotion(&m, lower, f);
	}
	weights(ctx, &m, f);
	ct_tier_model_free(&m);
}
