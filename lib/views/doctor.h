/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * doctor.h - why CXL memory is missing, offline, in the wrong zone or in the
 * wrong tier: every check as data (check, object, status, finding, fix),
 * from the kernel's state and the loaded topology. The caller shows them.
 */
#ifndef CXLTIER_DOCTOR_H
#define CXLTIER_DOCTOR_H

#include "views/findings.h"

struct ct_context;
struct ct_topology;

/* every check, in a fixed order; 0 or -ENOMEM (f holds what was found) */
int ct_doctor_run(struct ct_context *ctx, const struct ct_topology *t, struct ct_findings *f);

/* the parts of ct_doctor_run */
void ct_doctor_kernel(struct ct_context *ctx, const struct ct_topology *t, struct ct_findings *f);
void ct_doctor_modules(struct ct_context *ctx, struct ct_findings *f);
void ct_doctor_chain(const struct ct_topology *t, struct ct_findings *f);
/* device capacity an endpoint decoder holds for no region */
void ct_doctor_capacity(struct ct_context *ctx, struct ct_findings *f);
void ct_doctor_figures(struct ct_context *ctx, const struct ct_topology *t, struct ct_findings *f);
void ct_doctor_policy(struct ct_context *ctx, struct ct_findings *f);
void ct_doctor_damon(struct ct_context *ctx, struct ct_findings *f);
/* the kernel's tiering switches against the memory it has (CXL or lower
 * tiers online with demotion off, no promotion) and weighted-interleave
 * weights all 1 over nodes of different bandwidth */
void ct_doctor_tiering(struct ct_context *ctx, struct ct_findings *f);
/* the event history (store_path NULL: the default store): a device whose
 * corrected errors are rising (at least CT_DOCTOR_RISING_MIN General Media
 * and DRAM records in the last 24 h, more than in the 24 h before), or
 * that reported a failure or fatal record in the last 7 days */
#define CT_DOCTOR_RISING_MIN 10
void ct_doctor_events(const char *store_path, struct ct_findings *f);

#endif
