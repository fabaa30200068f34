/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * aer-stats.h - the PCIe AER errors the kernel counted on a PCI device since
 * boot: sysfs aer_dev_correctable, aer_dev_nonfatal and aer_dev_fatal, one
 * "NAME COUNT" line per error kind and a TOTAL_ERR_* line (drivers/pci/pcie/
 * aer.c; present when the kernel has CONFIG_PCIEAER and the device an AER
 * capability). Counts the kernel keeps itself: reading them leaves nothing
 * behind and misses nothing since boot. For a CXL memdev, the CXL RAS errors
 * of the device (the cxl_aer_*_error tracepoints) arrive as the internal
 * errors CorrIntErr and UncorrIntErr.
 */
#ifndef CXLTIER_AER_STATS_H
#define CXLTIER_AER_STATS_H

#include <stddef.h>
#include <stdint.h>
#include "core/sysfs.h"

enum ct_aer_severity { CT_AER_CORRECTABLE, CT_AER_NONFATAL, CT_AER_FATAL, CT_AER_NSEVERITIES };

struct ct_aer_count {
	char kind[32];			/* the kernel's name: RxErr, CorrIntErr, UncorrIntErr... */
	enum ct_aer_severity severity;
	uint64_t n;
};

struct ct_aer_stats {
	struct ct_aer_count *counts;	/* in the kernel's order, severity by severity */
	size_t ncounts;
	uint64_t total[CT_AER_NSEVERITIES];	/* the TOTAL_ERR_* lines */
};

const char *ct_aer_severity_name(enum ct_aer_severity s);	/* correctable, nonfatal, fatal */
/* add the counts of one file's text (of the given severity) to *st:
 * 0, -EBADMSG on a line that is not "NAME COUNT", -ENOMEM */
int ct_aer_stats_parse(const char *text, enum ct_aer_severity sev, struct ct_aer_stats *st);
/* the counts of a CXL memdev's PCI device (memdev: "mem0"); -ENOENT when
 * the device has none (no AER capability or no CONFIG_PCIEAER), quietly */
int ct_aer_stats_read(struct ct_sysfs *s, const char *memdev, struct ct_aer_stats *st);
void ct_aer_stats_free(struct ct_aer_stats *st);

#endif
