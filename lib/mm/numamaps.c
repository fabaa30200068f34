// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mm/numamaps.h"

/* does this token end the policy? (the policy itself may hold spaces and '=') */
static bool attribute(const char *t, size_t len)
{
	static const char *const keys[] = { "file=", "anon=", "dirty=", "mapped=", "mapmax=", "swapcache=",
					    "active=", "writeback=", "kernelpagesize_kB=" };
	if ((len == 4 && (!strncmp(t, "heap", 4) || !strncmp(t, "huge", 4))) || (len == 5 && !strncmp(t, "stack", 5)))
		return true;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strncmp(t, keys[i], strlen(keys[i])))
			return true;
	if (t[0] == 'N' && t[1] >= '0' && t[1] <= '9') {
		const char *p = t + 1;
		while (*p >= '0' && *p <= '9')
			p++;
		return *p == '=';
	}
	return false;
}

int ct_numa_maps_parse_line(const char *line, struct ct_numa_vma *v)
{
	const char *p = line, *pol;
	char *end;

	memset(v, 0, sizeof(*v));
	v->start = strtoull(p, &end, 16);
	if (end == p || *end != ' ')
		return -EINVAL;
	p = end + 1;
	pol = p;
	/* the policy runs up to the first attribute token */
	for (;;) {
		const char *sp = strchr(p, ' ');
		size_t len = sp ? (size_t)(sp - p) : strcspn(p, "\n");
		if (p != pol && attribute(p, len))
			break;
		if (!sp) {
			p += len;
			break;
		}
		p = sp + 1;
	}
	snprintf(v->policy, sizeof(v->policy), "%.*s", (int)(p - pol - (p > pol && p[-1] == ' ')), pol);
	snprintf(v->kind, sizeof(v->kind), "anon");
	while (*p && *p != '\n') {
		size_t len = strcspn(p, " \n");
		unsigned long long n;
		int node;

		if (!strncmp(p, "file=", 5))
			snprintf(v->kind, sizeof(v->kind), "file");
		else if (len == 4 && !strncmp(p, "heap", 4))
			snprintf(v->kind, sizeof(v->kind), "heap");
		else if (len == 5 && !strncmp(p, "stack", 5))
			snprintf(v->kind, sizeof(v->kind), "stack");
		else if (len == 4 && !strncmp(p, "huge", 4))
			v->huge = true;
		else if (sscanf(p, "anon=%llu", &n) == 1)
			v->anon = n;
		else if (sscanf(p, "kernelpagesize_kB=%llu", &n) == 1)
			v->page_kb = n;
		else if (sscanf(p, "N%d=%llu", &node, &n) == 2 && node >= 0 && node < 64)
			v->pages[node] = n;
		p += len;
		while (*p == ' ')
			p++;
	}
	return 0;
}

void ct_numa_maps_foreach(const char *text, void (*fn)(const struct ct_numa_vma *v, void *arg), void *arg)
{
	const char *p = text;

	while (*p) {
		struct ct_numa_vma v;
		size_t len = strcspn(p, "\n");
		char line[4096];

		snprintf(line, sizeof(line), "%.*s", (int)(len < sizeof(line) - 1 ? len : sizeof(line) - 1), p);
		if (ct_numa_maps_parse_line(line, &v) == 0)
			fn(&v, arg);
		p += len;
		if (*p)
			p++;
	}
}

static void add_bytes(const struct ct_numa_vma *v, void *arg)
{
	uint64_t *bytes = arg;

	for (int n = 0; n < 64; n++)
		bytes[n] += v->pages[n] * (v->page_kb ? v->page_kb : 4) * 1024;
}

void ct_numa_maps_bytes(const char *text, uint64_t bytes[64])
{
	memset(bytes, 0, 64 * sizeof(bytes[0]));
	ct_numa_maps_foreach(text, add_bytes, bytes);
}

int ct_numa_maps_parse_all(const char *text, struct ct_numa_vma **out, size_t *n)
{
	size_t cap = 64;
	const char *p = text;

	*n = 0;
	*out = malloc(cap * sizeof(**out));
	if (!*out)
		return -ENOMEM;
	while (*p) {
		size_t len = strcspn(p, "\n");
		char line[4096];

		if (*n == cap) {
			struct ct_numa_vma *nv = realloc(*out, 2 * cap * sizeof(**out));
			if (!nv) {
				free(*out);
				*out = NULL;
				*n = 0;
				return -ENOMEM;
			}
			*out = nv;
			cap *= 2;
		}
		snprintf(line, sizeof(line), "%.*s", (int)(len < sizeof(line) - 1 ? len : sizeof(line) - 1), p);
		if (ct_numa_maps_parse_line(line, &(*out)[*n]) == 0)
			(*n)++;
		p += len;
		if (*p)
			p++;
	}
	return 0;
}
