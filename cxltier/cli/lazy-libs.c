// SPDX-License-Identifier: GPL-2.0-only
/* lazy-libs.c - load a library on first use and find its functions: see
 * lazy-libs.h and tools/gen-lazy-stubs.py */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/lazy-libs.h"

void *lazy_symbol(unsigned lib, const char *name)
{
	static void *handle[LAZY_MAX_LIBS];
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	void *h, *fn = NULL;

	pthread_mutex_lock(&lock);
	if (lib < LAZY_MAX_LIBS && !(h = handle[lib]))
		h = handle[lib] = dlopen(lazy_sonames[lib], RTLD_LAZY | RTLD_LOCAL);
	else
		h = lib < LAZY_MAX_LIBS ? handle[lib] : NULL;
	if (h)
		fn = dlsym(h, name);
	pthread_mutex_unlock(&lock);
	if (!fn) {
		fprintf(stderr, "cxltier: cannot load %s from %s: %s\n", name, lib < LAZY_MAX_LIBS ? lazy_sonames[lib] : "?",
			dlerror());
		_exit(EXIT_NO_LIBRARY);
	}
	return fn;
}
