// SPDX-License-Identifier: LGPL-2.1-or-later
/* page-retire-conf.c - page retirement's settings per device: see
 * page-retire-conf.h */
#include "config/page-retire-conf.h"

void ct_page_retire_conf_defaults(struct ct_page_retire_conf *c)
{
	c->retire = false;
	c->threshold = CT_PAGE_RETIRE_THRESHOLD;
	c->window_s = CT_PAGE_RETIRE_WINDOW;
	c->limit = CT_PAGE_RETIRE_LIMIT;
}

void ct_page_retire_conf_for(const struct ct_page_retire_conf *base, const struct ct_policy *p,
			     const struct ct_policy_subject *s, struct ct_page_retire_conf *out)
{
	struct ct_policy_decision d;

	*out = *base;
	ct_policy_decide(p, s, &d);
	if (d.retire.pages >= 0)
		out->retire = d.retire.pages;
	if (d.retire.threshold >= 0)
		out->threshold = (unsigned)d.retire.threshold;
	if (d.retire.window_s >= 0)
		out->window_s = (uint64_t)d.retire.window_s;
	if (d.retire.limit >= 0)
		out->limit = (unsigned)d.retire.limit;
}

bool ct_page_retire_conf_any(const struct ct_page_retire_conf *base, const struct ct_policy *p)
{
	if (base->retire)
		return true;
	for (size_t i = 0; i < p->n; i++)
		if (p->rule[i].retire.pages == 1)
			return true;
	return false;
}
