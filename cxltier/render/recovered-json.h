/* SPDX-License-Identifier: GPL-2.0-only */
/* recovered-json.h - what a run finished or undid of killed runs before it
 * began, as `region`, `online` and `offline` print it with -j */
#ifndef CXLTIER_RECOVERED_JSON_H
#define CXLTIER_RECOVERED_JSON_H

#include <json-c/json.h>
#include "jobs/job-change.h"

/* what goes at "recovered": an array, each as {pid, command, region,
 * block, decoders, outcome, done}; NULL when there was none */
json_object *recovered_json(const struct ct_job_recovered *rec);

#endif
