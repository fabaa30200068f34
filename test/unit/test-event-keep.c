// SPDX-License-Identifier: GPL-2.0-only
/* The records a filtered `cxltier events` hid, kept for later runs
 * (lib/events/event-keep.c): the file's bytes round trip, a damaged or foreign file
 * loses only what follows the damage, the size bound drops the oldest first,
 * and the store in a throw-away root: locked, replaced whole, removed when
 * nothing is left, and refused through a symlink. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tap.h"
#include "tree.h"
#include "events/event-keep.h"
#include "core/lock.h"

static char root[512];

static void fill(uint8_t *p, size_t n, uint8_t seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(seed + i * 7);
}

static void bytes_cases(void)
{
	struct ct_event_keep k = { 0 }, back = { 0 };
	uint8_t data[300], *buf;
	size_t len, bad_at;

	fill(data, sizeof(data), 1);
	is_int(ct_event_keep_add(&k, "cxl_dram", 11, 1700000000000000000ULL, 1, data, 120), 0, "a DRAM record");
	is_int(ct_event_keep_add(&k, "cxl_general_media", 12, 1700000000000000001ULL, 0, data, 0), 0, "an empty one");
	is_int(ct_event_keep_add(&k, "cxl_aer_uncorrectable_error", 13, 3, 1, data, 300), 0, "an AER one");
	is_int(ct_event_keep_add(&k, "cxl/dram", 1, 1, 0, data, 1), -EINVAL, "a name with a slash: refused");
	is_int(ct_event_keep_add(&k, "", 1, 1, 0, data, 1), -EINVAL, "an empty name: refused");
	is_int(ct_event_keep_add(&k, "cxl_x", 1, 1, 0, data, CT_KEPT_MAX_RECORD + 1), -EINVAL, "too large a record: refused");
	is_int(ct_event_keep_serialize(&k, &buf, &len), 0, "serialized");
	is_int((long long)len, (long long)k.bytes, "its size is what the bound counts");
	is_int(ct_event_keep_parse(buf, len, &back, &bad_at), 0, "parsed back");
	is_int((long long)back.n, 3, "three records");
	ok(back.n == 3 && !strcmp(back.r[0].event, "cxl_dram") && back.r[0].ts == 11 &&
	   back.r[0].real_time == 1700000000000000000ULL && back.r[0].cpu == 1 && back.r[0].size == 120 &&
	   !memcmp(back.r[0].data, data, 120), "the first: name, times, cpu and bytes as kept");
	ok(back.n == 3 && back.r[1].size == 0 && !strcmp(back.r[2].event, "cxl_aer_uncorrectable_error") &&
	   back.r[2].size == 300 && !memcmp(back.r[2].data, data, 300), "the others in order");
	ct_event_keep_free(&back);

	/* cut inside the last record: the first two stay */
	is_int(ct_event_keep_parse(buf, len - 5, &back, &bad_at), -EBADMSG, "a file cut short: damaged");
	is_int((long long)back.n, 2, "the records before the cut are kept");
	ok(bad_at > 8 && bad_at < len - 5, "the damage is placed at the cut record (%zu of %zu)", bad_at, len);
	ct_event_keep_free(&back);
	/* a length field lying */
	buf[8] ^= 0x40;
	is_int(ct_event_keep_parse(buf, len, &back, &bad_at), -EBADMSG, "a wrong length: damaged");
	is_int((long long)back.n, 0, "nothing before it");
	is_int((long long)bad_at, 8, "at the first record");
	ct_event_keep_free(&back);
	buf[8] ^= 0x40;
	/* a name that is not one */
	{
		uint8_t was = buf[8 + 32];
		buf[8 + 32] = '/';
		is_int(ct_event_keep_parse(buf, len, &back, &bad_at), -EBADMSG, "a name with a slash: damaged");
		ct_event_keep_free(&back);
		buf[8 + 32] = was;
	}
	is_int(ct_event_keep_parse(buf, len, &back, &bad_at), 0, "whole again: parsed");
	ct_event_keep_free(&back);
	/* the same records after another file's magic */
	memcpy(buf, "NOTOURS!", 8);
	is_int(ct_event_keep_parse(buf, len, &back, &bad_at), -EBADMSG, "another file's magic: refused");
	is_int((long long)back.n, 0, "nothing taken from it");
	is_int(ct_event_keep_parse(buf, 0, &back, &bad_at), 0, "an empty file: nothing kept");
	free(buf);
	ct_event_keep_free(&k);

	/* the bound: the oldest go first, and the count says so */
	static uint8_t big[CT_KEPT_MAX_RECORD];
	size_t added = 0;
	while (added < CT_KEPT_MAX_BYTES / CT_KEPT_MAX_RECORD + 5) {
		big[0] = (uint8_t)added;
		ct_event_keep_add(&k, "cxl_generic_event", added, added, 0, big, sizeof(big));
		added++;
	}
	ok(k.bytes <= CT_KEPT_MAX_BYTES, "never more than %u bytes (%zu)", CT_KEPT_MAX_BYTES, k.bytes);
	ok(k.dropped > 0 && k.n + k.dropped == added, "%lu of %zu dropped, the rest kept", k.dropped, added);
	ok(k.n && k.r[0].ts == k.dropped && k.r[k.n - 1].ts == added - 1, "the oldest were the ones dropped");
	ct_event_keep_free(&k);
}

/* many records past the bound (a run that hid thousands): exactly the
 * newest that fit stay, in order, and dropping the oldest costs work in
 * proportion to the records added, not to the records added times those
 * kept (a shift of the whole array per drop) */
static void bound_linear(void)
{
	/* 4 KiB records: 4 KiB + 48 bytes each in the file */
	static uint8_t data[4096];
	const size_t per = (32 + strlen("cxl_dram") + sizeof(data) + 7) & ~(size_t)7;
	const size_t fit = (CT_KEPT_MAX_BYTES - 8) / per, added = 10 * fit + 3;
	struct ct_event_keep k = { 0 }, back = { 0 };
	bool order = true, bytes = true;
	uint8_t *buf;
	size_t len, bad_at;

	for (size_t i = 0; i < added; i++) {
		data[0] = (uint8_t)i;
		data[sizeof(data) - 1] = (uint8_t)(i >> 8);
		if (ct_event_keep_add(&k, "cxl_dram", i, 1000 + i, (int)(i % 4), data, sizeof(data))) {
			ok(0, "record %zu added", i);
			break;
		}
	}
	is_int((long long)k.n, (long long)fit, "as many as fit in %u bytes stay (%zu)", CT_KEPT_MAX_BYTES, fit);
	is_int((long long)k.dropped, (long long)(added - fit), "the others are counted as dropped");
	is_int((long long)k.bytes, (long long)(8 + fit * per), "the bytes counted are those kept");
	for (size_t i = 0; i < k.n; i++) {
		size_t want = added - fit + i;
		order &= k.r[i].ts == want && k.r[i].real_time == 1000 + want && k.r[i].cpu == (int)(want % 4);
		bytes &= k.r[i].size == sizeof(data) && k.r[i].data[0] == (uint8_t)want &&
			 k.r[i].data[sizeof(data) - 1] == (uint8_t)(want >> 8);
	}
	ok(order, "exactly the newest %zu, oldest first", fit);
	ok(bytes, "each with its own bytes");
	ok(k.moved <= 2 * added, "records moved to drop the oldest: %zu, at most twice the %zu added", k.moved, added);
	/* what is stored is what is kept */
	is_int(ct_event_keep_serialize(&k, &buf, &len), 0, "serialized");
	is_int((long long)len, (long long)k.bytes, "to the bytes counted");
	is_int(ct_event_keep_parse(buf, len, &back, &bad_at), 0, "parsed back");
	ok(back.n == k.n && back.n && back.r[0].ts == k.r[0].ts && back.r[back.n - 1].ts == added - 1 && !back.dropped,
	   "the same records, none dropped on the way");
	free(buf);
	ct_event_keep_free(&back);
	ct_event_keep_free(&k);

	/* one record larger than the rest put together: it alone stays */
	static uint8_t big[CT_KEPT_MAX_RECORD];
	for (size_t i = 0; i < 200; i++)
		ct_event_keep_add(&k, "cxl_dram", i, i, 0, data, 16);
	for (size_t i = 0; i < CT_KEPT_MAX_BYTES / sizeof(big) + 2; i++)
		ct_event_keep_add(&k, "cxl_generic_event", 1000 + i, 0, 0, big, sizeof(big));
	ok(k.bytes <= CT_KEPT_MAX_BYTES && k.n && k.r[k.n - 1].ts == 1000 + CT_KEPT_MAX_BYTES / sizeof(big) + 1 &&
	   k.n + k.dropped == 200 + CT_KEPT_MAX_BYTES / sizeof(big) + 2, "small ones dropped for large ones: %zu kept, "
	   "%lu dropped", k.n, k.dropped);
	ct_event_keep_free(&k);
}

static void store_cases(void)
{
	struct ct_error err = { 0 };
	struct ct_sysfs s;
	struct ct_event_keep k = { 0 }, back;
	char path[600], cmd[2048];
	uint8_t data[64];
	size_t damaged;
	int lock, lock2;

	if (!mkdtemp(tap_tmp_template(root, sizeof(root), "cxltier-test-keep")) || ct_sysfs_open(&s, root, &err)) {
		ok(0, "a throw-away root");
		return;
	}
	snprintf(path, sizeof(path), "%s/run", root);
	mkdir(path, 0755);
	fill(data, sizeof(data), 9);
	is_int(ct_event_keep_load(&s, 1000, NULL, &lock, &back, &damaged), 0, "nothing kept yet: %s", err.msg);
	is_int((long long)back.n, 0, "no records");
	ct_event_keep_add(&k, "cxl_dram", 1, 2, 0, data, sizeof(data));
	ct_event_keep_add(&k, "cxl_poison", 3, 4, 1, data, 10);
	/* what a run killed while it stored left behind */
	snprintf(path, sizeof(path), "%s/run/cxltier/.events.kept.0123456789abcdef", root);
	{
		FILE *f = fopen(path, "w");
		ok(f && fputs("half a store", f) >= 0 && !fclose(f), "a killed run's temporary store");
	}
	is_int(ct_event_keep_store(&s, &k), 0, "stored: %s", err.msg);
	ok(access(path, F_OK) != 0, "the killed run's temporary store is removed");
	/* another reader waits, then gives up naming the holder */
	is_int(ct_event_keep_load(&s, 100, NULL, &lock2, &back, &damaged), -EWOULDBLOCK, "a second reader is refused while "
	       "the first holds the lock");
	ok(strstr(err.msg, "reading CXL events") != NULL, "and told why: %s", err.msg);
	ct_error_clear(&err);
	ct_lock_release(lock);
	is_int(ct_event_keep_load(&s, 1000, NULL, &lock, &back, &damaged), 0, "loaded back");
	ok(back.n == 2 && !strcmp(back.r[1].event, "cxl_poison") && back.r[1].size == 10 && !damaged,
	   "both records, whole");
	snprintf(path, sizeof(path), "%s/run/cxltier/" CT_KEPT_FILE, root);
	ok(access(path, F_OK) == 0, "in the private directory");
	/* nothing left to keep: the file goes */
	ct_event_keep_free(&back);
	ct_event_keep_free(&k);
	is_int(ct_event_keep_store(&s, &k), 0, "an empty store");
	ok(access(path, F_OK) != 0, "removes the file");
	ct_lock_release(lock);

	/* a file cut short (a crash while another tool wrote it): what precedes is kept */
	ct_event_keep_add(&k, "cxl_dram", 1, 2, 0, data, sizeof(data));
	ct_event_keep_add(&k, "cxl_dram", 5, 6, 0, data, sizeof(data));
	ct_event_keep_load(&s, 1000, NULL, &lock, &back, &damaged);
	ct_event_keep_store(&s, &k);
	ct_lock_release(lock);
	ct_event_keep_free(&back);
	truncate(path, (off_t)k.bytes - 3);
	is_int(ct_event_keep_load(&s, 1000, NULL, &lock, &back, &damaged), 0, "a damaged file loads");
	ok(back.n == 1 && damaged > 0, "with the record before the damage (%zu records, %zu bytes dropped)", back.n,
	   damaged);
	ct_lock_release(lock);
	ct_event_keep_free(&back);
	ct_event_keep_free(&k);

	/* larger than any store cxltier writes: refused before it is read
	 * whole, and left as it is */
	ct_event_keep_add(&k, "cxl_dram", 1, 2, 0, data, sizeof(data));
	ct_event_keep_load(&s, 1000, NULL, &lock, &back, &damaged);
	ct_event_keep_store(&s, &k);
	ct_lock_release(lock);
	ct_event_keep_free(&back);
	ct_event_keep_free(&k);
	truncate(path, (off_t)CT_KEPT_MAX_BYTES + 1);
	is_int(ct_event_keep_load(&s, 1000, NULL, &lock, &back, &damaged), -EFBIG, "a store of 4 MiB + 1 byte is refused");
	ok(strstr(err.msg, "move it away") != NULL, "saying what to do: %s", err.msg);
	ct_error_clear(&err);
	{
		struct stat st;
		ok(stat(path, &st) == 0 && st.st_size == (off_t)CT_KEPT_MAX_BYTES + 1, "and the file is untouched");
	}
	truncate(path, (off_t)CT_KEPT_MAX_BYTES);
	is_int(ct_event_keep_load(&s, 1000, NULL, &lock, &back, &damaged), 0, "one of 4 MiB is read (damaged: zeros)");
	ok(back.n == 1 && damaged == CT_KEPT_MAX_BYTES - back.bytes, "its record kept, the rest counted as dropped "
	   "(%zu records, %zu bytes)", back.n, damaged);
	ct_lock_release(lock);
	ct_event_keep_free(&back);

	/* a symlink in its place: refused, and nothing written through it */
	snprintf(cmd, sizeof(cmd), "rm -f '%s' && ln -s '%s/elsewhere' '%s'", path, root, path);
	ok(system(cmd) == 0, "a symlink in place of the store");
	is_int(ct_event_keep_load(&s, 1000, NULL, &lock, &back, &damaged), -ELOOP, "the load refuses it");
	ok(strstr(err.msg, "symlink") != NULL, "and says so: %s", err.msg);
	ct_error_clear(&err);
	snprintf(path, sizeof(path), "%s/elsewhere", root);
	ok(access(path, F_OK) != 0, "nothing was created through it");

	ct_sysfs_close(&s);
	tap_rm_tree(root);
}

int main(void)
{
	bytes_cases();
	bound_linear();
	store_cases();
	return tap_done();
}
