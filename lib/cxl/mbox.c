// SPDX-License-Identifier: LGPL-2.1-or-later
/* mbox.c - CXL_MEM_QUERY_COMMANDS and CXL_MEM_SEND_COMMAND on /dev/cxl/memN
 * (see mbox.h). The structures are the UAPI's, whose layout has not changed
 * since 5.12; <linux/cxl_mem.h> needs <sys/ioctl.h> before it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <linux/cxl_mem.h>
#include "core/context.h"
#include "cxl/mbox.h"

_Static_assert(sizeof(struct cxl_send_command) == 48, "struct cxl_send_command is 48 bytes in every kernel");
_Static_assert(sizeof(struct cxl_command_info) == 16, "struct cxl_command_info is 16 bytes");

#define MAX_COMMANDS 4096	/* sanity bound on what the kernel says its table holds */

struct ct_mbox {
	struct ct_context *ctx;
	char memdev[32];
	int fd;
	uint32_t n;
	struct cxl_command_info *cmds;	/* the kernel's table, in id order, holes as zeros */
	bool tagged;			/* the kernel sets ENABLED/EXCLUSIVE (6.3+) */
};

/* "mem" and digits: the name goes into paths */
static bool name_ok(const char *memdev)
{
	size_t n = strlen(memdev);

	if (n < 4 || n > 16 || strncmp(memdev, "mem", 3))
		return false;
	return strspn(memdev + 3, "0123456789") == n - 3;
}

static const char *const status_names[] = {
	"success", "background command started", "invalid input", "unsupported", "internal error",
	"retry required", "busy", "media disabled", "FW transfer in progress", "FW transfer out of order",
	"FW verification failed", "invalid slot", "activation failed, FW rolled back",
	"activation failed, cold reset required", "invalid handle", "invalid physical address",
	"inject poison limit reached", "permanent media failure", "aborted", "invalid security state",
	"incorrect passphrase", "unsupported mailbox or CCI", "invalid payload length", "invalid log",
	"interrupted", "unsupported feature version", "unsupported feature selection value",
	"feature transfer in progress", "feature transfer out of order", "resources exhausted",
	"invalid extent list",
};

const char *ct_mbox_status_name(uint16_t rc)
{
	return rc < sizeof(status_names) / sizeof(status_names[0]) ? status_names[rc] : "reserved";
}

int ct_mbox_status_errno(uint16_t rc)
{
	switch (rc) {
	case 0x00:
		return 0;
	case 0x02:	/* invalid input */
	case 0x16:	/* invalid payload length */
		return EINVAL;
	case 0x03:	/* unsupported */
	case 0x15:	/* unsupported mailbox or CCI */
		return EOPNOTSUPP;
	case 0x05:	/* retry required */
	case 0x06:	/* busy */
		return EBUSY;
	default:
		return EIO;
	}
}

/* the device node, checked to be memN's: a char device whose number is memN/dev */
static int open_node(struct ct_context *ctx, const char *memdev, int *fd)
{
	char path[96], dev[32];
	unsigned maj, min;
	struct stat st;
	int rc;

	snprintf(path, sizeof(path), "/sys/bus/cxl/devices/%s/dev", memdev);
	if ((rc = ct_sysfs_read_str(&ctx->sys, path, dev, sizeof(dev))))
		return rc == -ENOENT ? ct_fail(&ctx->err, ENOENT, "no memdev %s", memdev) : rc;
	if (sscanf(dev, "%u:%u", &maj, &min) != 2)
		return ct_fail(&ctx->err, EBADMSG, "%s: '%s' is not a device number", path, dev);
	snprintf(path, sizeof(path), "/dev/cxl/%s", memdev);
	*fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);
	if (*fd < 0) {
		rc = errno;
		return ct_fail(&ctx->err, rc, "cannot open %s: %s%s", path, strerror(rc),
			       rc == EACCES || rc == EPERM ? " (the mailbox is root's)" : "");
	}
	if (fstat(*fd, &st) || !S_ISCHR(st.st_mode) || st.st_rdev != makedev(maj, min)) {
		close(*fd);
		*fd = -1;
		return ct_fail(&ctx->err, ENODEV, "%s is not %s's device node (%u:%u): not used", path, memdev, maj, min);
	}
	return 0;
}

static int query(struct ct_mbox *m)
{
	struct cxl_mem_query_commands head = { .n_commands = 0 }, *q;
	size_t size;

	if (ioctl(m->fd, CXL_MEM_QUERY_COMMANDS, &head))
		return ct_fail(&m->ctx->err, errno, "%s: CXL_MEM_QUERY_COMMANDS failed: %s", m->memdev, strerror(errno));
	if (!head.n_commands || head.n_commands > MAX_COMMANDS)
		return ct_fail(&m->ctx->err, EPROTO, "%s: the kernel says its command table has %u entries", m->memdev,
			       head.n_commands);
	size = sizeof(*q) + head.n_commands * sizeof(struct cxl_command_info);
	if (!(q = calloc(1, size)))
		return ct_fail(&m->ctx->err, ENOMEM, "out of memory");
	q->n_commands = head.n_commands;
	if (ioctl(m->fd, CXL_MEM_QUERY_COMMANDS, q)) {
		int e = errno;
		free(q);
		return ct_fail(&m->ctx->err, e, "%s: CXL_MEM_QUERY_COMMANDS failed: %s", m->memdev, strerror(e));
	}
	m->n = q->n_commands < head.n_commands ? q->n_commands : head.n_commands;
	m->cmds = malloc(m->n * sizeof(*m->cmds) + 1);
	if (m->cmds)
		memcpy(m->cmds, q->commands, m->n * sizeof(*m->cmds));
	free(q);
	if (!m->cmds)
		return ct_fail(&m->ctx->err, ENOMEM, "out of memory");
	for (uint32_t i = 0; i < m->n; i++)
		if (m->cmds[i].flags & CT_MBOX_ENABLED)	/* Identify is always on once the kernel tags */
			m->tagged = true;
	return 0;
}

int ct_mbox_open(struct ct_context *ctx, const char *memdev, struct ct_mbox **out)
{
	struct ct_mbox *m;
	int rc;

	*out = NULL;
	if (!ctx->live)
		return ct_fail(&ctx->err, EOPNOTSUPP, "%s: the mailbox is the device's, not a captured tree's", memdev);
	if (!name_ok(memdev))
		return ct_fail(&ctx->err, EINVAL, "'%s' is not a memdev name (memN)", memdev);
	if (!(m = calloc(1, sizeof(*m))))
		return ct_fail(&ctx->err, ENOMEM, "out of memory");
	m->ctx = ctx;
	m->fd = -1;
	snprintf(m->memdev, sizeof(m->memdev), "%s", memdev);
	if ((rc = open_node(ctx, memdev, &m->fd)) || (rc = query(m))) {
		ct_mbox_close(m);
		return rc;
	}
	*out = m;
	return 0;
}

void ct_mbox_close(struct ct_mbox *m)
{
	if (!m)
		return;
	if (m->fd >= 0)
		close(m->fd);
	free(m->cmds);
	free(m);
}

int ct_mbox_command(const struct ct_mbox *m, uint32_t id, struct ct_mbox_command *c)
{
	memset(c, 0, sizeof(*c));
	for (uint32_t i = 0; i < m->n; i++)
		if (m->cmds[i].id == id && id) {
			c->id = id;
			c->flags = m->cmds[i].flags;
			c->size_in = m->cmds[i].size_in;
			c->size_out = m->cmds[i].size_out;
			return 0;
		}
	return -ENOENT;
}

int ct_mbox_usable(struct ct_mbox *m, uint32_t id, const char *what)
{
	struct ct_mbox_command c;

	if (ct_mbox_command(m, id, &c))
		return ct_fail(&m->ctx->err, EOPNOTSUPP, "%s: this kernel has no %s command (id %u is not in its "
			       "table of %u)", m->memdev, what, id, m->n);
	if (m->tagged && !(c.flags & CT_MBOX_ENABLED))
		return ct_fail(&m->ctx->err, EOPNOTSUPP, "%s: the kernel does not enable %s for this device: the "
			       "device does not list it in its Command Effects Log", m->memdev, what);
	if (c.flags & CT_MBOX_EXCLUSIVE)
		return ct_fail(&m->ctx->err, EBUSY, "%s: the kernel keeps %s for itself on this device", m->memdev, what);
	return 0;
}

int ct_mbox_send(struct ct_mbox *m, uint32_t id, const char *what, const void *in, size_t in_len, void *out,
		 size_t *out_len, uint16_t *status)
{
	struct cxl_send_command s;
	int rc, e;

	*status = 0xffff;
	if ((rc = ct_mbox_usable(m, id, what)))
		return rc;
	memset(&s, 0, sizeof(s));
	s.id = id;
	s.in.size = (__u32)in_len;
	s.in.payload = (__u64)(uintptr_t)in;
	s.out.size = out_len ? (__u32)*out_len : 0;
	s.out.payload = (__u64)(uintptr_t)out;
	if (ioctl(m->fd, CXL_MEM_SEND_COMMAND, &s)) {
		e = errno;
		if (e == ENOTTY)
			return ct_fail(&m->ctx->err, EOPNOTSUPP, "%s: the kernel refused %s: not enabled for this device "
				       "(not in its Command Effects Log)", m->memdev, what);
		return ct_fail(&m->ctx->err, e, "%s: %s could not be sent: %s%s", m->memdev, what, strerror(e),
			       e == EBUSY ? " (the kernel or a background operation holds the mailbox)" :
			       e == ENOMEM ? " (payload size refused)" : "");
	}
	*status = (uint16_t)s.retval;
	if (out_len)
		*out_len = s.out.size;
	if ((e = ct_mbox_status_errno(*status)))
		return ct_fail(&m->ctx->err, e, "%s: the device refused %s: %s (mailbox return code 0x%x)", m->memdev,
			       what, ct_mbox_status_name(*status), *status);
	return 0;
}
