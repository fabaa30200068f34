/* SPDX-License-Identifier: GPL-2.0-only */
/* cdat-build.h - build CDAT tables byte by byte (unit tests, fuzz seeds and
 * the VM tier's custom tables for QEMU's cdat= property) */
#ifndef CXLTIER_CDAT_BUILD_H
#define CXLTIER_CDAT_BUILD_H

#include <stdint.h>
#include <string.h>

struct blob {
	uint8_t b[8192];
	size_t len;
};

static inline void put8(struct blob *x, uint8_t v) { if (x->len < sizeof(x->b)) x->b[x->len++] = v; }
static inline void put16(struct blob *x, uint16_t v) { put8(x, v & 0xff); put8(x, v >> 8); }
static inline void put32(struct blob *x, uint32_t v) { put16(x, v & 0xffff); put16(x, v >> 16); }
static inline void put64(struct blob *x, uint64_t v) { put32(x, (uint32_t)v); put32(x, (uint32_t)(v >> 32)); }

static inline void blob_header(struct blob *x, uint32_t sequence)
{
	memset(x, 0, sizeof(*x));
	put32(x, 0);		/* length, fixed by blob_finish */
	put8(x, 1);		/* revision */
	put8(x, 0);		/* checksum, fixed by blob_finish */
	for (int i = 0; i < 6; i++)
		put8(x, 0);
	put32(x, sequence);
}

static inline void sub_header(struct blob *x, uint8_t type, uint16_t len)
{
	put8(x, type);
	put8(x, 0);
	put16(x, len);
}

static inline void put_dsmas(struct blob *x, uint8_t handle, uint8_t flags, uint64_t base, uint64_t len)
{
	sub_header(x, 0, 24);
	put8(x, handle); put8(x, flags); put16(x, 0);
	put64(x, base); put64(x, len);
}

static inline void put_dslbis(struct blob *x, uint8_t handle, uint8_t flags, uint8_t dtype,
			      uint64_t base_unit, uint16_t entry)
{
	sub_header(x, 1, 24);
	put8(x, handle); put8(x, flags); put8(x, dtype); put8(x, 0);
	put64(x, base_unit);
	put16(x, entry); put16(x, 0); put16(x, 0); put16(x, 0);
}

static inline void put_dsmscis(struct blob *x, uint8_t handle, uint64_t size, uint32_t attrs)
{
	sub_header(x, 2, 20);
	put8(x, handle); put8(x, 0); put16(x, 0);
	put64(x, size); put32(x, attrs);
}

static inline void put_dsis(struct blob *x, uint8_t flags, uint8_t handle)
{
	sub_header(x, 3, 8);
	put8(x, flags); put8(x, handle); put16(x, 0);
}

static inline void put_dsemts(struct blob *x, uint8_t handle, uint8_t efi, uint64_t off, uint64_t len)
{
	sub_header(x, 4, 24);
	put8(x, handle); put8(x, efi); put16(x, 0);
	put64(x, off); put64(x, len);
}

/* entries: n triples of port_x, port_y, value */
static inline void put_sslbis(struct blob *x, uint8_t dtype, uint64_t base_unit, size_t n, const uint16_t *e)
{
	sub_header(x, 5, (uint16_t)(16 + 8 * n));
	put8(x, dtype); put8(x, 0); put16(x, 0);
	put64(x, base_unit);
	for (size_t i = 0; i < n; i++) {
		put16(x, e[3 * i]); put16(x, e[3 * i + 1]); put16(x, e[3 * i + 2]); put16(x, 0);
	}
}

/* a structure of any type and length, zero-filled (reserved types, bad lengths) */
static inline void put_raw(struct blob *x, uint8_t type, uint16_t len, size_t bytes)
{
	sub_header(x, type, len);
	for (size_t i = 4; i < bytes; i++)
		put8(x, 0);
}

/* set the header length and a checksum that makes the bytes sum to 0 */
static inline void blob_finish(struct blob *x)
{
	uint8_t sum = 0;

	x->b[0] = x->len & 0xff; x->b[1] = (x->len >> 8) & 0xff;
	x->b[2] = (x->len >> 16) & 0xff; x->b[3] = (uint8_t)(x->len >> 24);
	x->b[5] = 0;
	for (size_t i = 0; i < x->len; i++)
		sum += x->b[i];
	x->b[5] = (uint8_t)(0x100 - sum);
}

#endif
