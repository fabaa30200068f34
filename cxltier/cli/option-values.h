/* SPDX-License-Identifier: GPL-2.0-only */
/* option-values.h - an option's argument as a number, a duration or a size;
 * each 0, or -EINVAL when the text is not one (nothing stored) */
#ifndef CXLTIER_OPTION_VALUES_H
#define CXLTIER_OPTION_VALUES_H

#include <stdint.h>

/* a whole number from 0 to max, decimal or 0x... */
int value_uint(const char *arg, long max, unsigned *out);
/* a span as systemd.time(7) writes it ("30s", "5min", "1h 30min"; a bare
 * number is seconds) of whole seconds from 0 to max */
int value_seconds(const char *arg, long max, unsigned *out);
/* the same, in whole milliseconds from 1 to max_ms ("500ms", "1.5", "2s") */
int value_span_ms(const char *arg, uint64_t max_ms, uint64_t *out);
/* a size as util-linux's strtosize reads it: bytes, "512M", "1.5G" and
 * "1GiB" (powers of 1024), "1GB" (powers of 1000), "0x..." bytes; 0 is
 * refused */
int value_size(const char *arg, uint64_t *out);
/* a rate in MB/s as the kernel counts them (MiB/s) from 0 to max: a bare
 * number is MB/s; a size as value_size reads it, "/s" after it or not
 * ("512M", "1G/s", "1GiB/s"), is a whole number of MiB a second */
int value_rate_mbps(const char *arg, uint64_t max, uint64_t *out);
/* the index of arg among the words (separated by spaces), or -EINVAL */
int value_choice(const char *arg, const char *words);

#endif
