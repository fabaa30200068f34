// SPDX-License-Identifier: LGPL-2.1-or-later
/* event-trace.c - a tracepoint record to named, typed fields through the
 * event's format (libtraceevent) */
#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <event-parse.h>
#include "events/event-trace.h"

static bool printable(const char *p, size_t len)
{
	for (size_t i = 0; i < len && p[i]; i++)
		if (!isprint((unsigned char)p[i]))
			return false;
	return true;
}

/* where the field's bytes are in the record and how many; false when the
 * record is too short for it */
static bool locate(struct tep_event *ev, struct tep_format_field *f, struct tep_record *r,
		   const uint8_t **p, size_t *len)
{
	const uint8_t *data = r->data;
	size_t size = r->size > 0 ? (size_t)r->size : 0;
	unsigned long long loc;
	size_t off;

	if (f->offset < 0 || f->size < 0 || (size_t)f->offset + (size_t)f->size > size)
		return false;
	if (!(f->flags & TEP_FIELD_IS_DYNAMIC)) {
		*p = data + f->offset;
		*len = (size_t)f->size;
		return true;
	}
	/* __data_loc: offset in the low 16 bits, length in the high 16 */
	loc = tep_read_number(ev->tep, data + f->offset, f->size);
	off = loc & 0xffff;
	*len = (loc >> 16) & 0xffff;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		off += (size_t)f->offset + (size_t)f->size;
	if (off + *len > size)
		return false;
	*p = data + off;
	return true;
}

static void add_field(struct ct_event *e, struct tep_event *ev, struct tep_format_field *f,
		      const uint8_t *p, size_t len)
{
	bool uuid = len == 16 && (!strcmp(f->type, "uuid_t") || strstr(f->name, "uuid"));

	if (uuid) {
		ct_event_add_bytes(e, f->name, CT_FIELD_UUID, p, 16, 1);
	} else if ((f->flags & TEP_FIELD_IS_STRING) && strstr(f->type, "char") && printable((const char *)p, len)) {
		/* char[] and __data_loc char[]; libtraceevent calls u8[] a string too */
		ct_event_add_string(e, f->name, (const char *)p, len);
	} else if (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_STRING) ||
		   (len != 1 && len != 2 && len != 4 && len != 8)) {
		unsigned elem = f->elementsize && f->elementsize <= 8 && !(f->flags & TEP_FIELD_IS_STRING) ?
				f->elementsize : 1;
		uint8_t le[CT_EVENT_STORE];

		if (elem == 1 || len > sizeof(le) || len % elem) {
			ct_event_add_bytes(e, f->name, CT_FIELD_BYTES, p, len, 1);
			return;
		}
		/* integer arrays are kept little endian, whatever the record's order */
		for (size_t i = 0; i < len; i += elem) {
			unsigned long long v = tep_read_number(ev->tep, p + i, (int)elem);
			for (unsigned b = 0; b < elem; b++)
				le[i + b] = (uint8_t)(v >> (8 * b));
		}
		ct_event_add_bytes(e, f->name, CT_FIELD_UINT_ARRAY, le, len, elem);
	} else if (f->flags & TEP_FIELD_IS_SIGNED) {
		unsigned long long v = tep_read_number(ev->tep, p, (int)len);
		int shift = 64 - 8 * (int)len;
		ct_event_add_int(e, f->name, shift ? (int64_t)(v << shift) >> shift : (int64_t)v);
	} else {
		ct_event_add_uint(e, f->name, tep_read_number(ev->tep, p, (int)len));
	}
}

int ct_event_from_trace(struct tep_event *ev, struct tep_record *r, struct ct_event *e)
{
	int rc = 0;

	ct_event_init(e, ev->name);
	for (struct tep_format_field *f = ev->format.fields; f; f = f->next) {
		const uint8_t *p;
		size_t len;

		if (!locate(ev, f, r, &p, &len)) {
			rc = -EBADMSG;
			continue;
		}
		add_field(e, ev, f, p, len);
	}
	ct_event_decode_fields(e);
	return rc;
}
