// SPDX-License-Identifier: GPL-2.0-only
/* cli-help.c - --help, --list-opts and the completion's feed, from the
 * command table (cli-help.h) */
#include <stdio.h>
#include <string.h>
#include "cli/cli-help.h"

#define HELP_COLUMN 24	/* where an option's help starts */

const struct cli_common_opt cli_common_opts[] = {
	{ "help", 'h', NULL, CLI_C_NONE, 0, false },
	{ "verbose", 'v', NULL, CLI_C_NONE, 0, false },
	{ "json", 'j', NULL, CLI_C_NONE, CLI_GIVEN_JSON, false },
	{ "output", 'o', "COLS", CLI_C_COLUMNS, CLI_GIVEN_COLUMNS, false },
	{ "output-all", 0, NULL, CLI_C_NONE, CLI_GIVEN_OUTPUT_ALL, true },
	{ "noheadings", 'n', NULL, CLI_C_NONE, CLI_GIVEN_NOHEADINGS, false },
	{ "raw", 'r', NULL, CLI_C_NONE, CLI_GIVEN_RAW, true },
	{ "pairs", 'P', NULL, CLI_C_NONE, CLI_GIVEN_PAIRS, true },
	{ "list", 'l', NULL, CLI_C_NONE, CLI_GIVEN_LIST, true },
	{ "bytes", 'b', NULL, CLI_C_NONE, CLI_GIVEN_BYTES, false },
	{ "sysroot", 0, "DIR", CLI_C_DIR, CLI_GIVEN_SYSROOT, false },
	{ NULL, 0, NULL, CLI_C_NONE, 0, false },
};

int cli_common_letter(const struct cli_command *c, const struct cli_common_opt *k)
{
	for (const struct cli_opt *o = k->yields ? c->opts : NULL; o && o->name; o++)
		if (!strcmp(o->name, k->name))
			return -1;
	for (const struct cli_opt *o = k->yields ? c->opts : NULL; o && o->name; o++)
		if (k->key && o->key == k->key)
			return 0;
	return k->key;
}

const char *cli_complete_name(enum cli_complete k)
{
	static const char *const names[] = {
		[CLI_C_NONE] = "none", [CLI_C_MEMDEV] = "memdev", [CLI_C_REGION] = "region", [CLI_C_DAX] = "dax",
		[CLI_C_NODE] = "node", [CLI_C_DECODER] = "decoder", [CLI_C_PORT] = "port",
		[CLI_C_ENDPOINT] = "endpoint", [CLI_C_BUS] = "bus", [CLI_C_TARGET] = "target", [CLI_C_FILE] = "file",
		[CLI_C_DIR] = "dir", [CLI_C_COLUMNS] = "columns", [CLI_C_WORDS] = "words", [CLI_C_PID] = "pid",
		[CLI_C_COMM] = "comm", [CLI_C_CGROUP] = "cgroup", [CLI_C_TIER] = "tier", [CLI_C_COMMAND] = "command",
	};

	return (unsigned)k < sizeof(names) / sizeof(names[0]) && names[k] ? names[k] : "none";
}

/* text's lines, the first after what was printed (at column col), the
 * others at indent */
static void lines_at(FILE *f, const char *text, int col, int indent)
{
	for (const char *l = text; l && *l;) {
		size_t n = strcspn(l, "\n");
		fprintf(f, "%*s%.*s\n", l == text ? (col < indent ? indent - col : 1) : indent, "", (int)n, l);
		l += n;
		l += *l == '\n';
	}
}

static void option_line(FILE *f, const struct cli_opt *o)
{
	char head[96];
	int n;

	if (o->key)
		n = snprintf(head, sizeof(head), "  -%c, --%s%s%s", o->key, o->name, o->arg ? " " : "",
			     o->arg ? o->arg : "");
	else
		n = snprintf(head, sizeof(head), "      --%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
	fputs(head, f);
	if (n >= HELP_COLUMN - 1) {	/* too long to share the line */
		fputc('\n', f);
		n = 0;
	}
	lines_at(f, o->help ? o->help : "", n, HELP_COLUMN);
}

static void options(FILE *f, const struct cli_command *c)
{
	for (const struct cli_opt *o = c->opts; o && o->name; o++)
		if (!(o->flags & CLI_HIDDEN))
			option_line(f, o);
}

/* "usage: cxltier NAME LINE", the next lines under it */
static void synopsis(FILE *f, const char *full, const char *text, bool first)
{
	for (const char *l = text; l && *l;) {
		size_t n = strcspn(l, "\n");
		fprintf(f, "%s cxltier %s %.*s\n", first ? "usage:" : "      ", full, (int)n, l);
		first = false;
		l += n;
		l += *l == '\n';
	}
}

/* the common options the command takes, in a line: "-j, -o COLS, ...";
 * one whose letter the command's own option has by its long name */
static void common_line(FILE *f, const struct cli_command *c)
{
	int n = 0;

	fputs("  ", f);
	for (const struct cli_common_opt *k = cli_common_opts; k->name; k++) {
		int letter = cli_common_letter(c, k);
		if (letter < 0 || k->key == 'h' || (c->flags & CLI_NO_OUTPUT && k->given & CLI_GIVEN_SHOWN) ||
		    (c->flags & CLI_LIVE_ONLY && k->given == CLI_GIVEN_SYSROOT))
			continue;
		if (letter)
			fprintf(f, "%s-%c%s%s", n++ ? ", " : "", letter, k->arg ? " " : "", k->arg ? k->arg : "");
		else
			fprintf(f, "%s--%s%s%s", n++ ? ", " : "", k->name, k->arg ? " " : "", k->arg ? k->arg : "");
	}
	fputs("   as for every command (cxltier(1))\n", f);
}

void cli_help(FILE *f, const struct cli_command *c, const char *parent)
{
	char full[64];

	snprintf(full, sizeof(full), "%s%s%s", parent ? parent : "", parent ? " " : "", c->name);
	if (c->subcommands && !c->run) {
		bool first = true;
		for (const struct cli_command *const *s = c->subcommands; *s; s++, first = false) {
			char sub[96];
			snprintf(sub, sizeof(sub), "%s %s", full, (*s)->name);
			synopsis(f, sub, (*s)->synopsis, first);
		}
	} else {
		synopsis(f, full, c->synopsis, true);
	}
	if (c->about)
		fprintf(f, "\n%s\n", c->about);
	fputc('\n', f);
	options(f, c);
	for (const struct cli_command *const *s = c->subcommands; s && *s; s++) {
		fprintf(f, "%s:\n", (*s)->name);
		options(f, *s);
	}
	common_line(f, c);
	if (c->notes)
		fprintf(f, "%s\n", c->notes);
	if (c->exit_help)
		fprintf(f, "%s\n", c->exit_help);
	if (c->tables && c->tables[0])
		out_columns_help(c->tables[0]);
}

void cli_list_opts(FILE *f, const struct cli_command *c)
{
	if (c->subcommands && !c->run) {
		for (const struct cli_command *const *s = c->subcommands; *s; s++)
			fprintf(f, "%s\n", (*s)->name);
		return;
	}
	for (const struct cli_opt *o = c->opts; o && o->name; o++)
		if (!(o->flags & CLI_HIDDEN))
			fprintf(f, "--%s%s\n", o->name, o->arg ? "=" : "");
	for (const struct cli_common_opt *o = cli_common_opts; o->name; o++)
		if (cli_common_letter(c, o) >= 0)
			fprintf(f, "--%s%s\n", o->name, o->arg ? "=" : "");
}

/* the words a completion offers after o: its own, or the columns */
static void words_of(FILE *f, const struct cli_command *c, enum cli_complete k, const char *words)
{
	if (k == CLI_C_WORDS && words)
		fputs(words, f);
	if (k == CLI_C_COLUMNS && c->tables && c->tables[0])
		for (size_t i = 0; i < c->tables[0]->ncolumns; i++)
			fprintf(f, "%s%s", i ? " " : "", c->tables[0]->columns[i].name);
}

static void completion_line(FILE *f, const struct cli_command *c, const char *name, int key, bool arg,
			    enum cli_complete k, const char *words)
{
	for (int form = 0; form < 2; form++) {
		if (form == 0)
			fprintf(f, "--%s%s\t%s\t", name, arg ? "=" : "", cli_complete_name(arg ? k : CLI_C_NONE));
		else if (key)
			fprintf(f, "-%c%s\t%s\t", key, arg ? "=" : "", cli_complete_name(arg ? k : CLI_C_NONE));
		else
			continue;
		if (arg)
			words_of(f, c, k, words);
		fputc('\n', f);
	}
}

static void subcommands_line(FILE *f, const struct cli_command *c)
{
	fputs("@subcommands\twords\t", f);
	for (const struct cli_command *const *s = c->subcommands; *s; s++)
		fprintf(f, "%s%s", s == c->subcommands ? "" : " ", (*s)->name);
	fputc('\n', f);
}

void cli_list_completion(FILE *f, const struct cli_command *c)
{
	if (c->subcommands && !c->run) {
		subcommands_line(f, c);
		return;
	}
	for (const struct cli_opt *o = c->opts; o && o->name; o++)
		if (!(o->flags & CLI_HIDDEN))
			completion_line(f, c, o->name, o->key, o->arg != NULL, o->complete, o->words);
	for (const struct cli_common_opt *o = cli_common_opts; o->name; o++)
		if (cli_common_letter(c, o) >= 0)
			completion_line(f, c, o->name, cli_common_letter(c, o), o->arg != NULL, o->complete, NULL);
	fprintf(f, "@operands\t%s\t\n", cli_complete_name(c->operand_kind));
	if (c->subcommands)	/* its first word may name one instead */
		subcommands_line(f, c);
}

void cli_usage(FILE *f, const struct cli_command *const *cmds, size_t n)
{
	fprintf(f, "usage: cxltier [--version] [--help] [--list-cmds] [-v] [-j] [--sysroot DIR] COMMAND [ARGS]\n\n"
		   "Commands:\n");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "  %-10s %s\n", cmds[i]->name, cmds[i]->summary);
	fprintf(f, "\n'cxltier help COMMAND' or 'cxltier COMMAND --help' for more.\n"
		   "Exit codes: 0 ok, 1 failure, 2 usage, 64 partial success, 77 not supported.\n");
}

const struct cli_command *cli_find(const struct cli_command *const *cmds, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(cmds[i]->name, name))
			return cmds[i];
	return NULL;
}

int cli_unknown_command(const struct cli_command *const *cmds, size_t n, const char *name)
{
	const char *names[64], *s;
	size_t k;

	for (k = 0; k < n && k < 64; k++)
		names[k] = cmds[k]->name;
	s = cmd_suggest(name, names, k);
	fprintf(stderr, "cxltier: '%s' is not a cxltier command.%s%s%s See 'cxltier --help'.\n", name,
		s ? " Did you mean '" : "", s ? s : "", s ? "'?" : "");
	return EXIT_USAGE;
}
