/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bytes.h - little-endian fields of the payloads devices send and take
 * (CDAT, mailbox, event records), read from and written to bytes. Pure. */
#ifndef CXLTIER_BYTES_H
#define CXLTIER_BYTES_H

#include <stdint.h>

static inline uint16_t ct_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t ct_le24(const uint8_t *p)
{
	return p[0] | p[1] << 8 | (uint32_t)p[2] << 16;
}

static inline uint32_t ct_le32(const uint8_t *p)
{
	return ct_le24(p) | (uint32_t)p[3] << 24;
}

static inline uint64_t ct_le64(const uint8_t *p)
{
	return ct_le32(p) | (uint64_t)ct_le32(p + 4) << 32;
}

static inline void ct_put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

#endif
