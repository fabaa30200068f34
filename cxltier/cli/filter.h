/* SPDX-License-Identifier: GPL-2.0-only */
/* filter.h - name filters given as repeatable, comma-separated options */
#ifndef CXLTIER_FILTER_H
#define CXLTIER_FILTER_H

#include <stdbool.h>
#include <stddef.h>

struct name_filter {
	char **names;
	size_t count;
	bool *matched;		/* which names matched something */
};

/* add "a,b" to the filter; 0 or -ENOMEM */
int filter_add(struct name_filter *f, const char *list);
/* add name as it is (a path, a name with a comma); 0 or -ENOMEM */
int filter_add_name(struct name_filter *f, const char *name);
/* true when the filter is empty or name is in it (and marks it matched) */
bool filter_match(struct name_filter *f, const char *name);
bool filter_active(const struct name_filter *f);
void filter_free(struct name_filter *f);

#endif
