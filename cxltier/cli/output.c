// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>
#include <libsmartcols.h>
#include "cli/output.h"
#include "core/units.h"

char *out_human_size(unsigned long long bytes, char *buf, size_t len)
{
	return ct_size_text(bytes, buf, len);	/* the library's messages say sizes the same way */
}

/* "a.b" descends into objects; NULL when any step is absent */
static json_object *lookup_one(json_object *obj, const char *key, size_t len)
{
	char part[128];

	while (obj && len) {
		const char *dot = memchr(key, '.', len);
		size_t n = dot ? (size_t)(dot - key) : len;
		if (n >= sizeof(part))
			return NULL;
		memcpy(part, key, n);
		part[n] = '\0';
		if (!json_object_object_get_ex(obj, part, &obj))
			return NULL;
		if (!dot)
			break;
		len -= n + 1;
		key = dot + 1;
	}
	return obj;
}

static json_object *lookup(json_object *obj, const char *key)
{
	while (*key) {
		size_t n = strcspn(key, "|");
		json_object *v = lookup_one(obj, key, n);
		if (v)
			return v;
		key += n;
		if (*key == '|')
			key++;
	}
	return NULL;
}

static void format_value(json_object *v, enum out_type type, bool bytes, char *buf, size_t len)
{
	buf[0] = '\0';
	if (!v)
		return;
	switch (json_object_get_type(v)) {
	case json_type_array: {
		size_t off = 0, n = json_object_array_length(v);
		for (size_t i = 0; i < n && off < len; i++) {
			char one[128];
			format_value(json_object_array_get_idx(v, i), type, bytes, one, sizeof(one));
			off += snprintf(buf + off, len - off, "%s%s", i ? "," : "", one);
		}
		return;
	}
	case json_type_boolean:
		snprintf(buf, len, "%s", json_object_get_boolean(v) ? "yes" : "no");
		return;
	case json_type_int:
		if (type == OUT_SIZE && !bytes)
			out_human_size(json_object_get_uint64(v), buf, len);
		else if (type == OUT_HEX)
			snprintf(buf, len, "0x%" PRIx64, json_object_get_uint64(v));
		else if (json_object_get_int64(v) < 0)
			snprintf(buf, len, "%" PRId64, json_object_get_int64(v));
		else
			snprintf(buf, len, "%" PRIu64, json_object_get_uint64(v));
		return;
	case json_type_double:
		snprintf(buf, len, "%g", json_object_get_double(v));
		return;
	case json_type_string:
		snprintf(buf, len, "%s", json_object_get_string(v));
		return;
	default:
		return;
	}
}

json_object *out_lookup(json_object *obj, const char *key)
{
	return lookup(obj, key);
}

static const struct out_column *find_column(const struct out_table *t, const char *name, size_t len)
{
	for (size_t i = 0; i < t->ncolumns; i++)
		if (strlen(t->columns[i].name) == len && strncasecmp(t->columns[i].name, name, len) == 0)
			return &t->columns[i];
	return NULL;
}

/* resolve a comma list into columns; appends to sel */
static int select_columns(const struct out_table *t, const char *list, const struct out_column **sel,
			  size_t *nsel, size_t max, char *err, size_t errlen)
{
	while (*list) {
		size_t n = strcspn(list, ",");
		const struct out_column *c = n ? find_column(t, list, n) : NULL;
		if (n && !c) {
			snprintf(err, errlen, "unknown column '%.*s' (see --help for the list)", (int)n, list);
			return -EINVAL;
		}
		if (c && *nsel < max)
			sel[(*nsel)++] = c;
		list += n;
		if (*list == ',')
			list++;
	}
	return 0;
}

/* what a record shows in one column */
static void format_cell(const struct out_table *t, const struct out_column *col, json_object *rec, int level,
			bool bytes, char *buf, size_t len)
{
	if (col->format)
		col->format(rec, buf, len);
	else if (strcmp(col->key, "@level") == 0)
		snprintf(buf, len, "%s", t->level_names ? t->level_names[level] : "");
	else
		format_value(lookup(rec, col->key), col->type, bytes, buf, len);
}

static size_t text_width(const char *s);

/* a table being filled: its columns, and the widest cell of each so far
 * (the tree's lines counted) */
struct fill {
	struct libscols_table *tb;
	const struct out_table *t;
	const struct out_column **sel;
	size_t nsel;
	bool bytes;
	size_t width[64];
};

static void add_lines(struct fill *f, struct libscols_line *parent, json_object *arr, int level)
{
	size_t n = json_object_array_length(arr);

	for (size_t i = 0; i < n; i++) {
		json_object *rec = json_object_array_get_idx(arr, i), *kids;
		struct libscols_line *ln = scols_table_new_line(f->tb, parent);
		char buf[1024];

		if (!ln)
			return;
		for (size_t c = 0; c < f->nsel; c++) {
			size_t w;
			format_cell(f->t, f->sel[c], rec, level, f->bytes, buf, sizeof(buf));
			scols_line_set_data(ln, c, buf);
			w = text_width(buf) + (f->sel[c] == &f->t->columns[0] ? 2 * (size_t)level : 0);
			if (w > f->width[c])
				f->width[c] = w;
		}
		if (f->t->levels[level + 1] && (kids = lookup(rec, f->t->levels[level + 1])) &&
		    json_object_is_type(kids, json_type_array))
			add_lines(f, ln, kids, level + 1);
	}
}

/* the widths libsmartcols keeps: a column that may not be cut keeps its
 * widest cell (an absolute hint, which it never reduces), so that only
 * the OUT_TRUNC ones give way on a narrow terminal; whole: every column
 * (a part of a long table, as wide as the whole) */
static void keep_widths(struct libscols_table *tb, const struct out_column **sel, size_t nsel, const size_t *width,
			bool whole)
{
	for (size_t c = 0; c < nsel; c++)
		if (width[c] > 1 && (whole || !(sel[c]->flags & (OUT_TRUNC | OUT_WRAP))))
			scols_column_set_whint(scols_table_get_column(tb, c), (double)width[c]);
}

static int print_rows(const struct out_opts *o, const struct out_table *t, const struct out_column **sel,
		      size_t nsel, json_object *arr, bool tree, char *err, size_t errlen);

/* the defaults, -o's list instead of them, or the defaults and "+A,B" */
static int resolve_columns(const struct out_opts *o, const struct out_table *t, const struct out_column **sel,
			   size_t *nsel, char *err, size_t errlen)
{
	int rc;

	*nsel = 0;
	if (o->all) {
		for (size_t i = 0; i < t->ncolumns && i < 64; i++)
			sel[(*nsel)++] = &t->columns[i];
		return 0;
	}
	if (o->columns && o->columns[0] != '+')
		return select_columns(t, o->columns, sel, nsel, 64, err, errlen);
	rc = select_columns(t, t->defaults, sel, nsel, 64, err, errlen);
	if (!rc && o->columns)
		rc = select_columns(t, o->columns + 1, sel, nsel, 64, err, errlen);
	return rc;
}

int out_check_columns(const struct out_opts *o, const struct out_table *t, char *err, size_t errlen)
{
	const struct out_column *sel[64];
	size_t nsel;

	return o->json ? 0 : resolve_columns(o, t, sel, &nsel, err, errlen);
}

/* LEN bytes of json-c's pretty text at S, written to F with PAD spaces after
 * each newline (a value serialized at the top level, printed PAD deep) and
 * its empty arrays and objects as [] and {}: json-c before 0.17 (Debian 12's
 * 0.16) writes them over two lines, 0.17 and later on one; cxltier's JSON is
 * the same bytes whichever json-c it runs with. (A raw newline is never
 * inside a JSON string: one after a bracket is the layout's.) */
static void put_json_text(FILE *f, const char *s, size_t len, int pad)
{
	const char *end = s + len;

	while (s < end) {
		size_t n = strcspn(s, "[{\n");
		if (n > (size_t)(end - s))
			n = (size_t)(end - s);
		fwrite(s, 1, n, f);
		s += n;
		if (s >= end)
			break;
		if (*s == '\n') {
			fprintf(f, "\n%*s", pad, "");
			s++;
			continue;
		}
		n = 1 + strspn(s + 1, "\n ");
		if (s + n < end && s[1] == '\n' && s[n] == (s[0] == '[' ? ']' : '}')) {
			fputc(s[0], f);
			s += n;	/* the closing one is next */
		} else {
			fputc(*s++, f);
		}
	}
}

#define JSON_FLAGS (JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE)

int out_json_fprint(FILE *f, json_object *o)
{
	const char *s = json_object_to_json_string_ext(o, JSON_FLAGS);

	if (!s)
		return -1;
	put_json_text(f, s, strlen(s), 0);
	fputc('\n', f);
	return 0;
}

int out_print(const struct out_opts *o, const struct out_table *t, json_object *root, char *err, size_t errlen)
{
	const struct out_column *sel[64];
	size_t nsel = 0;
	json_object *arr;
	bool tree = t->levels[1] != NULL;
	int rc;

	if (o->json) {
		if (!out_json_fprint(stdout, root))
			return 0;
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if ((rc = resolve_columns(o, t, sel, &nsel, err, errlen)))
		return rc;
	arr = lookup(root, t->levels[0]);
	if (arr && json_object_is_type(arr, json_type_object)) {
		/* a single object (e.g. settings) is shown as a one-row table */
		json_object *one = json_object_new_array();
		json_object_array_add(one, json_object_get(arr));
		rc = print_rows(o, t, sel, nsel, one, tree, err, errlen);
		json_object_put(one);
		return rc;
	}
	if (!arr || !json_object_is_type(arr, json_type_array) || json_object_array_length(arr) == 0)
		return 0;
	return print_rows(o, t, sel, nsel, arr, tree, err, errlen);
}

bool out_full_view(const struct out_opts *o)
{
	return !o->json && !o->columns && !o->noheadings && !o->raw && !o->pairs;
}

/* a table with the selected columns, no lines yet; the tree drawn on the
 * table's first column (NAME) where it is, none with -l, -r, -P or
 * without that column */
static struct libscols_table *new_table(const struct out_opts *o, const struct out_table *t,
					const struct out_column **sel, size_t nsel, bool tree)
{
	struct libscols_table *tb = scols_new_table();

	if (!tb)
		return NULL;
	scols_table_enable_noheadings(tb, o->noheadings);
	scols_table_enable_raw(tb, o->raw);
	scols_table_enable_export(tb, o->pairs);
	scols_table_enable_shellvar(tb, o->pairs);	/* RD-LAT="3": RD_LAT, for eval */
	tree = tree && !o->list && !o->raw && !o->pairs;
	for (size_t c = 0; c < nsel; c++) {
		struct libscols_column *cl;
		int fl = (sel[c]->flags & OUT_TRUNC ? SCOLS_FL_TRUNC : 0) | (sel[c]->flags & OUT_WRAP ? SCOLS_FL_WRAP : 0);
		if (tree && sel[c] == &t->columns[0])
			fl |= SCOLS_FL_TREE;
		if (sel[c]->type == OUT_SIZE || sel[c]->type == OUT_NUM)
			fl |= SCOLS_FL_RIGHT;
		cl = scols_table_new_column(tb, sel[c]->name, sel[c]->width ? sel[c]->width : 0.1, fl);
		if (cl && sel[c]->flags & OUT_WRAP && !o->raw && !o->pairs) {
			scols_column_set_wrapfunc(cl, scols_wrapnl_chunksize, scols_wrapnl_nextchunk, NULL);
			scols_column_set_safechars(cl, "\n");
		}
	}
	return tb;
}

static int print_rows(const struct out_opts *o, const struct out_table *t, const struct out_column **sel,
		      size_t nsel, json_object *arr, bool tree, char *err, size_t errlen)
{
	struct fill f = { .t = t, .sel = sel, .nsel = nsel, .bytes = o->bytes };

	if (!(f.tb = new_table(o, t, sel, nsel, tree))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	add_lines(&f, NULL, arr, 0);
	keep_widths(f.tb, sel, nsel, f.width, false);
	scols_print_table(f.tb);
	scols_unref_table(f.tb);
	return 0;
}

/* the text that stands for the streamed array in the serialized root */
#define ROWS_MARK "\\u0001cxltier-rows\\u0001"

/* the array at KEY streamed: the document around it, then each record as
 * it is made */
static int print_json_rows(json_object *root, const char *key, size_t n, out_row_fn row, void *ctx,
			   char *err, size_t errlen)
{
	const char *doc, *mark, *line, *rest;
	int ind;

	json_object_object_add(root, key, json_object_new_string("\001cxltier-rows\001"));
	doc = json_object_to_json_string_ext(root, JSON_FLAGS);
	mark = strstr(doc, "\"" ROWS_MARK "\"");
	if (!mark) {
		snprintf(err, errlen, "internal error: the array '%s' has no place in the document", key);
		return -EINVAL;
	}
	for (line = mark; line > doc && line[-1] != '\n'; line--)
		;
	ind = (int)strspn(line, " ");
	put_json_text(stdout, doc, (size_t)(mark - doc), 0);
	fputs(n ? "[\n" : "[", stdout);
	for (size_t i = 0; i < n; i++) {
		json_object *rec = row(ctx, i);
		const char *text = json_object_to_json_string_ext(rec, JSON_FLAGS);

		if (i)
			fputs(",\n", stdout);
		printf("%*s", ind + 2, "");
		put_json_text(stdout, text, strlen(text), ind + 2);
		json_object_put(rec);
	}
	if (n)
		printf("\n%*s", ind, "");
	fputc(']', stdout);
	rest = mark + strlen("\"" ROWS_MARK "\"");
	put_json_text(stdout, rest, strlen(rest), 0);
	fputc('\n', stdout);
	json_object_object_add(root, key, json_object_new_array());
	return 0;
}

/* A table of more rows than this is printed in parts of this many, each
 * with the whole table's column widths, so that its lines are not all held
 * at once (a line costs about 560 bytes: a dry run over a 16 TiB region of
 * 128 MiB blocks). CXLTIER_TABLE_PART sets it, for the test that holds the
 * parts to the bytes of the whole (test/cli/scale.bats). */
#define TABLE_PART 1024

static size_t table_part(void)
{
	const char *s = getenv("CXLTIER_TABLE_PART");
	char *end;
	unsigned long v;

	if (!s || !*s)
		return TABLE_PART;
	v = strtoul(s, &end, 10);
	return *end || v == 0 ? TABLE_PART : v;
}

/* the columns as wide as libsmartcols would make them for the whole
 * table: the widest cell or heading (a cell's width as its terminal shows
 * it) */
static size_t text_width(const char *s)
{
	size_t n = mbstowcs(NULL, s, 0);
	wchar_t w[1024];
	int cols;

	if (n == (size_t)-1 || n >= sizeof(w) / sizeof(w[0]))
		return strlen(s);
	mbstowcs(w, s, n + 1);
	cols = wcswidth(w, n);
	return cols < 0 ? strlen(s) : (size_t)cols;
}

static void column_widths(const struct out_opts *o, const struct out_table *t, const struct out_column **sel,
			  size_t nsel, size_t n, out_row_fn row, void *ctx, size_t *width)
{
	char buf[1024];

	for (size_t c = 0; c < nsel; c++)
		width[c] = o->noheadings ? 0 : text_width(sel[c]->name);
	for (size_t i = 0; i < n; i++) {
		json_object *rec = row(ctx, i);
		for (size_t c = 0; c < nsel; c++) {
			size_t w;
			format_cell(t, sel[c], rec, 0, o->bytes, buf, sizeof(buf));
			if ((w = text_width(buf)) > width[c])
				width[c] = w;
		}
		json_object_put(rec);
	}
}

/* rows [start, end) as one table; a part of a longer table (whole: the
 * widths of all its rows) printed without its heading after the first */
static int print_part(const struct out_opts *o, struct fill *f, size_t start, size_t end, const size_t *whole,
		      out_row_fn row, void *ctx)
{
	char *text = NULL, *from;

	if (!(f->tb = new_table(o, f->t, f->sel, f->nsel, false)))
		return -ENOMEM;
	for (size_t i = start; i < end; i++) {
		json_object *one = json_object_new_array();

		json_object_array_add(one, row(ctx, i));
		add_lines(f, NULL, one, 0);
		json_object_put(one);
	}
	keep_widths(f->tb, f->sel, f->nsel, whole ? whole : f->width, whole != NULL);
	if (!whole) {
		scols_print_table(f->tb);
	} else if (scols_print_table_to_string(f->tb, &text) == 0 && text) {
		/* every part with its heading, so that its columns are as
		 * wide as the whole table's (libsmartcols 2.41 makes a column
		 * empty in a part without one narrower); the heading shown once */
		from = text;
		if (start > 0 && !o->noheadings && !o->pairs && (from = strchr(text, '\n')))
			from++;
		fputs(from ? from : "", stdout);
		if (*text && text[strlen(text) - 1] != '\n')
			fputc('\n', stdout);
		free(text);
	}
	scols_unref_table(f->tb);
	return 0;
}

int out_print_rows(const struct out_opts *o, const struct out_table *t, json_object *root, const char *key,
		   size_t n, out_row_fn row, void *ctx, char *err, size_t errlen)
{
	const struct out_column *sel[64];
	struct fill f = { .t = t, .sel = sel, .bytes = o->bytes };
	size_t part = table_part(), width[64];
	int rc;

	if (o->json)
		return print_json_rows(root, key, n, row, ctx, err, errlen);
	if (t->levels[1] || strcmp(t->levels[0], key)) {	/* a tree: as out_print, whole */
		json_object *arr = json_object_object_get(root, key);
		for (size_t i = 0; arr && i < n; i++)
			json_object_array_add(arr, row(ctx, i));
		return out_print(o, t, root, err, errlen);
	}
	if ((rc = resolve_columns(o, t, sel, &f.nsel, err, errlen)))
		return rc;
	if (n > part)
		column_widths(o, t, sel, f.nsel, n, row, ctx, width);
	for (size_t start = 0; start < n; start += part)
		if (print_part(o, &f, start, start + part < n ? start + part : n, n > part ? width : NULL, row, ctx)) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
	return 0;
}

void out_json_line(json_object *obj)
{
	printf("%s\n", json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	fflush(stdout);
}

void out_columns_help(const struct out_table *t)
{
	printf("\nAvailable output columns (-o):\n");
	for (size_t i = 0; i < t->ncolumns; i++)
		printf(" %14s  %s\n", t->columns[i].name, t->columns[i].help);
}
