/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * doctor.h - why CXL memory is missing, offline, in the wrong zone or in the
 * wrong tier: every check as data (check, object, status, finding, fix),
 * from the kernel's state and the loaded topology. The caller shows them.
 */
#ifndef CXLTIER_DOCTOR_H
#define CXLTIER_DOCTOR_H

#include <stdbool.h>
#include <stddef.h>

struct ct_context;
struct ct_topology;

enum ct_finding_status {
	CT_FINDING_OK,
	CT_FINDING_INFO,
	CT_FINDING_PROBLEM,
};

struct ct_finding {
	char check[32];		/* what was checked: "kernel", "memdev", "blocks"... */
	char object[128];	/* on which object, "" none */
	enum ct_finding_status status;
	char finding[512];	/* what is the case */
	char fix[256];		/* the command that fixes it, "" none */
};

struct ct_findings {
	struct ct_finding *v;
	size_t n, cap;
	unsigned problems;
	bool oom;
};

/* every check, in a fixed order; 0 or -ENOMEM (f holds what was found) */
int ct_doctor_run(struct ct_context *ctx, const struct ct_topology *t, struct ct_findings *f);
void ct_findings_free(struct ct_findings *f);
const char *ct_finding_status_name(enum ct_finding_status s);	/* "ok", "info", "problem" */

/* the parts of ct_doctor_run */
void ct_doctor_kernel(struct ct_context *ctx, const struct ct_topology *t, struct ct_findings *f);
void ct_doctor_modules(struct ct_context *ctx, struct ct_findings *f);
void ct_doctor_chain(const struct ct_topology *t, struct ct_findings *f);
void ct_doctor_figures(struct ct_context *ctx, const struct ct_topology *t, struct ct_findings *f);
void ct_doctor_policy(struct ct_context *ctx, struct ct_findings *f);
void ct_doctor_damon(struct ct_context *ctx, struct ct_findings *f);

void ct_finding_add(struct ct_findings *f, const char *check, const char *object, enum ct_finding_status status,
		    const char *fix, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

#endif
