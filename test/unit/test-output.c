// SPDX-License-Identifier: GPL-2.0-only
#include "tap.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/output.h"

/* the text F prints on stdout */
static char *captured(int (*f)(void *), void *arg, int *rc)
{
	static char buf[8192];
	FILE *tmp = tmpfile();
	int saved = dup(1);
	size_t n;

	fflush(stdout);
	dup2(fileno(tmp), 1);
	*rc = f(arg);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	rewind(tmp);
	n = fread(buf, 1, sizeof(buf) - 1, tmp);
	buf[n] = '\0';
	fclose(tmp);
	return strdup(buf);
}

static const struct out_column cols[] = {
	{ "BLOCK", "block", OUT_STR, 0, 0, "", NULL },
	{ "ZONES", "zones", OUT_STR, 0, 0, "", NULL },
};
static const char *const levels[] = { "blocks", NULL };
static const struct out_table table = { levels, NULL, cols, 2, "BLOCK,ZONES" };

struct doc {
	struct out_opts o;
	size_t n;
	bool streamed;
};

static json_object *record(void *ctx, size_t i)
{
	json_object *r = json_object_new_object(), *z = json_object_new_array();
	char name[32];

	(void)ctx;
	snprintf(name, sizeof(name), "memory%zu", i);
	json_object_object_add(r, "block", json_object_new_string(name));
	json_object_array_add(z, json_object_new_string("Movable"));
	if (i % 2)
		json_object_array_add(z, json_object_new_string("Normal"));
	json_object_object_add(r, "zones", z);
	json_object_object_add(r, "note", json_object_new_string(i ? "a \"quoted\"\nnote" : ""));
	return r;
}

/* a document with "blocks" first and more keys after it, whole or streamed */
static int print_doc(void *arg)
{
	struct doc *d = arg;
	json_object *root = json_object_new_object(), *arr = json_object_new_array(), *more = json_object_new_array();
	char err[128];
	int rc;

	json_object_object_add(root, "blocks", arr);
	json_object_array_add(more, json_object_new_int(7));
	json_object_object_add(root, "memdevs", more);
	json_object_object_add(root, "empty", json_object_new_array());
	if (d->streamed) {
		rc = out_print_rows(&d->o, &table, root, "blocks", d->n, record, NULL, err, sizeof(err));
	} else {
		for (size_t i = 0; i < d->n; i++)
			json_object_array_add(arr, record(NULL, i));
		rc = out_print(&d->o, &table, root, err, sizeof(err));
	}
	json_object_put(root);
	return rc;
}

static void streamed_as_whole(void)
{
	for (int json = 0; json < 2; json++)
		for (size_t n = 0; n < 4; n++) {
			struct doc whole = { { .json = json }, n, false }, streamed = { { .json = json }, n, true };
			int rc1, rc2;
			char *a = captured(print_doc, &whole, &rc1), *b = captured(print_doc, &streamed, &rc2);

			ok(rc1 == 0 && rc2 == 0 && strcmp(a, b) == 0 && (!json || strstr(b, "\"blocks\"")),
			   "%s, %zu records: streamed, the same bytes as printed whole", json ? "JSON" : "table", n);
			if (strcmp(a, b))
				fprintf(stderr, "# whole:\n%s\n# streamed:\n%s\n", a, b);
			free(a);
			free(b);
		}
}


static int print_empties(void *arg)
{
	json_object *root = json_object_new_object(), *list = json_object_new_array();

	(void)arg;
	json_object_object_add(root, "none", json_object_new_array());
	json_object_object_add(root, "nothing", json_object_new_object());
	json_object_array_add(list, json_object_new_array());
	json_object_array_add(list, json_object_new_object());
	json_object_object_add(root, "list", list);
	json_object_object_add(root, "text", json_object_new_string("[\n  ] {\n}"));
	out_json_fprint(stdout, root);
	json_object_put(root);
	return 0;
}

/* empty arrays and objects are [] and {} whatever json-c writes (0.16: over
 * two lines; 0.17+: on one), nested too; a string's "[\n ]" is left alone */
static void empties_on_one_line(void)
{
	int rc;
	char *a = captured(print_empties, NULL, &rc);

	is_str(a, "{\n  \"none\": [],\n  \"nothing\": {},\n  \"list\": [\n    [],\n    {}\n  ],\n"
		  "  \"text\": \"[\\n  ] {\\n}\"\n}\n", "empty arrays and objects on one line, the same with any json-c");
	free(a);
}

int main(void)
{
	char b[32];

	is_str(out_human_size(0, b, sizeof(b)), "0", "zero");
	is_str(out_human_size(512, b, sizeof(b)), "512", "bytes below 1K");
	is_str(out_human_size(4096, b, sizeof(b)), "4K", "4K");
	is_str(out_human_size(1ULL << 30, b, sizeof(b)), "1G", "1G");
	is_str(out_human_size(3ULL << 29, b, sizeof(b)), "1.5G", "1.5G");
	is_str(out_human_size(128ULL << 20, b, sizeof(b)), "128M", "128M");
	is_str(out_human_size((1ULL << 30) - 1, b, sizeof(b)), "1024M", "rounding up to the next whole");
	is_str(out_human_size(~0ULL, b, sizeof(b)), "16E", "the largest value");
	streamed_as_whole();
	empties_on_one_line();
	return tap_done();
}
