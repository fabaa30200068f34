// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli/filter.h"

/* the first len bytes of name, as one more name */
static int add(struct name_filter *f, const char *name, size_t len)
{
	char **nv = realloc(f->names, (f->count + 1) * sizeof(*nv));
	bool *nm = realloc(f->matched, (f->count + 1) * sizeof(*nm));

	if (nv)
		f->names = nv;
	if (nm)
		f->matched = nm;
	if (!nv || !nm || !(f->names[f->count] = strndup(name, len)))
		return -ENOMEM;
	f->matched[f->count++] = false;
	return 0;
}

int filter_add(struct name_filter *f, const char *list)
{
	while (*list) {
		size_t n = strcspn(list, ", ");
		if (n && add(f, list, n))
			return -ENOMEM;
		list += n;
		list += strspn(list, ", ");
	}
	return 0;
}

int filter_add_name(struct name_filter *f, const char *name)
{
	return add(f, name, strlen(name));
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
