/* SPDX-License-Identifier: GPL-2.0-only */
/* figures-json.h - the kernel's access figures as `cdat` and `tiers` show them */
#ifndef CXLTIER_FIGURES_JSON_H
#define CXLTIER_FIGURES_JSON_H

#include <json-c/json.h>

struct ct_latency_check;

/* "latency_check": {"verdict", "by", "expected_read_latency_ns"}; absent when
 * nothing was judged */
void latency_check_json(json_object *o, const struct ct_latency_check *c);

#endif
