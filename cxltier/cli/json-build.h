/* SPDX-License-Identifier: GPL-2.0-only */
/* json-build.h - the one JSON builder every command uses (json-c underneath):
 * snake_case keys, sizes as integer bytes, real booleans, absent when unknown */
#ifndef CXLTIER_JSON_BUILD_H
#define CXLTIER_JSON_BUILD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <json-c/json.h>

static inline void jb_str(json_object *o, const char *k, const char *v)
{
	if (v && *v)	/* empty means unknown: absent */
		json_object_object_add(o, k, json_object_new_string(v));
}

static inline void jb_u64(json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

static inline void jb_int(json_object *o, const char *k, int64_t v)
{
	json_object_object_add(o, k, json_object_new_int64(v));
}

/* only when v >= 0 (negative means unknown) */
static inline void jb_int_known(json_object *o, const char *k, int64_t v)
{
	if (v >= 0)
		jb_int(o, k, v);
}

/* a double as people write it (46.1, not 46.100000000000001; 150, not
 * 150.0), the same bytes whichever json-c: its own formatting appends ".0"
 * to whole numbers from 0.17 on (Debian 13), not before (Debian 12) */
static inline int jb_double_text(json_object *jso, struct printbuf *pb, int level, int flags)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%.10g", json_object_get_double(jso));

	(void)level;
	(void)flags;
	return printbuf_memappend(pb, buf, n);
}

static inline void jb_double(json_object *o, const char *k, double v)
{
	json_object *d = json_object_new_double(v);

	json_object_set_serializer(d, jb_double_text, NULL, NULL);
	json_object_object_add(o, k, d);
}

static inline void jb_bool(json_object *o, const char *k, bool v)
{
	json_object_object_add(o, k, json_object_new_boolean(v));
}

static inline json_object *jb_obj(json_object *parent, const char *k)
{
	json_object *o = json_object_new_object();

	json_object_object_add(parent, k, o);
	return o;
}

static inline json_object *jb_arr(json_object *parent, const char *k)
{
	json_object *a = json_object_new_array();

	json_object_object_add(parent, k, a);
	return a;
}

#endif
