// SPDX-License-Identifier: LGPL-2.1-or-later
/* interleave-compute.c - weights from bandwidth as the kernel's auto mode
 * reduces them (see interleave-compute.h) */
#include "mm/interleave-compute.h"

static unsigned gcd(unsigned a, unsigned b)
{
	while (b) {
		unsigned t = a % b;

		a = b;
		b = t;
	}
	return a;
}

const char *ct_wi_why_name(enum ct_wi_why w)
{
	switch (w) {
	case CT_WI_SCALED: return "scaled";
	case CT_WI_NO_FIGURES: return "no-figures";
	case CT_WI_ZERO: return "zero";
	case CT_WI_SMALL: return "small";
	}
	return "?";
}

static uint64_t clamp32(uint64_t v, bool *clamped)
{
	if (v > UINT32_MAX) {
		*clamped = true;
		return UINT32_MAX;
	}
	return v;
}

void ct_wi_compute(const struct ct_wi_figures *in, size_t n, struct ct_wi_step *steps,
		   struct ct_wi_result *r)
{
	r->weightiness = CT_WI_WEIGHTINESS;
	r->sum = 0;
	r->gcd = 0;
	r->n = n;
	r->steps = steps;
	for (size_t i = 0; i < n; i++) {
		struct ct_wi_step *s = &steps[i];
		uint64_t rd, wr;

		*s = (struct ct_wi_step){ .node = in[i].node };
		if (in[i].present) {
			rd = clamp32(in[i].read_bandwidth, &s->clamped);
			wr = clamp32(in[i].write_bandwidth, &s->clamped);
			s->bandwidth = rd < wr ? rd : wr;
		}
		s->scaled = (uint64_t)CT_WI_WEIGHTINESS * s->bandwidth;
		s->kernel_wraps = s->scaled > UINT32_MAX;
		r->sum += s->bandwidth;	/* at most 2^32 nodes of 2^32-1 each: fits */
	}
	for (size_t i = 0; i < n; i++) {
		struct ct_wi_step *s = &steps[i];

		if (s->bandwidth && r->sum < s->scaled) {
			s->why = CT_WI_SCALED;
			s->raw = (unsigned)(s->scaled / r->sum);
		} else {
			s->why = !in[i].present ? CT_WI_NO_FIGURES : !s->bandwidth ? CT_WI_ZERO : CT_WI_SMALL;
			s->raw = 1;
		}
		r->gcd = r->gcd ? gcd(r->gcd, s->raw) : s->raw;
	}
	for (size_t i = 0; i < n; i++)
		steps[i].weight = steps[i].raw / r->gcd;
}
