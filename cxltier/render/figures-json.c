// SPDX-License-Identifier: GPL-2.0-only
/* figures-json.c - see figures-json.h */
#include "render/figures-json.h"
#include "cli/json-build.h"
#include "core/kernel.h"

void latency_check_json(json_object *o, const struct ct_latency_check *c)
{
	json_object *x;

	if (c->verdict == CT_LATENCY_UNCHECKED)
		return;
	x = jb_obj(o, "latency_check");
	jb_str(x, "verdict", ct_latency_verdict_name(c->verdict));
	jb_str(x, "by", ct_latency_evidence_name(c->by));
	if (c->expected_ns)
		jb_u64(x, "expected_read_latency_ns", c->expected_ns);
}
