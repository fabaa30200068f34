/* SPDX-License-Identifier: GPL-2.0-only */
/* json-build.h - the one JSON builder every command uses (json-c underneath):
 * snake_case keys, sizes as integer bytes, real booleans, absent when unknown */
#ifndef CXLTIER_JSON_BUILD_H
#define CXLTIER_JSON_BUILD_H

#include <stdbool.h>
#include <stdint.h>
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

static inline void jb_double(json_object *o, const char *k, double v)
{
	json_object_object_add(o, k, json_object_new_double(v));
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
