// SPDX-License-Identifier: GPL-2.0-only
/* /etc/cxltier.conf: parsing, matching, and the errors that name the line */
#include <errno.h>
#include "tap.h"
#include "policy.h"

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

int main(void)
{
	struct ct_policy p;
	struct ct_error err = { 0 };
	struct ct_policy_decision d;
	uint64_t serial = 0x1234, other = 0x9999;
	const char *host = "0000:0d:00.0", *host2 = "0000:0e:00.0";

	is_int(ct_policy_parse(conf, "test.conf", &p, &err), 0, "parses: %s", err.msg);
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

	is_int(ct_policy_parse("", "empty", &p, &err), 0, "an empty file parses");
	ct_policy_decide(&p, &s1, &d);
	ok(d.online && d.movable && d.line == 0, "no rules: online movable");
	ct_policy_free(&p);

	is_int(ct_policy_parse("[defaults]\nzone = fast\n", "bad.conf", &p, &err), -EINVAL, "a bad zone");
	ok(strstr(err.msg, "bad.conf:2: zone = fast") != NULL, "names file and line: %s", err.msg);
	is_int(ct_policy_parse("[device colour=red]\n", "bad.conf", &p, &err), -EINVAL, "an unknown match");
	ok(strstr(err.msg, "bad.conf:1") != NULL, "names the line: %s", err.msg);
	is_int(ct_policy_parse("online = yes\n", "bad.conf", &p, &err), -EINVAL, "a key outside a section");
	is_int(ct_policy_parse("[device serial=zz]\n", "bad.conf", &p, &err), -EINVAL, "a serial that is no number");
	is_int(ct_policy_parse("[defaults\n", "bad.conf", &p, &err), -EINVAL, "an unclosed section");
	is_int(ct_policy_parse("[defaults]\nspeed = 3\n", "bad.conf", &p, &err), -EINVAL, "an unknown key");
	return tap_done();
}
