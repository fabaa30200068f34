// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <string.h>
#include <libkmod.h>
#include "core/modules.h"

const char *ct_module_state_name(enum ct_module_state s)
{
	static const char *const n[] = { "loaded", "builtin", "not loaded", "missing", "unknown" };
	return s <= CT_MOD_UNKNOWN ? n[s] : "unknown";
}

static enum ct_module_state state_of(struct kmod_ctx *k, const char *name, struct kmod_module **out)
{
	struct kmod_module *m = NULL;
	struct kmod_list *list = NULL;
	enum ct_module_state st = CT_MOD_UNKNOWN;
	int init;

	*out = NULL;
	if (kmod_module_new_from_lookup(k, name, &list) < 0 || !list)
		return CT_MOD_MISSING;
	m = kmod_module_get_module(list);
	kmod_module_unref_list(list);
	if (!m)
		return CT_MOD_MISSING;
	init = kmod_module_get_initstate(m);
	if (init == KMOD_MODULE_LIVE || init == KMOD_MODULE_COMING)
		st = CT_MOD_LIVE;
	else if (init == KMOD_MODULE_BUILTIN)
		st = CT_MOD_BUILTIN;
	else if (kmod_module_get_path(m))
		st = CT_MOD_AVAILABLE;
	else
		st = CT_MOD_MISSING;
	*out = m;
	return st;
}

enum ct_module_state ct_module_state(const char *name)
{
	struct kmod_ctx *k = kmod_new(NULL, NULL);
	struct kmod_module *m;
	enum ct_module_state st;

	if (!k)
		return CT_MOD_UNKNOWN;
	st = state_of(k, name, &m);
	if (m)
		kmod_module_unref(m);
	kmod_unref(k);
	return st;
}

int ct_module_ensure(const char *name, bool *loaded, struct ct_error *err)
{
	struct kmod_ctx *k = kmod_new(NULL, NULL);
	struct kmod_module *m;
	enum ct_module_state st;
	int rc = 0;

	*loaded = false;
	if (!k)
		return ct_fail(err, ENOMEM, "libkmod: cannot open the module index");
	st = state_of(k, name, &m);
	if (st == CT_MOD_MISSING)
		rc = ct_fail(err, ENOENT, "kernel module %s is not installed for this kernel", name);
	else if (st == CT_MOD_AVAILABLE) {
		rc = kmod_module_probe_insert_module(m, 0, NULL, NULL, NULL, NULL);
		if (rc < 0)
			rc = ct_fail(err, -rc, "loading kernel module %s failed: %s", name, strerror(-rc));
		else
			*loaded = true;
	}
	if (m)
		kmod_module_unref(m);
	kmod_unref(k);
	return rc < 0 ? rc : 0;
}
