/* SPDX-License-Identifier: GPL-2.0-only */
/* option-values.h - an option's argument as a number, a duration or a size;
 * each 0, or -EINVAL when the text is not one (nothing stored) */
#ifndef CXLTIER_OPTION_VALUES_H
#define CXLTIER_OPTION_VALUES_H

#include <stdint.h>

/* a whole number from 0 to max, decimal or 0x... */
int value_uint(const char *arg, long max, unsigned *out);
/* whole seconds from 0 to max */
int value_seconds(const char *arg, long max, unsigned *out);
/* bytes, or a number with K, M, G or T (binary); 0 is refused */
int value_size(const char *arg, uint64_t *out);
/* the index of arg among the words (separated by spaces), or -EINVAL */
int value_choice(const char *arg, const char *words);

#endif
