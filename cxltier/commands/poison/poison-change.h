/* SPDX-License-Identifier: GPL-2.0-only */
/* poison-change.h - `cxltier poison inject|clear MEMDEV DPA [LENGTH]`: the
 * test tools' arguments, their memdev, and the change */
#ifndef CXLTIER_POISON_CHANGE_H
#define CXLTIER_POISON_CHANGE_H

#include <stdbool.h>
#include <stdint.h>
#include "cli/cli.h"
#include "cxl/topology.h"
#include "events/poison.h"

/* DPA and LENGTH (argv[1], argv[2]) read, and --yes-really (yes) given:
 * 0, or EXIT_USAGE with the message said */
int poison_change_args(struct cmd_env *env, bool inject, int argc, char **argv, bool yes, uint64_t *dpa,
		       uint64_t *len);
/* the one memdev spec names, or NULL with the message said */
const struct ct_memdev *poison_change_memdev(struct cmd_env *env, const struct ct_topology *t, const char *spec);
/* inject (or clear) the range; what the kernel traced in *traced (the
 * caller frees it); 0, or an exit code with the failure said */
int poison_change_apply(struct cmd_env *env, const struct ct_memdev *m, bool inject, uint64_t dpa, uint64_t len,
			struct ct_poison_list *traced);

#endif
