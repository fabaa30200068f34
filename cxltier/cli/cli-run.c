// SPDX-License-Identifier: GPL-2.0-only
/* cli-run.c - the harness every command runs in (cli-run.h) */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli-help.h"
#include "cli/cli-run.h"
#include "cli/filter.h"
#include "cli/option-values.h"
#include "core/context.h"

#define MAX_OPTS 64		/* a command's own options, at most */
#define ID_BASE 0x4000		/* getopt's value of an option without a letter */
#define ID_LIST_OPTS 0x3002
#define ID_LIST_COMPLETION 0x3003
#define ID_COMMON 0x3100	/* + its index: a common option without a letter here */

/* one parse: the command, its arguments, which of its options were given */
struct parse {
	const struct cli_command *c;
	const char *parent;		/* "region" for region create, or NULL */
	struct cmd_env *env;
	void *args;
	size_t nopts;
	bool given[MAX_OPTS];
	struct option longopts[MAX_OPTS + 16];
	char shortopts[2 * MAX_OPTS + 16];
};

static size_t count_opts(const struct cli_opt *o)
{
	size_t n = 0;

	while (o && o[n].name)
		n++;
	return n;
}

int cli_check_table(const struct cli_command *c)
{
	const struct cli_opt *o = c->opts;
	size_t n = count_opts(o);

	if (n > MAX_OPTS) {
		fprintf(stderr, "cxltier %s: internal error: %zu options, the harness takes %d\n", c->name, n, MAX_OPTS);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		for (const struct cli_common_opt *k = cli_common_opts; k->name; k++)
			if (!k->yields && (!strcmp(o[i].name, k->name) || (o[i].key && o[i].key == k->key))) {
				fprintf(stderr, "cxltier %s: internal error: --%s takes a common option's name or letter\n",
					c->name, o[i].name);
				return -1;
			}
		for (size_t j = i + 1; j < n; j++)
			if (!strcmp(o[i].name, o[j].name) || (o[i].key && o[i].key == o[j].key)) {
				fprintf(stderr, "cxltier %s: internal error: --%s and --%s share a name or letter\n", c->name,
					o[i].name, o[j].name);
				return -1;
			}
	}
	return 0;
}

static int opt_id(const struct cli_opt *o, size_t i)
{
	return o->key ? o->key : ID_BASE + (int)i;
}

/* getopt's tables: the command's options, then the common ones */
static void build(struct parse *p)
{
	const struct cli_opt *o = p->c->opts;
	size_t k = 0, s = 0;

	if (p->c->flags & CLI_OPERANDS_END)
		p->shortopts[s++] = '+';	/* the first operand ends the options */
	p->shortopts[s++] = ':';	/* a missing argument is ':', not '?' */
	for (size_t i = 0; i < p->nopts; i++) {
		p->longopts[k++] = (struct option){ o[i].name, o[i].arg ? required_argument : no_argument, NULL,
						    opt_id(&o[i], i) };
		if (o[i].key) {
			p->shortopts[s++] = (char)o[i].key;
			if (o[i].arg)
				p->shortopts[s++] = ':';
		}
	}
	for (const struct cli_common_opt *c = cli_common_opts; c->name; c++) {
		int letter = cli_common_letter(p->c, c);
		if (letter < 0)
			continue;
		p->longopts[k++] = (struct option){ c->name, c->arg ? required_argument : no_argument, NULL,
						    letter ? letter : ID_COMMON + (int)(c - cli_common_opts) };
		if (letter) {
			p->shortopts[s++] = (char)letter;
			if (c->arg)
				p->shortopts[s++] = ':';
		}
	}
	p->longopts[k++] = (struct option){ "list-opts", no_argument, NULL, ID_LIST_OPTS };
	p->longopts[k++] = (struct option){ "list-completion", no_argument, NULL, ID_LIST_COMPLETION };
	p->longopts[k] = (struct option){ NULL, 0, NULL, 0 };
	p->shortopts[s] = '\0';
}

static const char *default_hint(const struct cli_opt *o, char *buf, size_t len)
{
	switch (o->store) {
	case CLI_SECONDS:
		snprintf(buf, len, "give whole seconds up to %ld: a number (seconds) or a span such as 30s, 5min, 1h",
			 o->max);
		break;
	case CLI_SIZE:
		snprintf(buf, len, "give a size: bytes, or 512M, 1.5G, 1GiB (powers of 1024), 1GB (of 1000)");
		break;
	case CLI_CHOICE: {
		size_t off = snprintf(buf, len, "give ");
		const char *w = o->words;
		while (*w && off < len) {
			size_t n = strcspn(w, " ");
			const char *next = w + n + strspn(w + n, " ");
			off += snprintf(buf + off, len - off, "%s%.*s", w == o->words ? "" : *next ? ", " : " or ",
					(int)n, w);
			w = next;
		}
		break;
	}
	default:
		snprintf(buf, len, "give a number");
	}
	return buf;
}

/* the value of option o into the arguments; an exit code */
static int store(struct parse *p, const struct cli_opt *o, const char *arg)
{
	char *at = (char *)p->args + o->offset, hint[128];
	int rc = 0, i;

	if (o->parse && o->store != CLI_PARSE && (rc = o->parse(p->env, p->args, arg)))
		return rc;	/* the command's own check said why */
	switch (o->store) {
	case CLI_FLAG: *(bool *)at = true; return EXIT_OK;
	case CLI_COUNT: (*(int *)at)++; return EXIT_OK;
	case CLI_STRING: *(const char **)at = arg; return EXIT_OK;
	case CLI_SET: *(int *)at = (int)o->max; return EXIT_OK;
	case CLI_LIST:
	case CLI_APPEND:
		if ((o->store == CLI_LIST ? filter_add : filter_add_name)((struct name_filter *)at, arg)) {
			cmd_err(p->env, "out of memory");
			return EXIT_FAIL;
		}
		return EXIT_OK;
	case CLI_UINT: rc = value_uint(arg, o->max, (unsigned *)at); break;
	case CLI_SECONDS: rc = value_seconds(arg, o->max, (unsigned *)at); break;
	case CLI_SIZE: rc = value_size(arg, (uint64_t *)at); break;
	case CLI_CHOICE:
		if ((i = value_choice(arg, o->words)) >= 0)
			*(int *)at = i;
		rc = i < 0 ? i : 0;
		break;
	case CLI_PARSE:
		return o->parse(p->env, p->args, arg);
	}
	if (!rc)
		return EXIT_OK;
	cmd_err(p->env, "--%s %s: %s", o->name, arg, o->bad ? o->bad : default_hint(o, hint, sizeof(hint)));
	return EXIT_USAGE;
}

/* the long options word begins (len: its length before any '='), in
 * names; the one named exactly first, alone */
static size_t matches(const struct parse *p, const char *word, size_t len, const char **names)
{
	size_t n = 0;

	for (const struct option *o = p->longopts; o->name; o++) {
		if (strlen(o->name) == len && !strncmp(o->name, word, len)) {
			names[0] = o->name;
			return 1;
		}
		if (!strncmp(o->name, word, len))
			names[n++] = o->name;
	}
	return n;
}

/* an option getopt refused, in getopt's words: an argument given to one
 * that takes none, a prefix of several, or an unknown one (the close one
 * suggested, never the one given) */
static int unknown(struct parse *p, int argc, char **argv)
{
	const char *names[MAX_OPTS + 16], *bad = optind > 0 && optind <= argc ? argv[optind - 1] : "?", *s;
	const char *word = bad + strspn(bad, "-");
	size_t n = 0, len = strcspn(word, "="), k;
	char w[64], list[512];

	if (optopt && optopt < 0x100 && (bad[0] != '-' || bad[1] != '-')) {
		cmd_err(p->env, "unknown option '-%c' (see 'cxltier %s --help')", optopt, p->env->cmd);
		return EXIT_USAGE;
	}
	k = len ? matches(p, word, len, names) : 0;
	if (k == 1 && word[len] == '=') {
		cmd_err(p->env, "option '--%s' doesn't allow an argument", names[0]);
		return EXIT_USAGE;
	}
	if (k > 1) {
		size_t off = 0;
		for (size_t i = 0; i < k && off < sizeof(list); i++)
			off += snprintf(list + off, sizeof(list) - off, " '--%s'", names[i]);
		cmd_err(p->env, "option '--%.*s' is ambiguous; possibilities:%s", (int)len, word, list);
		return EXIT_USAGE;
	}
	for (const struct option *o = p->longopts; o->name; o++)
		names[n++] = o->name;
	snprintf(w, sizeof(w), "%.*s", (int)len, word);
	if ((s = cmd_suggest(w, names, n)) && strcmp(s, w))
		cmd_err(p->env, "unknown option '%s'; did you mean '--%s'?", bad, s);
	else
		cmd_err(p->env, "unknown option '%s' (see 'cxltier %s --help')", bad, p->env->cmd);
	return EXIT_USAGE;
}

/* the common option getopt's value c stands for in command cmd, or NULL */
static const struct cli_common_opt *common_of(const struct cli_command *cmd, int c)
{
	for (const struct cli_common_opt *k = cli_common_opts; k->name; k++) {
		int letter = cli_common_letter(cmd, k);
		if (letter >= 0 && c == (letter ? letter : ID_COMMON + (int)(k - cli_common_opts)))
			return k;
	}
	return NULL;
}

/* a common option, or the end of the run: 0, or CMD_DONE(code) */
static int common(struct parse *p, int c)
{
	struct cmd_env *env = p->env;
	const struct cli_common_opt *k = common_of(p->c, c);

	if (c == ID_LIST_OPTS) {
		cli_list_opts(stdout, p->c);
		return CMD_DONE(EXIT_OK);
	}
	if (c == ID_LIST_COMPLETION) {
		cli_list_completion(stdout, p->c);
		return CMD_DONE(EXIT_OK);
	}
	if (!k)
		return 1;
	env->given |= k->given;
	switch (k->given) {
	case 0: break;
	case CLI_GIVEN_JSON: env->out.json = true; return 0;
	case CLI_GIVEN_COLUMNS: env->out.columns = optarg; return 0;
	case CLI_GIVEN_OUTPUT_ALL: env->out.all = true; return 0;
	case CLI_GIVEN_NOHEADINGS: env->out.noheadings = true; return 0;
	case CLI_GIVEN_RAW: env->out.raw = true; return 0;
	case CLI_GIVEN_PAIRS: env->out.pairs = true; return 0;
	case CLI_GIVEN_LIST: env->out.list = true; return 0;
	case CLI_GIVEN_BYTES: env->out.bytes = true; return 0;
	case CLI_GIVEN_SYSROOT: env->sysroot = optarg; return 0;
	}
	if (k->key == 'h') {
		cli_help(stdout, p->c, p->parent);
		return CMD_DONE(EXIT_OK);
	}
	env->verbose++;		/* -v */
	return 0;
}

/* every option of the command line; an exit code, CMD_DONE(code) when the
 * run ends here (help) */
static int parse_options(struct parse *p, int argc, char **argv)
{
	int c, rc;

	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, p->shortopts, p->longopts, NULL)) != -1) {
		if (c == '?')
			return unknown(p, argc, argv);
		if (c == ':') {	/* "-jm": the letter, not the word */
			const char *w = argv[optind - 1];
			if (w[1] != '-' && optopt > 0 && optopt < 0x100)
				cmd_err(p->env, "option '-%c' requires an argument", optopt);
			else
				cmd_err(p->env, "option '%s' requires an argument", w);
			return EXIT_USAGE;
		}
		if ((rc = common(p, c)) != 1) {
			if (rc)
				return rc;
			continue;
		}
		for (size_t i = 0; i < p->nopts; i++)
			if (opt_id(&p->c->opts[i], i) == c) {
				p->given[i] = true;
				if ((rc = store(p, &p->c->opts[i], optarg)))
					return rc;
			}
	}
	return EXIT_OK;
}

/* the given option (the command's own or a common one) named by name's
 * first len characters: its long name, or NULL */
static const char *given_by_name(const struct parse *p, const char *name, size_t len)
{
	/* -j before the command (cxltier -j list) is the common -j too */
	unsigned given = p->env->given | (p->env->out.json ? CLI_GIVEN_JSON : 0);

	for (size_t i = 0; i < p->nopts; i++)
		if (p->given[i] && strlen(p->c->opts[i].name) == len && !strncmp(p->c->opts[i].name, name, len))
			return p->c->opts[i].name;
	for (const struct cli_common_opt *k = cli_common_opts; k->name; k++)
		if (k->given & given && strlen(k->name) == len && !strncmp(k->name, name, len))
			return k->name;
	return NULL;
}

/* an option given with one its table says it does not go with: an exit code */
static int check_conflicts(const struct parse *p, const struct cli_opt *o)
{
	for (const char *w = o->conflicts; w && *w;) {
		size_t n = strcspn(w, ",");
		const char *other = given_by_name(p, w, n);
		if (other) {
			if (o->conflict_msg)
				cmd_err(p->env, "%s", o->conflict_msg);
			else
				cmd_err(p->env, "--%s: not with --%s", o->name, other);
			return EXIT_USAGE;
		}
		w += n;
		w += *w == ',';
	}
	return EXIT_OK;
}

/* what the table says of the options given: conflicts, the live system;
 * and -o, which chooses a table's columns, not with -j (the JSON has every
 * key, whatever the options: a script picks with jq) */
static int check_rules(const struct parse *p)
{
	const struct cli_command *c = p->c;
	const struct cmd_env *env = p->env;

	for (size_t i = 0; i < p->nopts; i++) {
		const struct cli_opt *o = &c->opts[i];
		if (!p->given[i])
			continue;
		if (o->flags & CLI_LIVE && env->sysroot) {
			cmd_err(env, "--%s works on the live system only (not with --sysroot)", o->name);
			return EXIT_USAGE;
		}
		if (check_conflicts(p, o))
			return EXIT_USAGE;
	}
	if (c->flags & CLI_LIVE_ONLY && env->sysroot) {
		cmd_err(env, "%s works on the live system only (not with --sysroot)", c->name);
		return EXIT_USAGE;
	}
	if (c->flags & CLI_NO_OUTPUT && env->given & CLI_GIVEN_SHOWN) {
		cmd_err(env, "%s prints no table or JSON: -j, -o, -n, -r, -P, -l and -b do not apply", c->name);
		return EXIT_USAGE;
	}
	if (env->out.json && env->given & CLI_GIVEN_COLUMNS) {
		cmd_err(env, "-o %s chooses a table's columns: not with -j (the JSON has every key: pick them with jq)",
			env->out.columns);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int check_operands(const struct parse *p, int n, char **operands)
{
	const struct cli_command *c = p->c;

	if (n < c->min_operands) {
		if (c->missing)
			cmd_err(p->env, "%s", c->missing);
		else
			cmd_err(p->env, "give %s (see 'cxltier %s --help')", c->operands ? c->operands : "an operand",
				p->env->cmd);
		return EXIT_USAGE;
	}
	if (c->max_operands >= 0 && n > c->max_operands) {
		char text[512];
		snprintf(text, sizeof(text), c->surplus ? c->surplus : "unexpected argument '%s'",
			 operands[c->max_operands]);
		cmd_err(p->env, "%s", text);
		return EXIT_USAGE;
	}
	if (c->flags & CLI_CHECK_COLUMNS && c->tables && c->tables[0]) {
		char err[256];
		if (out_check_columns(&p->env->out, c->tables[0], err, sizeof(err))) {
			cmd_err(p->env, "%s", err);
			return EXIT_USAGE;
		}
	}
	return EXIT_OK;
}

/* the lists the command line filled */
static void free_values(struct parse *p)
{
	for (size_t i = 0; p->args && i < p->nopts; i++)
		if (p->c->opts[i].store == CLI_LIST || p->c->opts[i].store == CLI_APPEND)
			filter_free((struct name_filter *)((char *)p->args + p->c->opts[i].offset));
	free(p->args);
}

static int run_table(const struct cli_command *c, const char *parent, int argc, char **argv, struct cmd_env *env);

/* the subcommand argv[1] names, or NULL */
static const struct cli_command *subcommand(const struct cli_command *c, int argc, char **argv)
{
	for (const struct cli_command *const *s = c->subcommands; argc > 1 && *s; s++)
		if (!strcmp(argv[1], (*s)->name))
			return *s;
	return NULL;
}

/* a command that is its subcommands alone, given none of them */
static int no_subcommand(const struct cli_command *c, int argc, char **argv, struct cmd_env *env)
{
	const char *sub = argc > 1 ? argv[1] : "";

	if (!strcmp(sub, "-h") || !strcmp(sub, "--help")) {
		cli_help(stdout, c, NULL);
		return EXIT_OK;
	}
	if (!strcmp(sub, "--list-opts")) {
		cli_list_opts(stdout, c);
		return EXIT_OK;
	}
	if (!strcmp(sub, "--list-completion")) {
		cli_list_completion(stdout, c);
		return EXIT_OK;
	}
	cmd_err(env, "%s%s%s: say %s (see 'cxltier %s --help')", sub[0] ? "unknown subcommand '" : "a subcommand is needed",
		sub[0] ? sub : "", sub[0] ? "'" : "", c->operands ? c->operands : "a subcommand", c->name);
	return EXIT_USAGE;
}

/* c's command line parsed, checked, run */
static int run_table(const struct cli_command *c, const char *parent, int argc, char **argv, struct cmd_env *env)
{
	struct parse p = { .c = c, .parent = parent, .env = env, .nopts = count_opts(c->opts) };
	int rc;

	env->cmd = parent ? parent : c->name;	/* messages name the command: "cxltier region: ..." */
	env->command = c;
	if (c->subcommands) {
		const struct cli_command *s = subcommand(c, argc, argv);
		if (s)
			return run_table(s, c->name, argc - 1, argv + 1, env);
		if (!c->run)
			return no_subcommand(c, argc, argv, env);
	}
	if (c->legacy) {
		optind = 0;
		return c->legacy(argc, argv, env);
	}
	if (cli_check_table(c))
		return EXIT_SOFTWARE;
	build(&p);
	env->opts = p.longopts;
	if (!(p.args = calloc(1, c->args_size ? c->args_size : 1))) {
		cmd_err(env, "out of memory");
		return EXIT_FAIL;
	}
	if (c->args_init)
		memcpy(p.args, c->args_init, c->args_size);
	rc = parse_options(&p, argc, argv);
	if (!rc)
		rc = check_rules(&p);
	if (!rc)
		rc = check_operands(&p, argc - optind, argv + optind);
	if (!rc && !(c->flags & CLI_NO_CONTEXT))
		rc = cmd_context(env);
	if (!rc)
		rc = c->run(env, p.args, argc - optind, argv + optind);
	else if (c->failure && cmd_exit_code(rc) != EXIT_OK)
		rc = c->failure;
	free_values(&p);
	env->opts = NULL;
	return cmd_exit_code(rc);
}

int cli_run(const struct cli_command *c, int argc, char **argv, struct cmd_env *env)
{
	return run_table(c, NULL, argc, argv, env);
}

int cli_close_stdout(int rc)
{
	bool failed = ferror(stdout);
	int e = 0;

	errno = 0;
	if (fclose(stdout))
		e = errno;
	else if (failed)
		e = 0;	/* an earlier write failed: its reason is gone */
	else
		return rc;
	if (e == EPIPE)	/* the reader left (| head): not ours to say */
		return rc;
	if (e)
		fprintf(stderr, "cxltier: write error: %s\n", strerror(e));
	else
		fprintf(stderr, "cxltier: write error\n");
	return rc ? rc : EXIT_FAIL;
}
