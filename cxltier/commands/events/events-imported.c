// SPDX-License-Identifier: GPL-2.0-only
/* events-imported.c - `events --import-rasdaemon` shown: what each of
 * rasdaemon's CXL tables gave the store (lib/jobs/event-import.h), as JSON
 * through the one JSON builder and as a table through the one output
 * layer */
#include "events-imported.h"
#include "cli/json-build.h"

static const char *const levels[] = { "import.tables", NULL };
static const struct out_column columns[] = {
	{ "TABLE", "table", OUT_STR, 0.1, 0, "rasdaemon's table", NULL },
	{ "ROWS", "rows", OUT_NUM, 0.1, 0, "its rows", NULL },
	{ "NEW", "new", OUT_NUM, 0.1, 0, "records new in the store", NULL },
	{ "ALREADY", "duplicates", OUT_NUM, 0.1, 0, "records the store held already (imported before, or read live)", NULL },
	{ "SKIPPED", "skipped", OUT_NUM, 0.1, 0, "rows that make no record", NULL },
};
static const struct out_table import_table = {
	levels, NULL, columns, sizeof(columns) / sizeof(columns[0]), "TABLE,ROWS,NEW,ALREADY,SKIPPED",
};

int events_import_print(struct cmd_env *env, const struct ct_event_import_report *rep)
{
	json_object *root = json_object_new_object(), *o = jb_obj(root, "import"), *tables;
	char err[256];
	int rc = EXIT_OK;

	jb_str(o, "path", rep->path);
	jb_str(o, "store", rep->store_path);
	jb_u64(o, "rows", rep->rows);
	jb_u64(o, "new", rep->stored);
	jb_u64(o, "duplicates", rep->duplicates);
	jb_u64(o, "skipped", rep->skipped);
	tables = jb_arr(o, "tables");
	for (int i = 0; i < CT_RASDAEMON_TABLES; i++) {
		const struct ct_event_import_table *t = &rep->tables[i];
		json_object *row;
		if (!t->t.present)
			continue;
		row = json_object_new_object();
		jb_str(row, "table", t->t.name);
		jb_u64(row, "rows", t->t.rows);
		jb_u64(row, "new", t->stored);
		jb_u64(row, "duplicates", t->duplicates);
		jb_u64(row, "skipped", t->t.skipped);
		json_object_array_add(tables, row);
	}
	if (out_print(&env->out, &import_table, root, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		rc = EXIT_USAGE;
	}
	json_object_put(root);
	return rc;
}
