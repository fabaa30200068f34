/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * output.h - the one output layer. A command builds its result as one json-c
 * object (top level: named arrays) and describes how that object is shown as
 * a table; this layer prints either the JSON or a libsmartcols table (a tree
 * when the result nests, drawn on the table's first column, its NAME,
 * wherever -o puts it) with -o column choice, --output-all, -n, -b, and the
 * forms for scripts: -r (raw), -P (KEY="value" pairs), -l (no tree).
 *
 * On a terminal a table fits its width as lsblk's do: the columns flagged
 * OUT_TRUNC give up their width (widest first from the right, down to
 * their width hint, a fraction of the terminal), the others keep the
 * width of their widest cell, so that a row stays one line.
 */
#ifndef CXLTIER_OUTPUT_H
#define CXLTIER_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <json-c/json.h>

enum out_type {
	OUT_STR,	/* string; arrays are joined with "," */
	OUT_SIZE,	/* bytes: human by default, raw with -b */
	OUT_NUM,	/* integer or float as is */
	OUT_HEX,	/* integer shown as 0x... */
	OUT_BOOL,	/* yes / no */
};

/* out_column.flags */
#define OUT_TRUNC	0x1	/* may be cut short on a narrow terminal (lists, free text) */
#define OUT_WRAP	0x2	/* a cell's lines (its text's newlines) one under another: a
				 * table of notes, not of objects, where a row may take lines */

struct out_column {
	const char *name;	/* heading and -o name */
	const char *key;	/* JSON key; "a.b" descends, "x|y" takes the first present,
				 * "@level" is the tree level's name */
	enum out_type type;
	double width;		/* libsmartcols width hint: an OUT_TRUNC column's
				 * narrowest, as a fraction of the terminal */
	int flags;		/* OUT_* */
	const char *help;
	/* for table cells computed from several keys (JSON is untouched) */
	void (*format)(json_object *rec, char *buf, size_t len);
};

struct out_table {
	const char *const *levels;	/* array keys ("a.b" descends), outermost first, NULL-ended */
	const char *const *level_names;	/* what "@level" shows at each level */
	const struct out_column *columns;
	size_t ncolumns;
	const char *defaults;		/* default -o list */
};

struct out_opts {
	bool json;
	bool noheadings;
	bool bytes;
	bool raw;		/* -r: unaligned, one space between cells, blanks escaped */
	bool pairs;		/* -P: NAME="value" pairs */
	bool list;		/* -l: the rows without the tree */
	bool all;		/* --output-all: every column */
	const char *columns;	/* -o: "A,B" replaces the defaults, "+A" adds */
};

/* the table as the command shows it by default (no -o, -n, -r, -P): where
 * the lines around it (settings, footnotes) belong; a table asked for in
 * another form is its rows only */
bool out_full_view(const struct out_opts *o);

/* 0, or -EINVAL with a message in err (an unknown column: a usage error) */
/* o's JSON as every cxltier command prints it (pretty; [] and {} for empty
 * ones, whatever json-c's version), and a newline; -1 out of memory */
int out_json_fprint(FILE *f, json_object *o);
int out_print(const struct out_opts *o, const struct out_table *t, json_object *root,
	      char *err, size_t errlen);
/* out_print for a document whose array at KEY (a key of root, an empty
 * array there for now) has N records made one at a time by ROW(ctx, i):
 * each printed (JSON) or put in the table, then freed, so that memory holds
 * one record's tree, not N. The same bytes as out_print of the whole. */
typedef json_object *(*out_row_fn)(void *ctx, size_t i);
int out_print_rows(const struct out_opts *o, const struct out_table *t, json_object *root, const char *key,
		   size_t n, out_row_fn row, void *ctx, char *err, size_t errlen);
/* would out_print accept -o? 0, or -EINVAL with the message out_print would
 * give: for a command that acts before it prints, checked first */
int out_check_columns(const struct out_opts *o, const struct out_table *t, char *err, size_t errlen);
/* the value at "a.b|c" in obj, or NULL */
json_object *out_lookup(json_object *obj, const char *key);
/* one JSON value as a compact line, flushed (event streams) */
void out_json_line(json_object *obj);
/* "COLUMN  description" lines for a command's --help */
void out_columns_help(const struct out_table *t);
/* human size, as util-linux prints them: 512, 4K, 1.5G */
char *out_human_size(unsigned long long bytes, char *buf, size_t len);

#endif
