/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * say.h - what a job of the library has to tell while it runs (a warning,
 * a step done, a failure of one object among several) goes to its
 * caller's sink, never to a stream: the library prints nothing. The kind
 * is CT_SAY_ERROR, CT_SAY_WARNING, or a verbosity from 0 (always said) up
 * (1: -v, 2: -vv); the sink decides how, and whether, it is shown. A
 * context without a sink says nothing.
 */
#ifndef CXLTIER_SAY_H
#define CXLTIER_SAY_H

#define CT_SAY_ERROR	(-2)
#define CT_SAY_WARNING	(-1)
#define CT_SAY_MAX	1024	/* a message's length, at most (longer ones are cut) */

struct ct_say {
	/* text: one line, no newline */
	void (*fn)(void *arg, int kind, const char *text);
	void *arg;
};

void ct_say(const struct ct_say *s, int kind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
