// SPDX-License-Identifier: GPL-2.0-only
/* progress.c - long work shown as it goes (progress.h) */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cli/progress.h"
#include "core/context.h"
#include "mm/memblock.h"

#define REDRAW_MS 100	/* ten times a second at most */

static long ms_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t->tv_sec) * 1000L + (now.tv_nsec - t->tv_nsec) / 1000000L;
}

static void erase(struct progress *p)
{
	if (!p->shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	p->shown = false;
}

/* the context's sink while the line may be up: a message that is shown
 * erases the line first (a step draws it again below, when its time has
 * come) */
static void say_over(void *arg, int kind, const char *text)
{
	struct progress *p = arg;

	if (kind < 0 || kind <= p->env->verbose)
		erase(p);
	if (p->saved.fn)
		p->saved.fn(p->saved.arg, kind, text);
}

void progress_begin(struct progress *p, struct cmd_env *env, const char *what)
{
	*p = (struct progress){ .env = env, .what = what, .tty = isatty(STDERR_FILENO) == 1 };
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	if (env->ctx) {
		p->saved = env->ctx->say;
		env->ctx->say = (struct ct_say){ say_over, p };
	}
}

void progress_step(struct progress *p, const char *unit, size_t done, size_t total, uint64_t bytes,
		   uint64_t bytes_total)
{
	char line[256], sz[32], all[32], rate[32] = "";
	long ms;
	int n;

	if (!p->tty || (p->ever && ms_since(&p->drawn) < REDRAW_MS))
		return;
	ms = ms_since(&p->start);
	n = snprintf(line, sizeof(line), "%s: %zu/%zu %s", p->what, done, total, unit);
	if (bytes_total)
		n += snprintf(line + n, sizeof(line) - (size_t)n, ", %s of %s", out_human_size(bytes, sz, sizeof(sz)),
			      out_human_size(bytes_total, all, sizeof(all)));
	if (bytes && ms > 0)
		snprintf(rate, sizeof(rate), ", %s/s", out_human_size(bytes * 1000 / (unsigned long long)ms, sz,
								       sizeof(sz)));
	snprintf(line + n, sizeof(line) - (size_t)n, "%s, %ld:%02ld", rate, ms / 60000, ms / 1000 % 60);
	/* drawn with the terminal's wrap off (DECAWM), so that a line wider
	 * than the terminal is cut there and not wrapped: a wrapped line
	 * cannot be erased with \r */
	fprintf(stderr, "\r\033[?7l%s\033[K\033[?7h", line);
	fflush(stderr);
	p->shown = p->ever = true;
	clock_gettime(CLOCK_MONOTONIC, &p->drawn);
}

/* a block's zone as the kernel's state files write it ("movable"), or "" */
static const char *zone_word(const struct ct_block *b, char *z, size_t len)
{
	const char *name = b->state == CT_BLOCK_ONLINE && b->nzones ? ct_zone_name(b->zones[0]) : "";
	size_t i;

	for (i = 0; name[i] && i + 2 < len; i++)
		z[i + 1] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] - 'A' + 'a' : name[i]);
	z[0] = i ? ' ' : '\0';
	z[i ? i + 1 : 0] = '\0';
	return z;
}

/* what became of a block, as chmem -v says it */
static void block_outcome(const struct ct_block_op *op, bool rollback, char *buf, size_t len)
{
	const char *note = ct_blocks_note_of(op);
	char z[24];

	if (rollback && op->result == CT_RES_ROLLED_BACK)
		snprintf(buf, len, "rolled back: %s%s", ct_block_state_name(op->after.state), zone_word(&op->after, z, sizeof(z)));
	else if (op->result == CT_RES_DONE)
		snprintf(buf, len, "%s%s", op->after.state == CT_BLOCK_ONLINE ? "onlined" : "offlined",
			 zone_word(&op->after, z, sizeof(z)));
	else if (op->result == CT_RES_UNCHANGED && !note[0])
		snprintf(buf, len, "already %s%s", ct_block_state_name(op->before.state), zone_word(&op->before, z, sizeof(z)));
	else
		snprintf(buf, len, "%s%s%s", op->result == CT_RES_UNCHANGED ? "unchanged" : ct_blocks_result_name(op->result),
			 note[0] ? ": " : "", note);
}

/* a block told by the job: said with -v, counted into the line */
static void on_block(void *arg, const struct ct_block_op *op, size_t done, size_t total, bool rollback)
{
	struct progress *p = arg;
	char what[CT_SAY_MAX - 64];
	uint64_t bs = p->block_size, id = op->before.id;

	if (!bs && !ct_block_size_cached(p->env->ctx, &bs))
		p->block_size = bs;
	else if (!bs)	/* unread: the lines a block go without their range */
		ct_error_clear(&p->env->ctx->err);
	if (p->env->verbose >= 1) {
		block_outcome(op, rollback, what, sizeof(what));
		if (bs)
			ct_say(&p->env->ctx->say, 1, "memory block %llu (0x%llx-0x%llx) %s", (unsigned long long)id,
			       (unsigned long long)(id * bs), (unsigned long long)((id + 1) * bs - 1), what);
		else
			ct_say(&p->env->ctx->say, 1, "memory block %llu %s", (unsigned long long)id, what);
	}
	progress_step(p, rollback ? "blocks rolled back" : "blocks", done, total, done * bs, total * bs);
}

/* a step of a region create or destroy told by the job: said with -v,
 * counted into the line */
static void on_step(void *arg, const char *what, size_t done, size_t total)
{
	struct progress *p = arg;

	if (p->env->verbose >= 1)
		ct_say(&p->env->ctx->say, 1, "step %zu/%zu: %s", done, total, what);
	progress_step(p, "steps", done, total, 0, 0);
}

struct ct_job_progress progress_tell(struct progress *p)
{
	return (struct ct_job_progress){ on_block, on_step, p };
}

void progress_process(void *arg, size_t reached, size_t n)
{
	progress_step(arg, "processes", reached, n, 0, 0);
}

void progress_end(struct progress *p)
{
	erase(p);
	if (p->env && p->env->ctx && p->env->ctx->say.arg == p)
		p->env->ctx->say = p->saved;
}
