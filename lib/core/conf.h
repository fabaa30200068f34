/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * conf.h - the KEY = VALUE lines of one [section] of /etc/cxltier.conf's
 * text. Blank lines and lines starting with '#' or ';' are skipped, as are
 * other sections (they belong to other commands). Pure.
 */
#ifndef CXLTIER_CONF_H
#define CXLTIER_CONF_H

#include <stddef.h>
#include <stdint.h>
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

/* yes/true/on/1 and no/false/off/0, any case: 1, 0, or -1 for anything
 * else (v: len bytes, not necessarily NUL-terminated) */
int ct_conf_boolean(const char *v, size_t len);

/* A duration as systemd.time(7) writes a span ("90d", "52w", "1h 30min",
 * "2 hours"; a bare number is seconds: core/time-parse.h), at most max_s
 * seconds, in whole seconds: 0 and *seconds; -EINVAL when value is not
 * one (or has a fraction of a second), -ERANGE when it is longer. */
#define CT_CONF_DURATION_MAX_S (100ULL * 36525 * 864)	/* 100 years (of 365.25 days) */
int ct_conf_duration(const char *value, uint64_t max_s, uint64_t *seconds);

/* The page-retirement keys, read the same wherever they are set ([events]
 * for every device, a [device ...] section for the devices it matches). */
enum ct_conf_retire_key { CT_CONF_RETIRE_PAGES, CT_CONF_RETIRE_THRESHOLD, CT_CONF_RETIRE_WINDOW,
			  CT_CONF_RETIRE_LIMIT };
#define CT_CONF_RETIRE_KEYS "retire-pages, retire-threshold, retire-window, retire-limit"
/* key (NUL-terminated) and value: 0 with *which and *out (pages: 1 or 0;
 * threshold: errors, 1 or more; window: seconds, 1 s to 100 years; limit:
 * pages an hour, 0 none), -ENOENT when key is none of them, -EINVAL when
 * the value is not one; *expect then says what is (for the caller's
 * message, which names the file and line) */
int ct_conf_retire_value(const char *key, const char *value, enum ct_conf_retire_key *which, uint64_t *out,
			 const char **expect);

#endif
