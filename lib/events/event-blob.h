/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * event-blob.h - a decoded event's fields as bytes, and back: how the event
 * store (event-store.h) keeps every field of a record under the kernel's
 * own name, whatever kernel reads it later. Pure.
 *
 * Layout (little endian): "CXE1", the tracepoint's name (u8 length, bytes),
 * the kernel's emit time (u64 ns since 1970), the field count (u16), then
 * per field: type (u8), name (u8 length, bytes), and its value: UINT and
 * INT 8 bytes; STRING, UUID, BYTES and UINT_ARRAY an element size (u8), a
 * length (u16) and the bytes.
 */
#ifndef CXLTIER_EVENT_BLOB_H
#define CXLTIER_EVENT_BLOB_H

#include <stddef.h>
#include <stdint.h>
#include "events/event.h"

/* the most a blob takes: the event's store and per-field headers */
#define CT_EVENT_BLOB_MAX (4 + 1 + 48 + 8 + 2 + CT_EVENT_MAX_FIELDS * 13 + CT_EVENT_STORE)

/* e's name, emit time and fields into buf (at least CT_EVENT_BLOB_MAX
 * bytes); the length written */
size_t ct_event_blob_write(const struct ct_event *e, uint8_t *buf, size_t cap);
/* a blob back into an event, decoded (ct_event_decode_fields) as a record
 * read now would be: 0, or -EBADMSG for bytes no blob has */
int ct_event_blob_read(const uint8_t *p, size_t len, struct ct_event *e);

#endif
