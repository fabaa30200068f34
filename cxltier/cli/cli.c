// SPDX-License-Identifier: GPL-2.0-only
/* cli.c - messages, the library's sink, the context and the close-word
 * suggestion every command shares (cli.h) */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "core/context.h"
#include "core/say.h"

/* one line, written at once: a run of `cxltier hotplug` shares its stderr
 * (the journal's stream), and a line written in pieces could be cut by
 * the other's */
static void vmsg(const struct cmd_env *env, const char *kind, const char *fmt, va_list ap)
{
	char text[3072];

	vsnprintf(text, sizeof(text), fmt, ap);
	fprintf(stderr, "cxltier %s: %s%s\n", env->cmd ? env->cmd : "", kind, text);
}

void cmd_err(const struct cmd_env *env, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(env, "error: ", fmt, ap);
	va_end(ap);
}

void cmd_warn(const struct cmd_env *env, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(env, "warning: ", fmt, ap);
	va_end(ap);
}

void cmd_info(const struct cmd_env *env, int level, const char *fmt, ...)
{
	va_list ap;

	if (env->verbose < level)
		return;
	va_start(ap, fmt);
	vmsg(env, "", fmt, ap);
	va_end(ap);
}

static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), prev[64], cur[64];

	if (la >= 63 || lb >= 63)
		return 99;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
			cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
		memcpy(prev, cur, (lb + 1) * sizeof(size_t));
	}
	return prev[lb];
}

const char *cmd_suggest(const char *word, const char *const *cands, size_t n)
{
	const char *best = NULL;
	size_t bestd = 3;	/* at most two edits away, or a prefix */

	for (size_t i = 0; i < n; i++) {
		size_t d = distance(word, cands[i]);
		if (strlen(word) >= 2 && strncmp(cands[i], word, strlen(word)) == 0)
			d = 1;
		if (d < bestd) {
			bestd = d;
			best = cands[i];
		}
	}
	return best;
}

static void unknown_option(const struct cmd_env *env, const char *arg)
{
	const char *names[64];
	size_t n = 0;
	const char *word = arg;
	const char *s;

	while (*word == '-')
		word++;
	for (const struct option *o = env->opts; o && o->name && n < 64; o++)
		names[n++] = o->name;
	char w[64];
	snprintf(w, sizeof(w), "%.*s", (int)strcspn(word, "="), word);
	s = arg[1] == '-' ? cmd_suggest(w, names, n) : NULL;
	if (s)
		cmd_err(env, "unknown option '%s'; did you mean '--%s'?", arg, s);
	else
		cmd_err(env, "unknown option '%s' (see 'cxltier %s --help')", arg, env->cmd);
}

int cmd_common_opt(struct cmd_env *env, int c, const char *arg, int argc, char **argv,
		   void (*usage)(void))
{
	switch (c) {
	case 'h':
		usage();
		return CMD_DONE(EXIT_OK);
	case 'v':
		env->verbose++;
		return 0;
	case 'j':
		env->out.json = true;
		return 0;
	case 'o':
		env->out.columns = arg;
		return 0;
	case 'n':
		env->out.noheadings = true;
		return 0;
	case 'b':
		env->out.bytes = true;
		return 0;
	case OPT_SYSROOT:
		env->sysroot = arg;
		return 0;
	case OPT_LIST_OPTS:
		for (const struct option *o = env->opts; o && o->name; o++)
			if (strcmp(o->name, "list-opts"))
				printf("--%s%s\n", o->name, o->has_arg == required_argument ? "=" : "");
		return CMD_DONE(EXIT_OK);
	case '?': {
		/* getopt leaves the offending word just before optind */
		const char *bad = optind > 0 && optind <= argc ? argv[optind - 1] : "?";
		if (optopt && optopt < 0x100 && (bad[0] != '-' || bad[1] != '-')) {
			char s[3] = { '-', (char)optopt, 0 };
			cmd_err(env, "unknown option or missing argument '%s' (see 'cxltier %s --help')", s, env->cmd);
		} else
			unknown_option(env, bad);
		return CMD_DONE(EXIT_USAGE);
	}
	case ':':
		cmd_err(env, "option '%s' needs an argument", argv[optind - 1]);
		return CMD_DONE(EXIT_USAGE);
	}
	return 1;
}

int cmd_exit_code(int r)
{
	return r & 0xff;
}

int cmd_fail(const struct cmd_env *env, int code)
{
	cmd_err(env, "%s", ct_context_message(env->ctx));
	return code;
}

/* the library's messages (core/say.h), as the command's own */
static void say_to_stderr(void *arg, int kind, const char *text)
{
	const struct cmd_env *env = arg;

	if (kind == CT_SAY_ERROR)
		cmd_err(env, "%s", text);
	else if (kind == CT_SAY_WARNING)
		cmd_warn(env, "%s", text);
	else
		cmd_info(env, kind, "%s", text);
}

int cmd_context(struct cmd_env *env)
{
	int rc = ct_context_new(&env->ctx, env->sysroot);

	if (rc) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		ct_context_free(env->ctx);
		env->ctx = NULL;
		return EXIT_FAIL;
	}
	env->ctx->say = (struct ct_say){ say_to_stderr, env };
	return EXIT_OK;
}
