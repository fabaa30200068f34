/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * conf.h - the KEY = VALUE lines of one [section] of /etc/cxltier.conf's
 * text. Blank lines and lines starting with '#' or ';' are skipped, as are
 * other sections (they belong to other commands). Pure.
 */
#ifndef CXLTIER_CONF_H
#define CXLTIER_CONF_H

#include "core/error.h"

#define CT_CONF_PATH "/etc/cxltier.conf"

/* a key of the section: 0 to go on, else -errno with err set (the line is
 * named by the caller's message: name:line) */
typedef int (*ct_conf_fn)(const char *key, const char *value, const char *name, unsigned line, void *arg,
			  struct ct_error *err);
/* text: the file's content; name: for messages. -EINVAL names the line of
 * a malformed one */
int ct_conf_section(const char *text, const char *name, const char *section, ct_conf_fn fn, void *arg,
		    struct ct_error *err);
/* the file read whole (at most 64 KiB): 0 and *text (malloc'd), -ENOENT
 * with no message when it does not exist, else -errno with a message */
int ct_conf_read(const char *path, char **text, struct ct_error *err);

#endif
