// SPDX-License-Identifier: LGPL-2.1-or-later
/* crash-point.c - TEST-ONLY (meson -Dcrash_points=true; see crash-point.h):
 * count the kernel-changing writes of a run, log each, and SIGKILL the run
 * (or send it CXLTIER_CRASH_SIGNAL) at the one CXLTIER_CRASH_AT names. The only place lib/ ends its process,
 * and only in that build: it stands for a power cut or an OOM kill. */
#include "core/crash-point.h"

#if CXLTIER_CRASH_POINTS
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* CXLTIER_CRASH_SIGNAL: HUP, INT, QUIT or TERM instead of KILL (a signal
 * the run can catch: an ssh session dropped, a unit stopped); anything else
 * is KILL */
static int crash_signal(void)
{
	static const struct { const char *name; int sig; } known[] = {
		{ "HUP", SIGHUP }, { "INT", SIGINT }, { "QUIT", SIGQUIT }, { "TERM", SIGTERM },
	};
	const char *s = getenv("CXLTIER_CRASH_SIGNAL");

	for (size_t i = 0; s && i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(s, known[i].name))
			return known[i].sig;
	return SIGKILL;
}

void ct_crash_point(const char *fmt, ...)
{
	static unsigned long count;
	const char *at = getenv("CXLTIER_CRASH_AT"), *log = getenv("CXLTIER_CRASH_LOG");
	unsigned long n = __atomic_add_fetch(&count, 1, __ATOMIC_SEQ_CST);
	char what[256], line[600];
	va_list ap;
	int len = 0, fd;

	if (log && log[0]) {
		va_start(ap, fmt);
		vsnprintf(what, sizeof(what), fmt, ap);
		va_end(ap);
		len = snprintf(line, sizeof(line), "%lu ", n);
		/* one line per write: a value's newline shown as \n */
		for (const char *c = what; *c && len < (int)sizeof(line) - 3; c++) {
			if (*c == '\n') {
				line[len++] = '\\';
				line[len++] = 'n';
			} else
				line[len++] = *c;
		}
		line[len++] = '\n';
		fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
		if (fd >= 0) {
			if (write(fd, line, (size_t)len) != len) {
				/* a test that reads the log sees the line missing */
			}
			close(fd);
		}
	}
	if (at && strtoul(at, NULL, 10) == n)
		kill(getpid(), crash_signal());
}
#endif
