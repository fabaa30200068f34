// SPDX-License-Identifier: GPL-2.0-only
/* weighted-interleave weights from bandwidth, as mm/mempolicy.c's
 * reduce_interleave_weights() gives them: weightiness 32, integer
 * division, 1 for a node without bandwidth or at most 1/32 of the sum,
 * then divided by the GCD */
#include <stdint.h>
#include "tap.h"
#include "mm/interleave-compute.h"

#define FIG(n, r, w) { .node = (n), .present = true, .read_bandwidth = (r), .write_bandwidth = (w) }

static struct ct_wi_step st[64];
static struct ct_wi_result r;

int main(void)
{
	struct ct_wi_figures one[] = { FIG(0, 20480, 20480) };
	ct_wi_compute(one, 1, st, &r);
	is_int(st[0].raw, 32, "one node: 32 * bw / bw = 32");
	is_int(r.gcd, 32, "one node: the GCD is its weight");
	is_int(st[0].weight, 1, "one node: weight 1");

	/* DRAM 2:1 CXL: 32*2/3 = 21.3, 32/3 = 10.7: the kernel's 21:10, not 2:1 */
	struct ct_wi_figures two[] = { FIG(0, 20480, 20480), FIG(1, 10240, 16000) };
	ct_wi_compute(two, 2, st, &r);
	is_int(r.sum, 30720, "the sum of min(read, write)");
	is_int(st[1].bandwidth, 10240, "the smaller of read and write is the node's bandwidth");
	is_int(st[0].scaled, 655360, "scaled: 32 * bandwidth");
	is_int(st[0].weight, 21, "2:1 bandwidth: DRAM 21 (floor of 21.3)");
	is_int(st[1].weight, 10, "2:1 bandwidth: CXL 10 (floor of 10.7)");
	is_int(r.gcd, 1, "21 and 10: GCD 1");
	is_int(st[0].why, CT_WI_SCALED, "scaled");

	struct ct_wi_figures three1[] = { FIG(0, 30000, 30000), FIG(1, 10000, 10000) };
	ct_wi_compute(three1, 2, st, &r);
	is_int(st[0].raw, 24, "3:1: raw 24");
	is_int(st[1].raw, 8, "3:1: raw 8");
	is_int(r.gcd, 8, "3:1: GCD 8");
	ok(st[0].weight == 3 && st[1].weight == 1, "3:1 bandwidth: weights 3 and 1 (24:8 reduced)");

	struct ct_wi_figures even[] = { FIG(0, 5000, 5000), FIG(1, 5000, 5000), FIG(2, 5000, 5000) };
	ct_wi_compute(even, 3, st, &r);
	ok(r.gcd == 10 && st[0].weight == 1 && st[1].weight == 1 && st[2].weight == 1,
	   "three equal nodes: 10:10:10 reduced to 1:1:1");

	struct ct_wi_figures none[] = { FIG(0, 20480, 20480), { .node = 1 } };
	ct_wi_compute(none, 2, st, &r);
	is_int(r.sum, 20480, "a node without figures counts 0 in the sum");
	is_int(st[1].why, CT_WI_NO_FIGURES, "a node without figures is said as such");
	ok(st[0].weight == 32 && st[1].weight == 1, "a node without figures: 1, the other all 32");

	struct ct_wi_figures zero[] = { FIG(0, 20480, 20480), FIG(1, 16000, 0) };
	ct_wi_compute(zero, 2, st, &r);
	is_int(st[1].bandwidth, 0, "write bandwidth 0: the node's bandwidth is 0");
	is_int(st[1].why, CT_WI_ZERO, "a zero bandwidth is said as such");
	ok(st[0].weight == 32 && st[1].weight == 1, "zero bandwidth: weight 1");

	struct ct_wi_figures allzero[] = { FIG(0, 0, 0), { .node = 1 } };
	ct_wi_compute(allzero, 2, st, &r);
	ok(r.sum == 0 && r.gcd == 1 && st[0].weight == 1 && st[1].weight == 1,
	   "no bandwidth anywhere: sum 0, every weight 1, no division by 0");

	/* 32 * 1000 = 32000 < 101000: at most 1/32 of the sum gets 1 */
	struct ct_wi_figures small[] = { FIG(0, 100000, 100000), FIG(1, 1000, 1000) };
	ct_wi_compute(small, 2, st, &r);
	is_int(st[0].weight, 31, "3200000 / 101000 = 31");
	is_int(st[1].why, CT_WI_SMALL, "a node at most 1/32 of the sum: small");
	is_int(st[1].weight, 1, "small: weight 1");
	/* exactly 1/32: the kernel's test is sum < scaled, strictly */
	struct ct_wi_figures edge[] = { FIG(0, 31000, 31000), FIG(1, 1000, 1000) };
	ct_wi_compute(edge, 2, st, &r);
	ok(st[1].why == CT_WI_SMALL && st[1].raw == 1 && st[0].raw == 31, "exactly 1/32 of the sum: 1 by the else branch");

	/* many nodes: 40 equal ones are each 1/40 < 1/32 of the sum */
	struct ct_wi_figures many[40];
	for (int i = 0; i < 40; i++)
		many[i] = (struct ct_wi_figures)FIG(i, 1000, 1000);
	ct_wi_compute(many, 40, st, &r);
	ok(r.sum == 40000 && r.gcd == 1 && st[0].weight == 1 && st[39].weight == 1 && st[39].why == CT_WI_SMALL,
	   "40 equal nodes: each below 1/32 of the sum, all 1");
	/* 16 equal nodes: 2 each, GCD 2 */
	ct_wi_compute(many, 16, st, &r);
	ok(r.gcd == 2 && st[15].raw == 2 && st[15].weight == 1, "16 equal nodes: 2 each, GCD 2, all 1");
	/* 64 nodes, one fast: 64000 of 127000 */
	struct ct_wi_figures mixed[64];
	for (int i = 0; i < 64; i++)
		mixed[i] = (struct ct_wi_figures)FIG(i, i ? 1000 : 64000, i ? 1000 : 64000);
	ct_wi_compute(mixed, 64, st, &r);
	ok(st[0].weight == 16 && st[63].weight == 1 && st[63].why == CT_WI_SMALL, "64 nodes, one half the bandwidth: 16 and 1s");

	/* huge: no overflow in the sum or the product */
	struct ct_wi_figures huge[] = { FIG(0, UINT32_MAX, UINT32_MAX), FIG(1, UINT32_MAX, UINT32_MAX),
					 FIG(2, 1ull << 40, 1ull << 40) };
	ct_wi_compute(huge, 3, st, &r);
	is_int(r.sum, 3ull * UINT32_MAX, "huge figures: the sum in 64 bits");
	ok(st[2].clamped && st[2].bandwidth == UINT32_MAX, "a figure above 2^32-1 taken as the kernel's largest");
	ok(st[0].kernel_wraps, "32 * 2^32-1 is flagged: the kernel's 32-bit product wraps there");
	ok(st[0].raw == 10 && st[0].weight == 1 && st[2].weight == 1, "huge equal figures: 10 each, 1:1:1");
	struct ct_wi_figures big[] = { FIG(0, 134217727, 134217727), FIG(1, 134217727, 134217727) };
	ct_wi_compute(big, 2, st, &r);
	ok(!st[0].kernel_wraps && st[0].raw == 16, "134217727 MB/s: the kernel's product still fits");

	ct_wi_compute(NULL, 0, st, &r);
	ok(r.n == 0 && r.gcd == 0 && r.sum == 0, "no nodes: nothing");
	is_str(ct_wi_why_name(CT_WI_NO_FIGURES), "no-figures", "names");
	return tap_done();
}
