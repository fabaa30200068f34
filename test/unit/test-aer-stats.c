// SPDX-License-Identifier: GPL-2.0-only
/* the kernel's AER counts (aer_dev_correctable, _nonfatal, _fatal) as read */
#include <errno.h>
#include "tap.h"
#include "cxl/aer-stats.h"

int main(void)
{
	static const char *const bad[] = {
		"RxErr", "RxErr  1", "RxErr -1", "RxErr 1x", "Rx Err 1", " 1", "RxErr 99999999999999999999999",
		"ThisNameIsFarTooLongForAnyAerKind 1", "RxErr 1 ", "Rx\"Err 1",
	};
	struct ct_aer_stats st = { 0 };

	is_int(ct_aer_stats_parse("RxErr 0\nBadTLP 2\nCorrIntErr 18446744073709551615\nTOTAL_ERR_COR 7\n",
				  CT_AER_CORRECTABLE, &st), 0, "correctable counts");
	is_int(st.ncounts, 3, "one count a kind, the total apart");
	is_str(st.counts[2].kind, "CorrIntErr", "the kernel's name");
	ok(st.counts[2].n == 18446744073709551615ULL, "a 64-bit count");
	ok(st.total[CT_AER_CORRECTABLE] == 7, "TOTAL_ERR_COR");
	is_int(ct_aer_stats_parse("Undefined 0\nUncorrIntErr 4\nTOTAL_ERR_FATAL 4", CT_AER_FATAL, &st), 0,
	       "fatal counts, no final newline");
	is_int(st.ncounts, 5, "added to the correctable ones");
	is_str(ct_aer_severity_name(st.counts[4].severity), "fatal", "of their severity");
	ok(st.counts[4].n == 4, "UncorrIntErr 4");
	is_int(ct_aer_stats_parse("", CT_AER_NONFATAL, &st), 0, "an empty file");
	is_int(ct_aer_stats_parse("RxErr 1\n", CT_AER_NSEVERITIES, &st), -EINVAL, "no such severity");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ct_aer_stats b = { 0 };
		is_int(ct_aer_stats_parse(bad[i], CT_AER_NONFATAL, &b), -EBADMSG, "not a count line: '%s'", bad[i]);
		ct_aer_stats_free(&b);
	}
	ct_aer_stats_free(&st);
	ok(st.counts == NULL && st.ncounts == 0, "freed");
	return tap_done();
}
