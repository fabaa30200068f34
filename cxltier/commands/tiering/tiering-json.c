// SPDX-License-Identifier: GPL-2.0-only
/* tiering-json.c - the kernel's tiering switches as JSON and as a table
 * (tiering-json.h) */
#include <stdio.h>
#include "tiering-json.h"
#include "cli/json-build.h"

static const char *const levels[] = { "switches", NULL };
static const struct out_column columns[] = {
	{ "SWITCH", "name", OUT_STR, 0.1, 0, "the switch, as its option names it", NULL },
	{ "VALUE", "value", OUT_STR, 0.1, 0, "its value (after the run, when set)", NULL },
	{ "KERNEL", "kernel_value", OUT_NUM, 0.1, 0, "the value as the kernel's file holds it", NULL },
	{ "WAS", "was", OUT_STR, 0.1, 0, "its value before the run", NULL },
	{ "ASKED", "asked", OUT_STR, 0.1, 0, "the value asked for", NULL },
	{ "RESULT", "result", OUT_STR, 0.1, 0, "planned, unchanged, changed, failed, rolled back, not reached", NULL },
	{ "FILE", "file", OUT_STR, 0.3, OUT_TRUNC, "the kernel's file", NULL },
};
const struct out_table tiering_show_table = {
	levels, NULL, columns, sizeof(columns) / sizeof(columns[0]), "SWITCH,VALUE,KERNEL",
};
const struct out_table tiering_set_table = {
	levels, NULL, columns, sizeof(columns) / sizeof(columns[0]), "SWITCH,WAS,ASKED,VALUE,RESULT",
};

/* a value as the options write it: on/off, the balancing words, MB/s */
static void value_word(enum ct_tiering_switch w, int64_t v, char *buf, size_t len)
{
	static const char *const modes[] = { "off", "normal", "tiering", "normal+tiering" };

	if (v < 0)
		snprintf(buf, len, "unsupported");
	else if (w == CT_TIERING_DEMOTION)
		snprintf(buf, len, "%s", v ? "on" : "off");
	else if (w == CT_TIERING_BALANCING && v < 4)
		snprintf(buf, len, "%s", modes[v]);
	else if (w == CT_TIERING_BALANCING)
		snprintf(buf, len, "unknown");
	else
		snprintf(buf, len, "%lld MB/s", (long long)v);
}

static json_object *switch_json(enum ct_tiering_switch w, int64_t v, const struct ct_tiering_step *s)
{
	json_object *o = json_object_new_object();
	char buf[32];

	jb_str(o, "name", ct_tiering_name(w));
	jb_str(o, "file", ct_tiering_path(w));
	value_word(w, v, buf, sizeof(buf));
	jb_str(o, "value", buf);
	if (v >= 0)
		jb_int(o, "kernel_value", v);
	if (s) {
		value_word(w, s->from, buf, sizeof(buf));
		jb_str(o, "was", buf);
		if (s->from >= 0)
			jb_int(o, "was_kernel_value", s->from);
		value_word(w, s->to, buf, sizeof(buf));
		jb_str(o, "asked", buf);
		jb_str(o, "result", s->result);
	}
	return o;
}

json_object *tiering_json(const struct ct_tiering_settings *now, const struct ct_tiering_set_report *r)
{
	json_object *root = json_object_new_object(), *a = jb_arr(root, "switches");

	for (int w = 0; w < CT_TIERING_NSWITCHES; w++) {
		const struct ct_tiering_step *s = NULL;
		for (size_t i = 0; r && i < r->nsteps; i++)
			if (r->steps[i].sw == (enum ct_tiering_switch)w)
				s = &r->steps[i];
		if (r && !s)
			continue;	/* a run shows what it was asked */
		json_object_array_add(a, switch_json(w, ct_tiering_value(r ? &r->after : now, w), s));
	}
	return root;
}
