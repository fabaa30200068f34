// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target: the policy file (/etc/cxltier.conf) parser, then a
 * decision for devices that match each section the parser kept. A parse
 * either fails with a message and nothing kept, or keeps sections whose
 * lines exist; a decision names the built-in default (0) or a kept section. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "config/policy.h"

static void decide(const struct ct_policy *p, const struct ct_policy_subject *s, unsigned lines)
{
	struct ct_policy_decision d;
	bool known = false;

	ct_policy_decide(p, s, &d);
	for (size_t i = 0; i < p->n; i++)
		known |= p->rule[i].line == d.line;
	if (d.line > lines || (d.line && !known))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* exactly the input, no terminator: the parser takes a length */
	char *text = malloc(size ? size : 1);
	struct ct_policy p;
	struct ct_error err = { 0 };
	unsigned lines = 1;

	if (!text)
		return 0;
	memcpy(text, data, size);
	for (size_t i = 0; i < size; i++)
		lines += text[i] == '\n';
	if (ct_policy_parse(text, size, "fuzz.conf", &p, &err)) {
		if (!err.code || !err.msg[0] || p.rule || p.n)
			abort();
	} else {
		struct ct_policy_subject none = { 0 };
		decide(&p, &none, lines);
		for (size_t i = 0; i < p.n; i++) {
			const struct ct_policy_rule *r = &p.rule[i];
			const char *host = r->value;
			struct ct_policy_subject s = { r->value, &r->serial, &host, 1 };
			if (memchr(r->value, '\0', sizeof(r->value)) == NULL || r->line == 0 || r->line > lines ||
			    r->online < -1 || r->online > 1 || r->movable < -1 || r->movable > 1)
				abort();
			decide(&p, &s, lines);
		}
		ct_policy_free(&p);
		ct_policy_free(&p);
	}
	free(text);
	return 0;
}
