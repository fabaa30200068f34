// SPDX-License-Identifier: GPL-2.0-only
/* /etc/cxltier.conf: parsing, matching, and the errors that name the line
 * and column of anything the parser does not understand */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tap.h"
#include "config/policy.h"
#include "config/events-conf.h"
#include "config/page-retire-conf.h"

static const char conf[] =
	"# comment\n"
	"[defaults]\n"
	"online = yes\n"
	"zone = movable\n"
	"\n"
	"[device serial=0x1234]\n"
	"online = no\n"
	"[device host=0000:0e:00.0]\n"
	"zone = normal\n"
	"[device region=region7]\n"
	"online = false\n"
	"[device any]\n"
	"zone = movable\n";

static struct ct_error err;

static int parse(const char *text, struct ct_policy *p)
{
	return ct_policy_parse(text, strlen(text), "t.conf", p, &err);
}

/* text must fail with -EINVAL and a message starting with where */
static void refused(const char *text, const char *where, const char *what)
{
	struct ct_policy p;
	int rc = parse(text, &p);

	ok(rc == -EINVAL && !strncmp(err.msg, where, strlen(where)), "%s: %s", what, err.msg);
	if (rc == 0)
		ct_policy_free(&p);
}

static void good(const char *text, const char *what)
{
	struct ct_policy p;

	ct_error_clear(&err);
	is_int(parse(text, &p), 0, "%s (%s)", what, err.msg);
	ct_policy_free(&p);
}

static void decisions(void)
{
	struct ct_policy p;
	struct ct_policy_decision d;
	uint64_t serial = 0x1234, other = 0x9999;
	const char *host = "0000:0d:00.0", *host2 = "0000:0e:00.0";

	is_int(parse(conf, &p), 0, "parses: %s", err.msg);
	is_int(p.n, 4, "four device sections");
	struct ct_policy_subject s1 = { "region0", &serial, &host, 1 };
	ct_policy_decide(&p, &s1, &d);
	ok(!d.online && d.line == 6, "serial 0x1234: leave offline (line 6)");
	struct ct_policy_subject s2 = { "region0", &other, &host2, 1 };
	ct_policy_decide(&p, &s2, &d);
	ok(d.online && !d.movable && d.line == 8, "host 0000:0e:00.0: online normal");
	struct ct_policy_subject s3 = { "region7", &other, &host, 1 };
	ct_policy_decide(&p, &s3, &d);
	ok(!d.online, "region7: offline");
	struct ct_policy_subject s4 = { "region1", &other, &host, 1 };
	ct_policy_decide(&p, &s4, &d);
	ok(d.online && d.movable && d.line == 12, "anything else: [device any]");
	ct_policy_free(&p);

	is_int(parse("", &p), 0, "an empty file parses");
	ct_policy_decide(&p, &s1, &d);
	ok(d.online && d.movable && d.line == 0, "no rules: online movable");
	ct_policy_free(&p);

	is_int(parse("[defaults]\ncreate-region = yes\n[device serial=0x1234]\ncreate-region = no\nreonline = yes\n",
		     &p), 0, "create-region and reonline: %s", err.msg);
	ct_policy_decide(&p, &s1, &d);
	ok(!d.create_region && d.reonline && d.online && d.line == 3, "a [device] section overrides create-region");
	ct_policy_decide(&p, &s2, &d);
	ok(d.create_region && !d.reonline && d.line == 0, "[defaults] create-region, reonline unset: no");
	ct_policy_free(&p);
	is_int(parse("", &p), 0, "no file");
	ct_policy_decide(&p, &s1, &d);
	ok(!d.create_region && !d.reonline, "without a policy: no region created, nothing re-onlined");
	ct_policy_free(&p);
	is_int(parse("[defaults]\ninterleave-weights = yes\n[device serial=0x1234]\ninterleave-weights = no\n", &p), 0,
	       "interleave-weights: %s", err.msg);
	ct_policy_decide(&p, &s1, &d);
	ok(!d.weights, "a [device] section's interleave-weights = no wins");
	ct_policy_decide(&p, &s2, &d);
	ok(d.weights, "[defaults] interleave-weights = yes");
	ct_policy_free(&p);
	is_int(parse("", &p), 0, "no file");
	ct_policy_decide(&p, &s1, &d);
	ok(!d.weights, "without a policy: the weights left alone");
	ct_policy_free(&p);

	is_int(parse("[defaults]\r\nonline = no\r\n", &p), 0, "CR LF line ends");
	ct_policy_decide(&p, &s1, &d);
	ok(!d.online, "... and their values count");
	ct_policy_free(&p);
}

static void errors(void)
{
	/* what used to be dropped or cut silently */
	refused("[defaults] online = no\n", "t.conf:1:12: unexpected text after ']'", "text after ']' (used to be dropped)");
	refused("[device serial=0x1234]      # or host=...\nonline = no\n", "t.conf:1:29: unexpected text after ']'",
		"a comment after ']'");
	refused("[defaults]\nonline = no # never\n", "t.conf:2:13: unexpected text after 'online = no'",
		"a comment after a value");
	/* each kind of error, with line and column */
	refused("[defaults]\nzone = fast\n", "t.conf:2:8: zone = fast: expected movable or normal", "a bad zone");
	refused("[device colour=red]\n", "t.conf:1:9: unknown match 'colour'", "an unknown match");
	refused("online = yes\n", "t.conf:1:1: 'online' outside a section", "a key outside a section");
	refused("[device serial=zz]\n", "t.conf:1:16: serial 'zz' is not a number", "a serial that is no number");
	refused("[device serial=-1]\n", "t.conf:1:16: serial '-1' is not a number", "a negative serial");
	refused("[device serial=0x1ffffffffffffffff]\n", "t.conf:1:16: serial", "a serial past 64 bits");
	refused("[defaults\n", "t.conf:1:10: section header without ']'", "an unclosed section");
	refused("[defaults]\nspeed = 3\n", "t.conf:2:1: unknown key 'speed'", "an unknown key");
	refused("[defaults]\n  online\n", "t.conf:2:9: expected '=' after 'online'", "a key without value");
	refused("[defaults]\nonline =\n", "t.conf:2:9: online = : a value is missing", "an empty value");
	refused("[defaults]\nonline = yes\nonline = no\n", "t.conf:3:1: 'online' set twice in this section (first on line 2)",
		"a key set twice");
	refused("[defaults]\ncreate-region = maybe\n", "t.conf:2:17: create-region = maybe: expected yes or no",
		"create-region takes yes or no");
	refused("[device any]\nreonline = yes\nreonline = no\n", "t.conf:3:1: 'reonline' set twice in this section",
		"reonline set twice");
	refused("[defaults]\ncreate_region = yes\n", "t.conf:2:1: unknown key 'create_region' (online, zone, create-region, reonline,",
		"create_region misspelt");
	refused("[defaults]\n[defaults]\n", "t.conf:2:2: a second [defaults] (the first is on line 1)", "two [defaults]");
	refused("[device]\n", "t.conf:1:8: [device]: say which", "[device] alone");
	refused("[devices any]\n", "t.conf:1:2: unknown section [devices any]", "a misspelt section");
	refused("[deviceany]\n", "t.conf:1:2: unknown section [deviceany]", "no blank after device");
	refused("[device any more]\n", "t.conf:1:13: [device any]: unexpected text", "words after any");
	refused("[device serial=1 host=0000:0d:00.0]\n", "t.conf:1:18: [device ...]: one KEY=VALUE per section",
		"two matches in one section");
	refused("[device host=0000:0d:00.0 extra]\n", "t.conf:1:27: [device ...]: one KEY=VALUE", "a value with blanks");
	refused("[device region=7]\n", "t.conf:1:16: region '7': expected regionN", "a region that is no region name");
	refused("[device region=]\n", "t.conf:1:16: [device region=]: a value is missing", "an empty match value");
	refused("[]\n", "t.conf:1:2: empty section name", "an empty section");
	refused("[defaults]\nonline = yes\x01\n", "t.conf:2:13: a control byte 0x01", "a control byte");
	refused("[defaults]\nzone\t=\tmovable\n\n\nwhat\n", "t.conf:5:5: expected '=' after 'what'", "a bare word, later line");
	refused("[device host=0000:0d:00.0000000000000000000000000000000000000000000000000000000000000000000]\n",
		"t.conf:1:14: value longer than 63 characters", "a value too long for the rule");
	/* at the bound: 64 characters are one too many, 63 fit */
	refused("[device host=0000000000000000000000000000000000000000000000000000000000000000]\n", "t.conf:1:14: value longer than 63 characters", "a value of 64 characters");
	good("[device host=000000000000000000000000000000000000000000000000000000000000000]\n", "a value of 63 characters");
	/* still fine */
	good("  # indented comment\n; another\n\t[ defaults ]  \n\tonline=YES\n", "blanks, comments, case of values");
	good("[device host=0000:0d:00.0]\n[device any]\nonline = off\n", "an empty device section");
	good("[defaults]\nonline = yes", "no newline at the end");
}

/* the sections of other commands, and page retirement per device */
static void retire(void)
{
	static const char text[] =
		"[events]\nretire-pages = yes\nstore-max-age = 90d\n"
		"[device serial=0x1234]\nretire-pages = no\n"
		"[device serial=0x99]\nretire-threshold = 3\nretire-window = 1h\nretire-limit = 0\n"
		"[migrate]\njobs = 2\n";
	struct ct_policy p;
	struct ct_policy_decision d;
	uint64_t serial = 0x1234;
	struct ct_policy_subject s = { .serials = &serial, .nmemdevs = 1 };

	/* the [events] section broke `online --policy` before: "unknown section [events]" */
	is_int(parse(text, &p), 0, "[events] and [migrate] are skipped, retire-* taken in [device ...]: %s", err.msg);
	ct_policy_decide(&p, &s, &d);
	ok(d.retire.pages == 0 && d.retire.threshold == -1 && d.online, "serial 0x1234: retire-pages = no, the rest unset");
	serial = 0x99;
	ct_policy_decide(&p, &s, &d);
	ok(d.retire.pages == -1 && d.retire.threshold == 3 && d.retire.window_s == 3600 && d.retire.limit == 0,
	   "serial 0x99: threshold 3, window 1h, no limit");
	serial = 7;
	ct_policy_decide(&p, &s, &d);
	ok(d.retire.pages == -1 && d.retire.threshold == -1 && d.retire.window_s == -1 && d.retire.limit == -1,
	   "no section: nothing set (the [events] settings apply)");
	ct_policy_free(&p);
	refused("[defaults]\nretire-pages = yes\n", "t.conf:2:1: retire-pages: page retirement is set in [events]",
		"retire-* in [defaults]");
	refused("[device any]\nretire-pages = maybe\n", "t.conf:2:16: retire-pages = maybe: yes or no",
		"retire-pages takes yes or no");
	refused("[device any]\nretire-threshold = 0\n", "t.conf:2:20: retire-threshold = 0: a number of errors",
		"a threshold of 0");
	refused("[device any]\nretire-window = soon\n", "t.conf:2:17: retire-window = soon: a duration",
		"a window that is no duration");
	refused("[device any]\nretire-limit = -1\n", "t.conf:2:16: retire-limit = -1: a number of pages",
		"a negative limit");
	refused("[device any]\nretire-limit = 1\nretire-limit = 2\n", "t.conf:3:1: 'retire-limit' set twice",
		"a retire key set twice");
	/* a value past the parser's buffer is refused whole: cut to its first
	 * 63 characters, 70 zeros and an x would read as a limit of 0 */
	refused("[device any]\nretire-limit = "
		"0000000000000000000000000000000000000000000000000000000000000000000000x\n",
		"t.conf:2:16: retire-limit: the value is too long", "a value longer than any good one");
	/* the buffer's length exactly (64): refused as too long, not read as "" */
	refused("[device any]\nretire-limit = "
		"0000000000000000000000000000000000000000000000000000000000000000\n",
		"t.conf:2:16: retire-limit: the value is too long", "a retire value of 64 characters, the buffer's length");
	good("[device any]\nretire-limit = "
		"000000000000000000000000000000000000000000000000000000000000000\n", "a retire value of 63 characters");
	/* one reader of the retire keys for [events] and [device ...]: they
	 * took different spellings of yes before (YES only in [device ...]) */
	{
		static const char *const bad[][2] = {
			{ "retire-pages = maybe", "yes or no" }, { "retire-threshold = 0", "a number of errors, 1 or more" },
			{ "retire-window = 0", "a duration such as 24h or 7d" },
			{ "retire-limit = 1000001", "a number of pages an hour (0: no limit)" },
		};
		struct ct_events_conf ec;
		char t[128], want[160];
		is_int(ct_events_conf_parse("[events]\nretire-pages = YES\nretire-threshold = 7\n", "t.conf", &ec, &err), 0,
		       "[events] retire-pages = YES: %s", err.msg);
		ok(ec.retire.retire && ec.retire.threshold == 7, "[events] takes YES as [device ...] does");
		is_int(parse("[device any]\nretire-pages = YES\n", &p), 0, "[device any] retire-pages = YES: %s", err.msg);
		ct_policy_free(&p);
		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			snprintf(t, sizeof(t), "[events]\n%s\n", bad[i][0]);
			snprintf(want, sizeof(want), "t.conf:2: %s: %s", bad[i][0], bad[i][1]);
			ct_error_clear(&err);
			ok(ct_events_conf_parse(t, "t.conf", &ec, &err) == -EINVAL && !strcmp(err.msg, want),
			   "[events] %s refused as [device ...] refuses it: %s", bad[i][0], err.msg);
			snprintf(t, sizeof(t), "[device any]\n%s\n", bad[i][0]);
			ok(parse(t, &p) == -EINVAL && strstr(err.msg, bad[i][1]), "[device any] %s: %s", bad[i][0], err.msg);
		}
	}
	refused("[event]\n", "t.conf:1:2: unknown section [event] (expected [defaults], [device ...], [events] or "
		"[migrate])", "a misspelt [events]");
}

/* a device's page retirement: [events], then what the first matching
 * [device ...] section sets (config/page-retire-conf.c) */
static void retire_merged(void)
{
	static const char text[] =
		"[events]\nretire-threshold = 20\n"
		"[device serial=0x1234]\nretire-pages = yes\nretire-window = 1h\n"
		"[device any]\nretire-limit = 0\n";
	struct ct_events_conf ec;
	struct ct_page_retire_conf c, def;
	struct ct_policy p, none = { 0 };
	uint64_t serial = 0x1234;
	struct ct_policy_subject s = { .serials = &serial, .nmemdevs = 1 };

	ct_page_retire_conf_defaults(&def);
	ok(!def.retire && def.threshold == 50 && def.window_s == 86400 && def.limit == 16,
	   "the defaults: off, 50 errors within 24 h, 16 pages an hour");
	is_int(ct_events_conf_parse(text, "t.conf", &ec, &err), 0, "[events]: %s", err.msg);
	is_int(parse(text, &p), 0, "[device ...]: %s", err.msg);
	ct_page_retire_conf_for(&ec.retire, &p, &s, &c);
	ok(c.retire && c.threshold == 20 && c.window_s == 3600 && c.limit == 16,
	   "serial 0x1234: its section's retire-pages and window, [events]' threshold, the default limit");
	serial = 7;
	ct_page_retire_conf_for(&ec.retire, &p, &s, &c);
	ok(!c.retire && c.threshold == 20 && c.window_s == 86400 && c.limit == 0,
	   "another device: [device any] alone decides (its limit), the rest from [events]");
	ok(ct_page_retire_conf_any(&ec.retire, &p), "retirement is on for some device (a section turns it on)");
	ok(!ct_page_retire_conf_any(&ec.retire, &none), "... and for none without the sections");
	ct_policy_free(&p);
}

/* a NUL byte ends nothing: it is an error where it is */
static void nul(void)
{
	static const char text[] = "[defaults]\nonline = no\0\nzone = normal\n";
	struct ct_policy p;

	is_int(ct_policy_parse(text, sizeof(text) - 1, "t.conf", &p, &err), -EINVAL, "a NUL byte is an error");
	ok(strstr(err.msg, "t.conf:2:12: a NUL byte") != NULL, "names line and column: %s", err.msg);
}

/* the parser reads len bytes and not one more: a text handed over as a
 * slice of a larger buffer ends at its length, whatever follows it there
 * (a blank, or text: the last line's value or header is not run on into it) */
static void slice(void)
{
	static const char value[] = "[defaults]\nonline = no  zone";
	static const char header[] = "[defaults]\nonline = no\n[device any]   x";
	struct ct_policy p;

	ct_error_clear(&err);
	is_int(ct_policy_parse(value, sizeof("[defaults]\nonline = no") - 1, "t.conf", &p, &err), 0,
	       "a value that ends the text ends at its length: %s", err.msg);
	is_int(p.defaults.online, 0, "... and is read");
	ct_policy_free(&p);
	ct_error_clear(&err);
	is_int(ct_policy_parse(header, sizeof("[defaults]\nonline = no\n[device any]") - 1, "t.conf", &p, &err), 0,
	       "a section header that ends the text ends at its length: %s", err.msg);
	is_int((int)p.n, 1, "... and is read");
	ct_policy_free(&p);
}

/* the size limit, through the file reader */
static void limit(void)
{
	char path[512];
	struct ct_policy p;
	int fd = mkstemp(tap_tmp_template(path, sizeof(path), "cxltier-test-policy"));
	char *big = malloc(CT_POLICY_MAX + 1);

	memset(big, '#', CT_POLICY_MAX);
	memcpy(big + CT_POLICY_MAX - 13, "\n[defaults]\n\n", 13);
	ok(fd >= 0 && write(fd, big, CT_POLICY_MAX) == CT_POLICY_MAX, "a file of exactly the limit");
	is_int(ct_policy_load(path, &p, &err), 0, "... is read whole: %s", err.msg);
	ok(p.defaults.line != 0, "... up to its last line");
	ct_policy_free(&p);
	ok(write(fd, "\n", 1) == 1, "one byte more");
	is_int(ct_policy_load(path, &p, &err), -EFBIG, "... is refused, not cut");
	ok(strstr(err.msg, "larger than 65536 bytes") != NULL, "says the limit: %s", err.msg);
	is_int(ct_policy_parse(big, CT_POLICY_MAX + 1, "t.conf", &p, &err), -EFBIG, "the parser checks it too");
	is_int(ct_policy_load("/nonexistent/cxltier.conf", &p, &err), -ENOENT, "a missing file: -ENOENT");
	close(fd);
	unlink(path);
	free(big);
}

/* the size limit of the reader of the other sections (core/conf.c), through
 * [events]: a file of exactly 64 KiB is read whole, one byte more refused */
static void conf_limit(void)
{
	static const char tail[] = "\n[events]\nretire-threshold = 7\n";
	char path[512];
	struct ct_events_conf ec;
	int fd = mkstemp(tap_tmp_template(path, sizeof(path), "cxltier-test-conf"));
	char *big = malloc(65536);

	memset(&ec, 0, sizeof(ec));
	memset(big, '#', 65536);
	memcpy(big + 65536 - strlen(tail), tail, strlen(tail));
	ok(fd >= 0 && write(fd, big, 65536) == 65536, "a file of exactly 64 KiB");
	ct_error_clear(&err);
	is_int(ct_events_conf_load(path, true, &ec, &err), 0, "... is read whole: %s", err.msg);
	is_int(ec.retire.threshold, 7, "... up to its last line");
	ok(write(fd, "\n", 1) == 1, "one byte more");
	is_int(ct_events_conf_load(path, true, &ec, &err), -EFBIG, "... is refused, not cut");
	ok(strstr(err.msg, "larger than 64 KiB") != NULL, "says the limit: %s", err.msg);
	close(fd);
	unlink(path);
	free(big);
}

int main(void)
{
	decisions();
	errors();
	retire();
	retire_merged();
	nul();
	slice();
	limit();
	conf_limit();
	return tap_done();
}
