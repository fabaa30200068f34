/* SPDX-License-Identifier: GPL-2.0-only */
/* events-args.h - what `cxltier events` is given: its options' values,
 * --since and --until read, the filters made, the options that do not go
 * together refused */
#ifndef CXLTIER_EVENTS_ARGS_H
#define CXLTIER_EVENTS_ARGS_H

#include <stdbool.h>
#include <stdint.h>
#include "cli/cli.h"
#include "cli/filter.h"
#include "events/event-filter.h"

struct events_args {
	bool follow, store, no_store, summary, history, stop, drain, journal, import_rasdaemon;
	const char *store_path, *config, *file;
	struct name_filter types, severities, memdevs;
	uint64_t since_ns, until_ns;
	struct ct_event_filter filter;	/* the above, as the jobs take it */
};

/* --since, --until (CLI_PARSE): a point in time as systemd.time(7) writes
 * it (core/time-parse.h; a bare span means that long ago) */
int events_parse_since(struct cmd_env *env, void *args, const char *arg);
int events_parse_until(struct cmd_env *env, void *args, const char *arg);
/* the filters as the jobs take them: the operands (memdevs), kinds and
 * severities; an exit code */
int events_make_filter(struct cmd_env *env, struct events_args *a, int argc, char **argv);
/* the options that go together (argc operands); an exit code */
int events_check_modes(struct cmd_env *env, const struct events_args *a, int argc);

#endif
