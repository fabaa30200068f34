/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ending-signals.h - the signals that end a run (SIGINT, SIGTERM, SIGHUP,
 * SIGQUIT) held across steps that must not be split (a record and the
 * kernel writes it stands for); delivered once the old mask is back */
#ifndef CXLTIER_ENDING_SIGNALS_H
#define CXLTIER_ENDING_SIGNALS_H

#include <signal.h>

/* the set of them */
static inline void ct_ending_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGQUIT);
}

/* hold them; OLD gets the mask to put back with sigprocmask(SIG_SETMASK) */
static inline void ct_hold_ending_signals(sigset_t *old)
{
	sigset_t hold;

	ct_ending_signals(&hold);
	sigprocmask(SIG_BLOCK, &hold, old);
}

#endif
