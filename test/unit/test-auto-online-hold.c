// SPDX-License-Identifier: GPL-2.0-only
/* lib/change/auto-online-hold.c on a tree: the kernel's own onlining held off and
 * put back, the record that says so, and a killed run's hold undone by the
 * next run (and only then) */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tap.h"
#include "tree.h"
#include "change/auto-online-hold.h"
#include "core/context.h"

static char root[256];
#define AUTO "/sys/devices/system/memory/auto_online_blocks"
#define RECORD "/run/cxltier/" CT_AUTO_ONLINE_RECORD

static void put(const char *path, const char *text)
{
	tree_put_run(root, path, text);
}

/* the attribute's time of last write, as the kernel keeps it */
static void stamp(const char *path, time_t sec, long nsec)
{
	char full[1024];
	struct timespec t[2] = { { sec, nsec }, { sec, nsec } };

	snprintf(full, sizeof(full), "%s%s", root, path);
	if (utimensat(AT_FDCWD, full, t, 0))
		fprintf(stderr, "# cannot set the time of %s\n", full);
}

static const char *get(const char *path)
{
	return tree_get(root, path);
}

int main(void)
{
	struct ct_auto_online_hold h;
	struct ct_context *ctx;
	char text[1024], value[32], self_stat[1024], path[1024];
	struct timespec written;
	uint64_t start;
	int pid;
	FILE *f;

	/* the record */
	ct_auto_online_record_format(42, 123456, "online", NULL, text, sizeof(text));
	is_str(text, "pid 42\nstart 123456\nvalue online\n", "record text");
	ok(ct_auto_online_record_parse(text, &pid, &start, value, sizeof(value), &written) == 0 && pid == 42 &&
	   start == 123456 && !strcmp(value, "online") && written.tv_sec == 0, "read back");
	ct_auto_online_record_format(42, 123456, "online", &(struct timespec){ 1700000000, 5 }, text, sizeof(text));
	is_str(text, "pid 42\nstart 123456\nvalue online\nwritten 1700000000.000000005\n",
	       "record text with the time of the write");
	ok(ct_auto_online_record_parse(text, &pid, &start, value, sizeof(value), &written) == 0 &&
	   written.tv_sec == 1700000000 && written.tv_nsec == 5, "read back with its time");
	ok(ct_auto_online_record_parse("pid 42\nstart 1\n", &pid, &start, value, sizeof(value), &written) < 0, "no value: refused");
	ok(ct_auto_online_record_parse("pid 0\nstart 1\nvalue online\n", &pid, &start, value, sizeof(value), &written) < 0,
	   "pid 0: refused");
	ok(ct_auto_online_record_parse("garbage", &pid, &start, value, sizeof(value), &written) < 0, "garbage: refused");
	ok(ct_auto_online_record_parse("pid 7\nstart 1\nvalue /etc/x\n", &pid, &start, value, sizeof(value), &written) < 0,
	   "a value that is no onlining type: refused");

	if (!mkdtemp(tap_tmp_template(root, sizeof(root), "cxltier-test-aoh")))
		return 1;
	/* this process in the tree's /proc, as it is (the record's identity) */
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)getpid());
	f = fopen(path, "r");
	if (!f || !fgets(self_stat, sizeof(self_stat), f))
		return 1;
	fclose(f);
	put(path, self_stat);
	put(AUTO, "offline\n");
	ok(ct_context_new(&ctx, root) == 0, "context on the tree");

	ok(ct_auto_online_hold(ctx, &h) == 0 && !h.held, "the kernel onlines nothing itself: nothing held");
	is_str(get(RECORD), "(none)", "and no record");
	ok(ct_auto_online_release(ctx, &h) == 0, "releasing nothing is fine");

	put(AUTO, "online\n");
	ok(ct_auto_online_hold(ctx, &h) == 0 && h.held, "online: held");
	is_str(get(AUTO), "offline", "auto_online_blocks is offline while held");
	ok(ct_auto_online_record_parse(get(RECORD), &pid, &start, value, sizeof(value), &written) == 0 &&
	   pid == getpid() && !strcmp(value, "online"), "the record names this process and the value");
	{
		struct stat st;
		snprintf(path, sizeof(path), "%s" AUTO, root);
		ok(stat(path, &st) == 0 && written.tv_sec == st.st_mtim.tv_sec && written.tv_nsec == st.st_mtim.tv_nsec,
		   "and the time the attribute was given at that write");
	}
	ok(ct_auto_online_recover(ctx, value, sizeof(value)) == 0, "a hold whose run is alive is left alone");
	is_str(get(AUTO), "offline", "still held");
	ok(ct_auto_online_release(ctx, &h) == 0, "released");
	is_str(get(AUTO), "online", "put back");
	is_str(get(RECORD), "(none)", "the record is gone");

	/* a killed run's hold (its pid not running) */
	put(RECORD, "pid 999999\nstart 5\nvalue online_movable\n");
	put(AUTO, "offline\n");
	is_int(ct_auto_online_recover(ctx, value, sizeof(value)), 1, "a killed run's hold: found");
	is_str(value, "online_movable", "the value it held");
	is_str(get(AUTO), "online_movable", "put back");
	is_str(get(RECORD), "(none)", "the record removed");
	is_int(ct_auto_online_recover(ctx, value, sizeof(value)), 0, "none left: nothing to do");

	/* ... its pid reused by another process (another start time) */
	snprintf(text, sizeof(text), "pid %d\nstart 1\nvalue online\n", (int)getpid());
	put(RECORD, text);
	put(AUTO, "offline\n");
	is_int(ct_auto_online_recover(ctx, value, sizeof(value)), 1, "its pid now another process's: still undone");
	is_str(get(AUTO), "online", "put back");

	/* the administrator set it since: left as it is */
	put(RECORD, "pid 999999\nstart 5\nvalue online\n");
	put(AUTO, "online_movable\n");
	is_int(ct_auto_online_recover(ctx, value, sizeof(value)), 1, "set since the kill: found");
	is_str(value, "", "nothing put back");
	is_str(get(AUTO), "online_movable\n", "the administrator's value stays");
	is_str(get(RECORD), "(none)", "the record removed");

	/* the administrator set it to offline since (as cxltier's warning
	 * advises): the same value, but written after the killed run's write
	 * (at 1700000000.000000005); { time of the last write, value put back } */
	static const struct { time_t written; const char *back; } since[] = {
		{ 1700000000, "online" },	/* the killed run's write: put back */
		{ 1700000060, "" },		/* written again a minute later: left */
	};
	for (size_t i = 0; i < sizeof(since) / sizeof(since[0]); i++) {
		put(RECORD, "pid 999999\nstart 5\nvalue online\nwritten 1700000000.000000005\n");
		put(AUTO, "offline\n");
		stamp(AUTO, since[i].written, 5);
		is_int(ct_auto_online_recover(ctx, value, sizeof(value)), 1, "offline, last written at %lld: found",
		       (long long)since[i].written);
		is_str(value, since[i].back, "the value put back ('' none)");
		is_str(get(AUTO), since[i].back[0] ? since[i].back : "offline\n", "auto_online_blocks after");
		is_str(get(RECORD), "(none)", "the record removed");
	}

	/* a half-written record is removed, nothing else changes */
	put(RECORD, "pid 99");
	put(AUTO, "offline\n");
	is_int(ct_auto_online_recover(ctx, value, sizeof(value)), 0, "a half-written record: not acted on");
	is_str(get(AUTO), "offline\n", "unchanged");
	is_str(get(RECORD), "(none)", "and removed");

	/* a symlink in its place is refused, never followed */
	put("/etc/target", "keep\n");
	snprintf(path, sizeof(path), "%s" RECORD, root);
	symlink("../../etc/target", path);
	put(AUTO, "online\n");
	ok(ct_auto_online_hold(ctx, &h) < 0 && !h.held, "a symlink as the record: the hold refuses");
	is_str(get(AUTO), "online\n", "and changes nothing");
	is_str(get("/etc/target"), "keep\n", "the link's target untouched");

	ct_context_free(ctx);
	tap_rm_tree(root);
	return tap_done();
}
