// SPDX-License-Identifier: GPL-2.0-only
/* Sizes as util-linux's strtosize reads them (lib/core/units.c): K, KiB
 * binary, KB decimal, fractions, hex bytes, and what must be refused; and
 * as util-linux prints them; durations as systemd.time writes them. */
#include <errno.h>
#include "tap.h"
#include "core/conf.h"
#include "core/units.h"

static long long size(const char *s)
{
	uint64_t v = 0;
	int rc = ct_parse_size(s, &v);

	return rc ? rc : (long long)v;
}

/* the config file's durations: systemd.time's spans, whole seconds, at
 * most 100 years */
static long long duration(const char *s)
{
	uint64_t v = 0;
	int rc = ct_conf_duration(s, CT_CONF_DURATION_MAX_S, &v);

	return rc == -ERANGE ? -2 : rc ? -1 : (long long)v;
}

int main(void)
{
	is_int(size("4096"), 4096, "bytes");
	is_int(size("0"), 0, "none");
	is_int(size("0x40000000"), 1 << 30, "hex bytes");
	is_int(size("1K"), 1024, "K: 1024");
	is_int(size("1k"), 1024, "k as K");
	is_int(size("1KiB"), 1024, "KiB");
	is_int(size("1KB"), 1000, "KB: 1000, as util-linux");
	is_int(size("2G"), 2LL << 30, "G");
	is_int(size("2GiB"), 2LL << 30, "GiB");
	is_int(size("2GB"), 2000000000LL, "GB: 10^9");
	is_int(size("1.5G"), 3LL << 29, "a fraction of a G");
	is_int(size("0.5K"), 512, "a fraction below one");
	is_int(size("1T"), 1LL << 40, "T");
	is_int(size("1P"), 1LL << 50, "P");
	is_int(size("15E"), (long long)(15ULL << 60), "E");
	is_int(size("16E"), -ERANGE, "past 2^64: out of range");
	is_int(size("99999999999999999999"), -ERANGE, "a number past 2^64");
	is_int(size(""), -EINVAL, "nothing");
	is_int(size("-1G"), -EINVAL, "a negative size");
	is_int(size("1X"), -EINVAL, "an unknown suffix");
	is_int(size("1Gb"), -EINVAL, "a bit is not a byte");
	is_int(size("1GiBs"), -EINVAL, "a tail after the unit");
	is_int(size("G"), -EINVAL, "a unit without a number");
	is_int(size("0x"), -EINVAL, "0x alone");
	is_int(size("0x1.5"), -EINVAL, "no fraction of hex");

	is_int(duration("3600"), 3600, "duration: a bare number is seconds");
	is_int(duration("30m"), 1800, "duration: m is minutes");
	is_int(duration("5min"), 300, "duration: min, as systemd.time");
	is_int(duration("1w"), 604800, "duration: a week");
	is_int(duration("1w 2d"), 777600, "duration: spans summed");
	is_int(duration("1.5h"), 5400, "duration: a fraction of an hour");
	is_int(duration("0"), 0, "duration: none");
	is_int(duration("500ms"), -1, "duration: not whole seconds");
	is_int(duration("soon"), -1, "duration: not a span");
	is_int(duration("-1h"), -1, "duration: negative");
	is_int(duration("100y"), 3155760000LL, "duration: 100 years, the most");
	is_int(duration("999999d"), -2, "duration: past 100 years, out of range (not overflowed)");

	/* and said back as util-linux prints them */
	char b[32];
	is_str(ct_size_text(512, b, sizeof(b)), "512", "bytes below 1K: the number");
	is_str(ct_size_text(4096, b, sizeof(b)), "4K", "4K");
	is_str(ct_size_text(3ULL << 29, b, sizeof(b)), "1.5G", "a tenth shown");
	is_str(ct_size_text(896ULL << 20, b, sizeof(b)), "896M", "896M");
	is_str(ct_size_text(1ULL << 40, b, sizeof(b)), "1T", "T");
	return tap_done();
}
