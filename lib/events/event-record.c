// SPDX-License-Identifier: LGPL-2.1-or-later
/* event-record.c - a 128-byte event record (Get Event Records, CXL 3.1
 * §8.2.9.2.1) into the fields the kernel's tracepoint for the same record
 * carries, under the kernel's names (drivers/cxl/core/trace.h), so that a
 * captured record and a traced one decode to the same keys */
#include <errno.h>
#include <string.h>
#include "events/event.h"
#include "core/bytes.h"


#define U(name, v) ct_event_add_uint(e, name, v)
#define B(name, p, len) ct_event_add_bytes(e, name, CT_FIELD_BYTES, p, len, 1)

/* the physical address field and the media header (General Media, DRAM) */
static void media_header(struct ct_event *e, const uint8_t *r)
{
	uint64_t pa = ct_le64(r + 48);

	U("dpa", pa & ~0x3fULL);	/* CXL_DPA_MASK: bits [63:6] */
	U("dpa_flags", pa & 0x3);	/* CXL_DPA_FLAGS_MASK */
	U("descriptor", r[56]);
	U("type", r[57]);
	U("transaction_type", r[58]);
	U("validity_flags", ct_le16(r + 59));
	U("channel", r[61]);
	U("rank", r[62]);
}

static void general_media(struct ct_event *e, const uint8_t *r)
{
	media_header(e, r);
	U("device", ct_le24(r + 63));
	B("comp_id", r + 66, 16);
	U("cme_threshold_ev_flags", r[82]);
	U("cme_count", ct_le24(r + 83));
	U("sub_type", r[86]);
}

static void dram(struct ct_event *e, const uint8_t *r)
{
	media_header(e, r);
	U("nibble_mask", ct_le24(r + 63));
	U("bank_group", r[66]);
	U("bank", r[67]);
	U("row", ct_le24(r + 68));
	U("column", ct_le16(r + 71));
	B("cor_mask", r + 73, 32);
	B("comp_id", r + 105, 16);
	U("sub_channel", r[121]);
	U("cme_threshold_ev_flags", r[122]);
	U("cvme_count", ct_le24(r + 123));
	U("sub_type", r[126]);
}

static void memory_module(struct ct_event *e, const uint8_t *r)
{
	U("event_type", r[48]);
	/* Device Health Information (the Get Health Info payload) at 49 */
	U("health_status", r[49]);
	U("media_status", r[50]);
	U("add_status", r[51]);
	U("life_used", r[52]);
	ct_event_add_int(e, "device_temp", (int16_t)ct_le16(r + 53));
	U("dirty_shutdown_cnt", ct_le32(r + 55));
	U("cor_vol_err_cnt", ct_le32(r + 59));
	U("cor_per_err_cnt", ct_le32(r + 63));
	U("validity_flags", ct_le16(r + 67));
	B("comp_id", r + 69, 16);
	U("event_sub_type", r[85]);
}

int ct_event_decode(const uint8_t *r, size_t len, struct ct_event *e)
{
	const char *type;

	ct_event_init(e, NULL);
	if (len < CT_EVENT_RECORD_LEN || r[16] != CT_EVENT_RECORD_LEN)
		return -EBADMSG;
	ct_event_add_bytes(e, "hdr_uuid", CT_FIELD_UUID, r, 16, 1);
	U("hdr_flags", ct_le24(r + 17));
	U("hdr_handle", ct_le16(r + 20));
	U("hdr_related_handle", ct_le16(r + 22));
	U("hdr_timestamp", ct_le64(r + 24));
	U("hdr_length", r[16]);
	U("hdr_maint_op_class", r[32]);
	U("hdr_maint_op_sub_class", r[33]);
	type = ct_record_type_name(r);
	if (type && !strcmp(type, "general_media"))
		general_media(e, r);
	else if (type && !strcmp(type, "dram"))
		dram(e, r);
	else if (type && !strcmp(type, "memory_module"))
		memory_module(e, r);
	else
		B("data", r + 48, CT_EVENT_RECORD_LEN - 48);
	ct_event_decode_fields(e);
	return 0;
}
