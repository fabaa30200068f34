/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * migrate-conf.h - the [migrate] section of /etc/cxltier.conf:
 *
 *   [migrate]
 *   jobs = 1        how many processes (or parts of one) move at once when
 *                   --jobs is not given; test/bench/migrate.sh says which
 *                   number is fastest on a machine
 *
 * Other sections belong to other commands and are skipped.
 */
#ifndef CXLTIER_MIGRATE_CONF_H
#define CXLTIER_MIGRATE_CONF_H

#include "core/error.h"

struct ct_migrate_conf {
	unsigned jobs;			/* 0: not set */
};

/* text: the file's content; name: for messages. -EINVAL names the line. */
int ct_migrate_conf_parse(const char *text, const char *name, struct ct_migrate_conf *c, struct ct_error *err);

#endif
