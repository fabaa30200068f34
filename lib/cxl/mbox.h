/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* private to lib/cxl/ (unit tests in test/ may include it): other folders
 * and the CLI go through health.h and health-read.h */
/*
 * mbox.h - a memdev's mailbox through the kernel's own ioctls on
 * /dev/cxl/memN, for the commands the libcxl of this build has no call for:
 * CXL_MEM_QUERY_COMMANDS says which command ids this kernel knows (its
 * table's length is the running kernel's, never a header's) and, from 6.3,
 * which ones it enabled for the device (in the device's Command Effects
 * Log) or keeps for itself; CXL_MEM_SEND_COMMAND runs one. A zero ioctl
 * return only says the mailbox transaction completed: the device's verdict
 * is its return code, checked here.
 */
#ifndef CXLTIER_MBOX_H
#define CXLTIER_MBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ct_context;
struct ct_mbox;

/* one entry of the kernel's command table */
struct ct_mbox_command {
	uint32_t id, flags, size_in, size_out;	/* sizes: ~0 variable */
};
#define CT_MBOX_ENABLED (1u << 0)	/* 6.3+: the device has it, or the kernel forces it on */
#define CT_MBOX_EXCLUSIVE (1u << 1)	/* 6.3+: the kernel keeps it for itself */
#define CT_MBOX_VARIABLE 0xffffffffu

/* open /dev/cxl/memN (checked against memN/dev: a char device of that
 * number) and read the command table: 0; -EOPNOTSUPP on a captured tree;
 * -EACCES not root; -ENOENT no such memdev or device node */
int ct_mbox_open(struct ct_context *ctx, const char *memdev, struct ct_mbox **out);
void ct_mbox_close(struct ct_mbox *m);

/* the table's entry for id: 0, or -ENOENT when this kernel has no such id
 * (beyond its table, compiled out or deprecated: an all-zero entry) */
int ct_mbox_command(const struct ct_mbox *m, uint32_t id, struct ct_mbox_command *c);
/* can id be sent to this device: 0; -EOPNOTSUPP not in the kernel's table
 * or not enabled for the device (6.3+ says which); -EBUSY the kernel keeps
 * it; what names the command in messages */
int ct_mbox_usable(struct ct_mbox *m, uint32_t id, const char *what);

/* send id with in_len bytes in and up to *out_len bytes out (*out_len:
 * what came back). 0 when the device returned Success; -errno of the ioctl
 * with a message (ENOTTY: not enabled); a device return code as
 * ct_mbox_status_errno() with its name; *status gets the return code
 * (0xffff when the command did not reach the device) */
int ct_mbox_send(struct ct_mbox *m, uint32_t id, const char *what, const void *in, size_t in_len, void *out,
		 size_t *out_len, uint16_t *status);

/* ---- pure ---- */

/* the CXL mailbox return code's name (CXL 3.1 Table 8-34), "reserved" beyond */
const char *ct_mbox_status_name(uint16_t rc);
/* the errno cxltier reports it as: 0 Success, EINVAL invalid input or
 * payload, EOPNOTSUPP unsupported, EBUSY busy or retry, EIO the rest */
int ct_mbox_status_errno(uint16_t rc);

#endif
