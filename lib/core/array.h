/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* array.h - arrays that grow by one element at a time */
#ifndef CXLTIER_ARRAY_H
#define CXLTIER_ARRAY_H

#include <stddef.h>
#include "core/error.h"

/* room in *arr (n elements of size bytes) for element n, zeroed; 0, or
 * -ENOMEM (recorded in e when given) with *arr as it was */
int ct_array_grow(struct ct_error *e, void **arr, size_t n, size_t size);

#endif
