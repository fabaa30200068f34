/* SPDX-License-Identifier: GPL-2.0-only */
/* tiering-json.h - `cxltier tiering`'s switches as JSON and as a table */
#ifndef CXLTIER_TIERING_JSON_H
#define CXLTIER_TIERING_JSON_H

#include <json-c/json.h>
#include "cli/output.h"
#include "jobs/tiering-set.h"

/* a switch a row: SWITCH, VALUE, KERNEL (shown), WAS, RESULT (set), FILE */
extern const struct out_table tiering_show_table;
extern const struct out_table tiering_set_table;

/* the settings read (r NULL), or a run's report: {"switches": [...]} */
json_object *tiering_json(const struct ct_tiering_settings *now, const struct ct_tiering_set_report *r);

#endif
