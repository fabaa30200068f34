/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* modules.h - kernel modules through libkmod: is it there, load it */
#ifndef CXLTIER_MODULES_H
#define CXLTIER_MODULES_H

#include <stdbool.h>
#include "core/error.h"

enum ct_module_state {
	CT_MOD_LIVE,		/* loaded */
	CT_MOD_BUILTIN,		/* built into the kernel */
	CT_MOD_AVAILABLE,	/* installed, not loaded */
	CT_MOD_MISSING,		/* not found for this kernel */
	CT_MOD_UNKNOWN,		/* libkmod could not tell */
};

enum ct_module_state ct_module_state(const char *name);
const char *ct_module_state_name(enum ct_module_state s);
/* load it unless live or built in; *loaded tells whether this call loaded it */
int ct_module_ensure(const char *name, bool *loaded, struct ct_error *err);

#endif
