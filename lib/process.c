// SPDX-License-Identifier: LGPL-2.1-or-later
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "process.h"

#define CGROOT "/sys/fs/cgroup"

int ct_procset_add_pid(struct ct_sysfs *s, struct ct_procset *set, int pid)
{
	struct ct_process *np;

	for (size_t i = 0; i < set->count; i++)
		if (set->proc[i].pid == pid)
			return 0;
	np = realloc(set->proc, (set->count + 1) * sizeof(*np));
	if (!np)
		return ct_fail(s->err, ENOMEM, "out of memory");
	set->proc = np;
	memset(&np[set->count], 0, sizeof(*np));
	np[set->count++].pid = pid;
	return 0;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

int ct_procset_add_comm(struct ct_sysfs *s, struct ct_procset *set, const char *name)
{
	char **names, path[64], comm[64];
	size_t count, before = set->count;
	int rc = ct_sysfs_list(s, "/proc", NULL, &names, &count);

	if (rc)
		return rc;
	for (size_t i = 0; i < count && !rc; i++) {
		if (!all_digits(names[i]))
			continue;
		/* a process that ends while we look is simply not chosen */
		if (ct_sysfs_read_str(s, ct_path(path, sizeof(path), "/proc/%s/comm", names[i]), comm, sizeof(comm)) == 0 &&
		    !strcmp(comm, name))
			rc = ct_procset_add_pid(s, set, atoi(names[i]));
	}
	ct_strv_free(names, count);
	if (rc)
		return rc;
	ct_error_clear(s->err);
	if (set->count == before)
		return ct_fail(s->err, ESRCH, "no process named '%s'", name);
	return 0;
}

int ct_procset_add_cgroup(struct ct_sysfs *s, struct ct_procset *set, const char *cg)
{
	char path[4096], why[sizeof(s->err->msg)], *text, *save;
	bool absolute = !strncmp(cg, CGROOT, strlen(CGROOT));
	int rc;

	snprintf(path, sizeof(path), "%s%s/cgroup.procs", absolute ? "" : CGROOT "/", absolute ? cg : cg + (cg[0] == '/'));
	if (ct_sysfs_read_text(s, path, &text)) {
		ct_strlcpy(why, s->err->msg, sizeof(why));
		return ct_fail(s->err, ENOENT, "cgroup %s: %s", cg, why);
	}
	rc = 0;
	for (char *l = strtok_r(text, "\n", &save); l && !rc; l = strtok_r(NULL, "\n", &save))
		rc = ct_procset_add_pid(s, set, atoi(l));
	free(text);
	return rc;
}

void ct_procset_free(struct ct_procset *set)
{
	free(set->proc);
	set->proc = NULL;
	set->count = 0;
}
