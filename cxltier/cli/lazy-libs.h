/* SPDX-License-Identifier: GPL-2.0-only */
/* lazy-libs.h - libcxl, libdaxctl and libkmod loaded on first use, through
 * the stubs tools/gen-lazy-stubs.py generates (see there why) */
#ifndef CXLTIER_LAZY_LIBS_H
#define CXLTIER_LAZY_LIBS_H

/* the handles kept (the generated stubs check their libraries fit) */
#define LAZY_MAX_LIBS 16

/* the libraries, by index, as the generator was given them */
extern const char *const lazy_sonames[];

/* the real function: the library is loaded on the first call; when it or
 * the function cannot be found, cxltier says so and exits 127, as the
 * dynamic loader does for a library missing at start */
void *lazy_symbol(unsigned lib, const char *name);

#endif
