// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli/filter.h"

int filter_add(struct name_filter *f, const char *list)
{
	while (*list) {
		size_t n = strcspn(list, ", ");
		if (n) {
			char **nv = realloc(f->names, (f->count + 1) * sizeof(*nv));
			bool *nm = realloc(f->matched, (f->count + 1) * sizeof(*nm));
			if (nv)
				f->names = nv;
			if (nm)
				f->matched = nm;
			if (!nv || !nm || !(f->names[f->count] = strndup(list, n)))
				return -ENOMEM;
			f->matched[f->count++] = false;
		}
		list += n;
		list += strspn(list, ", ");
	}
	return 0;
}

bool filter_active(const struct name_filter *f)
{
	return f->count > 0;
}

bool filter_match(struct name_filter *f, const char *name)
{
	bool hit = false;

	if (!f->count)
		return true;
	for (size_t i = 0; i < f->count; i++)
		if (strcmp(f->names[i], name) == 0)
			hit = f->matched[i] = true;
	return hit;
}

void filter_free(struct name_filter *f)
{
	for (size_t i = 0; i < f->count; i++)
		free(f->names[i]);
	free(f->names);
	free(f->matched);
	memset(f, 0, sizeof(*f));
}
