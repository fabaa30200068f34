/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cdat.h - decoder of the CXL Coherent Device Attribute Table (pure: bytes
 * in, structures out). Layouts: CDAT spec r1.04, CXL 3.1 §8.1.11; HMAT data
 * types from ACPI 6.5 §5.2.28.
 */
#ifndef CXLTIER_CDAT_H
#define CXLTIER_CDAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/error.h"

#define CDAT_HEADER_LEN 16

enum cdat_type {
	CDAT_DSMAS = 0,
	CDAT_DSLBIS = 1,
	CDAT_DSMSCIS = 2,
	CDAT_DSIS = 3,
	CDAT_DSEMTS = 4,
	CDAT_SSLBIS = 5,
};

/* DSMAS flags */
#define CDAT_DSMAS_NON_VOLATILE (1u << 2)
#define CDAT_DSMAS_SHAREABLE (1u << 3)
#define CDAT_DSMAS_HW_COHERENCY (1u << 4)
#define CDAT_DSMAS_DYNAMIC_CAPACITY (1u << 5)
#define CDAT_DSMAS_READ_ONLY (1u << 6)

/* HMAT data types */
enum cdat_data_type {
	CDAT_ACCESS_LATENCY = 0,
	CDAT_READ_LATENCY = 1,
	CDAT_WRITE_LATENCY = 2,
	CDAT_ACCESS_BANDWIDTH = 3,
	CDAT_READ_BANDWIDTH = 4,
	CDAT_WRITE_BANDWIDTH = 5,
};

#define CDAT_SSLBIS_PORT_UPSTREAM 0x0100
#define CDAT_SSLBIS_PORT_ANY 0xffff

struct cdat_sslbis_entry {
	uint16_t port_x, port_y, value;
};

struct cdat_struct {
	uint8_t type;
	uint16_t length;
	size_t offset;		/* from the start of the table */
	union {
		struct { uint8_t handle, flags; uint64_t dpa_base, dpa_length; } dsmas;
		struct { uint8_t handle, flags, data_type; uint64_t base_unit; uint16_t entry[3]; } dslbis;
		struct { uint8_t handle; uint64_t cache_size; uint32_t attributes; } dsmscis;
		struct { uint8_t flags, handle; } dsis;
		struct { uint8_t handle, efi_type; uint64_t dpa_offset, dpa_length; } dsemts;
		struct { uint8_t data_type; uint64_t base_unit; size_t nentries;
			 struct cdat_sslbis_entry *entries; } sslbis;
	} u;
};

struct cdat_table {
	uint32_t length;	/* as the header says */
	uint8_t revision, checksum;
	uint32_t sequence;
	uint8_t byte_sum;	/* sum of the table's bytes: 0 when the checksum holds */
	bool checksum_valid;
	size_t trailing;	/* bytes after header.length in the input */
	struct cdat_struct *s;	/* the structures decoded (the valid prefix on error) */
	size_t n;
};

/*
 * Decode a CDAT table. 0 when the table is valid; otherwise -EBADMSG with a
 * message naming the byte offset and the rule broken, and t holds whatever
 * decoded before the fault (so callers may show it with a warning).
 */
int cdat_decode(const uint8_t *buf, size_t len, struct cdat_table *t, struct ct_error *err);
void cdat_free(struct cdat_table *t);

const char *cdat_type_name(uint8_t type);		/* "dsmas"..., "reserved" */
const char *cdat_data_type_name(uint8_t dt);		/* "read_latency"..., NULL if reserved */
bool cdat_data_type_is_latency(uint8_t dt);
/* entry x base unit, as the table says it; false when the entry is 0 (not
 * given), 0xffff (unreachable) or the product overflows 64 bits. Latency in
 * ps, bandwidth in MB/s. */
bool cdat_value(uint64_t base_unit, uint16_t entry, uint64_t *value);
/* does the kernel keep such a value: its cdat_normalize() (Linux 6.9 and
 * later) holds it in a u32 and takes a product above 2^32 - 1 as 0, no
 * figure (kernel-interfaces.md §1.3) */
bool cdat_kernel_keeps(uint64_t value);
const char *cdat_efi_type_name(uint8_t t);		/* "conventional", "specific_purpose"... */
/* DSLBIS flags [3:0]: 0 memory, 1..3 memory-side cache level */
const char *cdat_hierarchy_name(uint8_t flags);

/* DSMSCIS cache attributes (HMAT encoding) */
struct cdat_cache_attrs {
	unsigned total_levels, level, line_size;
	const char *associativity;	/* none, direct_mapped, complex */
	const char *write_policy;	/* none, write_back, write_through */
};
void cdat_cache_attrs(uint32_t attrs, struct cdat_cache_attrs *out);

/* the device-side performance of the first volatile DSMAS range (the first
 * range when none is volatile), as the kernel's cdat_normalize() reads the
 * DSLBIS: a product above 2^32 - 1 is no figure (cdat_kernel_keeps),
 * latency is rounded up to ns, bandwidth in MB/s; access types fill both
 * read and write. (The kernel rounds in 32 bits, so a latency within 999 ps
 * of 2^32 becomes 0 ns there; here it is rounded up.) Returns false when
 * the table has no usable DSLBIS. */
struct ct_access;
bool cdat_volatile_perf(const struct cdat_table *t, struct ct_access *out);

/* the DSMAS with this handle, or NULL */
const struct cdat_struct *cdat_dsmas(const struct cdat_table *t, uint8_t handle);

#endif
