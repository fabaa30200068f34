/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * findings.h - what a check found, as data: the check, the object, its
 * status, what is the case and the command that fixes it; a growing list of
 * them that counts the problems. The doctor's checks fill one; the caller
 * shows it.
 */
#ifndef CXLTIER_FINDINGS_H
#define CXLTIER_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>

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

/* append one (a problem counted); out of memory: dropped, oom set */
void ct_finding_add(struct ct_findings *f, const char *check, const char *object, enum ct_finding_status status,
		    const char *fix, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
void ct_findings_free(struct ct_findings *f);
const char *ct_finding_status_name(enum ct_finding_status s);	/* "ok", "info", "problem" */

#endif
