/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blocks-table.h - a change of memory blocks as `online` and `offline`
 * show it (jobs/blocks-change.h): the blocks (in the table, ranges of
 * consecutive blocks that went alike, as lsmem merges them; one block a
 * row when split), each with its state before, action, result and state
 * after; the memdevs behind them; with -j what
 * was recovered first and, for online --policy, what became of each
 * memdev without a region; then the lines that close the run on stderr
 * (the summary, what is left to do), for the command to say.
 */
#ifndef CXLTIER_BLOCKS_TABLE_H
#define CXLTIER_BLOCKS_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include "cli/output.h"
#include "core/say.h"
#include "jobs/blocks-change.h"

extern const struct out_table blocks_table;

/* {"blocks":[...], "memdevs":[...], "recovered":..., "new_regions":[...]}
 * printed (recovered: render/recovered-json.h, or NULL; taken): the JSON
 * one record a block; the table one row a range of consecutive blocks
 * that went alike, as lsmem merges them (split: one row a block); 0, or
 * -errno with the reason in err (an -o the table does not take) */
int blocks_table_print(const struct out_opts *out, const struct ct_blocks_change_report *r, bool split,
		       json_object *recovered, char *err, size_t errlen);

/* a line that closes the run, of a kind as the library says its own
 * (core/say.h: CT_SAY_ERROR, or a verbosity, 0 always) */
struct blocks_line {
	int kind;
	char text[256];
};
#define BLOCKS_LINES 5

/* the closing lines of r, as the report was just shown; how many */
size_t blocks_closing(const struct ct_blocks_change_report *r, struct blocks_line lines[BLOCKS_LINES]);

#endif
