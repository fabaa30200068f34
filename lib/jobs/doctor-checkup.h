/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * doctor-checkup.h - `cxltier doctor` as one job: the topology loaded,
 * every check of views/doctor.h run on it, and the event history's
 * (the store of this machine: the one named, else `[events] store =` of
 * /etc/cxltier.conf, else the default; on a captured tree only the one
 * named).
 */
#ifndef CXLTIER_DOCTOR_CHECKUP_H
#define CXLTIER_DOCTOR_CHECKUP_H

#include "core/context.h"
#include "views/findings.h"

struct ct_doctor_checkup_opts {
	const char *store_path;		/* the event store; NULL: the configuration's, else the default */
};

/* the findings in f: 0, or -errno (said) when the topology could not be
 * loaded or the checks ran out of memory */
int ct_doctor_checkup(struct ct_context *ctx, const struct ct_doctor_checkup_opts *o, struct ct_findings *f);

#endif
