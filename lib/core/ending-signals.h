/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ending-signals.h - the signals that end a run (SIGINT, SIGTERM, SIGHUP,
 * SIGQUIT) held across steps that must not be split (a record and the
 * kernel writes it stands for); delivered once the old mask is back */
#ifndef CXLTIER_ENDING_SIGNALS_H
#define CXLTIER_ENDING_SIGNALS_H

#include <signal.h>

/* hold them; OLD gets the mask to put back with sigprocmask(SIG_SETMASK) */
static inline void ct_hold_ending_signals(sigset_t *old)
{
	sigset_t hold;

	sigemptyset(&hold);
	sigaddset(&hold, SIGINT);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	sigaddset(&hold, SIGQUIT);
	sigprocmask(SIG_BLOCK, &hold, old);
}

#endif
