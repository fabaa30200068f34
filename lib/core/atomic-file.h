/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * atomic-file.h - a file replaced whole or not at all, as a reader polling
 * it (node_exporter's textfile collector) must see it: a temporary file of
 * its own in the same directory (a random name, O_CREAT|O_EXCL|O_NOFOLLOW),
 * written, fsynced and renamed over the file; never written through a link;
 * never in a directory others may write to unless it is sticky (they could
 * rename the temporary file away and put theirs in its place).
 */
#ifndef CXLTIER_ATOMIC_FILE_H
#define CXLTIER_ATOMIC_FILE_H

#include <stddef.h>
#include <sys/types.h>
#include "core/error.h"

/* replace path with data (mode: of the new file, whatever the umask) */
int ct_file_write_atomic(struct ct_error *err, const char *path, const char *data, size_t len, mode_t mode);

#endif
