// SPDX-License-Identifier: LGPL-2.1-or-later
/* event-blob.c - an event's fields as bytes and back (event-blob.h) */
#include <errno.h>
#include <string.h>
#include "events/event-blob.h"

#define MAGIC "CXE1"

struct out {
	uint8_t *p;
	size_t n, cap;
	bool full;
};

static void put(struct out *o, const void *p, size_t len)
{
	if (o->full || len > o->cap - o->n) {
		o->full = true;
		return;
	}
	memcpy(o->p + o->n, p, len);
	o->n += len;
}

static void put_u(struct out *o, uint64_t v, unsigned bytes)
{
	uint8_t b[8];

	for (unsigned i = 0; i < bytes; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	put(o, b, bytes);
}

static void put_name(struct out *o, const char *s)
{
	size_t len = strlen(s);

	if (len > 255)
		len = 255;
	put_u(o, len, 1);
	put(o, s, len);
}

size_t ct_event_blob_write(const struct ct_event *e, uint8_t *buf, size_t cap)
{
	struct out o = { buf, 0, cap, false };

	put(&o, MAGIC, 4);
	put_name(&o, e->event);
	put_u(&o, e->trace_time, 8);
	put_u(&o, e->nfields, 2);
	for (size_t i = 0; i < e->nfields; i++) {
		const struct ct_event_field *f = &e->fields[i];

		put_u(&o, f->type, 1);
		put_name(&o, ct_event_field_name(e, f));
		switch (f->type) {
		case CT_FIELD_UINT: put_u(&o, f->u, 8); break;
		case CT_FIELD_INT: put_u(&o, (uint64_t)f->i, 8); break;
		default:
			put_u(&o, f->elem, 1);
			put_u(&o, f->len, 2);
			put(&o, ct_event_field_data(e, f), f->len);
		}
	}
	return o.full ? 0 : o.n;
}

struct in {
	const uint8_t *p;
	size_t n, at;
	bool bad;
};

static const uint8_t *take(struct in *in, size_t len)
{
	const uint8_t *p;

	if (in->bad || len > in->n - in->at) {
		in->bad = true;
		return NULL;
	}
	p = in->p + in->at;
	in->at += len;
	return p;
}

static uint64_t take_u(struct in *in, unsigned bytes)
{
	const uint8_t *p = take(in, bytes);
	uint64_t v = 0;

	for (unsigned i = 0; p && i < bytes; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* a name: printable, no NUL (the store's names are C strings) */
static bool take_name(struct in *in, char *buf, size_t cap)
{
	size_t len = take_u(in, 1);
	const uint8_t *p = take(in, len);

	if (!p || len >= cap || memchr(p, '\0', len))
		return false;
	memcpy(buf, p, len);
	buf[len] = '\0';
	return true;
}

int ct_event_blob_read(const uint8_t *p, size_t len, struct ct_event *e)
{
	struct in in = { p, len, 0, false };
	const uint8_t *magic = take(&in, 4);
	char name[256];
	uint64_t when;
	size_t nfields;

	if (!magic || memcmp(magic, MAGIC, 4) || !take_name(&in, name, sizeof(e->event)))
		return -EBADMSG;
	when = take_u(&in, 8);
	nfields = take_u(&in, 2);
	if (in.bad || nfields > CT_EVENT_MAX_FIELDS)
		return -EBADMSG;
	ct_event_init(e, name);
	for (size_t i = 0; i < nfields; i++) {
		unsigned type = take_u(&in, 1), elem;
		const uint8_t *data;
		size_t dlen;

		if (!take_name(&in, name, sizeof(name)))
			return -EBADMSG;
		switch (type) {
		case CT_FIELD_UINT:
			if (!ct_event_add_uint(e, name, take_u(&in, 8)) && !in.bad)
				return -EBADMSG;
			break;
		case CT_FIELD_INT:
			if (!ct_event_add_int(e, name, (int64_t)take_u(&in, 8)) && !in.bad)
				return -EBADMSG;
			break;
		case CT_FIELD_STRING:
		case CT_FIELD_UUID:
		case CT_FIELD_BYTES:
		case CT_FIELD_UINT_ARRAY:
			elem = take_u(&in, 1);
			dlen = take_u(&in, 2);
			if (!(data = take(&in, dlen)))
				return -EBADMSG;
			if (type == CT_FIELD_UUID && dlen != 16)
				return -EBADMSG;
			if (type == CT_FIELD_STRING ? !ct_event_add_string(e, name, (const char *)data, dlen)
						    : !ct_event_add_bytes(e, name, type, data, dlen, elem))
				return -EBADMSG;
			break;
		default:
			return -EBADMSG;
		}
		if (in.bad)
			return -EBADMSG;
	}
	if (in.at != in.n)
		return -EBADMSG;
	ct_event_decode_fields(e);
	e->trace_time = when;
	return 0;
}
