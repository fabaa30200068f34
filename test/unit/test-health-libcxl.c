// SPDX-License-Identifier: GPL-2.0-only
/* a live device's Get Health Info through lib/cxl/health-libcxl.c, against a
 * libcxl stand-in: the functions below take the place of libcxl's (this
 * executable's definitions come first) and hand back a payload as the
 * kernel would, so the live path is checked on bytes like --file */
#include <errno.h>
#include <string.h>
#include <cxl/libcxl.h>
#include "tap.h"
#include "core/context.h"
#include "cxl/health.h"
#include "cxl/health-read.h"

static char fake_ctx, fake_memdev, fake_cmd;
static uint8_t reply[CT_HEALTH_LEN];	/* what the device answers */
static int reply_len = CT_HEALTH_LEN;
static void *out_buf;
static int out_room, out_size;

int cxl_new(struct cxl_ctx **ctx)
{
	*ctx = (struct cxl_ctx *)&fake_ctx;
	return 0;
}

void cxl_unref(struct cxl_ctx *ctx) { (void)ctx; }
struct cxl_memdev *cxl_memdev_get_first(struct cxl_ctx *ctx) { (void)ctx; return (struct cxl_memdev *)&fake_memdev; }
struct cxl_memdev *cxl_memdev_get_next(struct cxl_memdev *m) { (void)m; return NULL; }
const char *cxl_memdev_get_devname(struct cxl_memdev *m) { (void)m; return "mem0"; }

struct cxl_cmd *cxl_cmd_new_get_health_info(struct cxl_memdev *m)
{
	(void)m;
	out_buf = NULL;
	out_room = out_size = 0;
	return (struct cxl_cmd *)&fake_cmd;
}

/* no alert configuration: the device does not offer it */
struct cxl_cmd *cxl_cmd_new_get_alert_config(struct cxl_memdev *m)
{
	(void)m;
	errno = EOPNOTSUPP;
	return NULL;
}

int cxl_cmd_set_output_payload(struct cxl_cmd *cmd, void *buf, int size)
{
	(void)cmd;
	out_buf = buf;
	out_room = size;
	return 0;
}

/* the kernel copies what the device returned into out.payload and sets out.size */
int cxl_cmd_submit(struct cxl_cmd *cmd)
{
	(void)cmd;
	out_size = reply_len < out_room ? reply_len : out_room;
	if (out_buf)
		memcpy(out_buf, reply, (size_t)out_size);
	return 0;
}

int cxl_cmd_get_mbox_status(struct cxl_cmd *cmd) { (void)cmd; return 0; }
int cxl_cmd_get_out_size(struct cxl_cmd *cmd) { (void)cmd; return out_size; }
void cxl_cmd_unref(struct cxl_cmd *cmd) { (void)cmd; }

int main(void)
{
	/* Memory Capacity Degraded (bit 3) and hardware replacement needed
	 * (bit 2); media normal; life used critical, temperature warning; 97 %,
	 * -5 C; 1234567 dirty shutdowns, 7 and 1 corrected errors */
	static const uint8_t degraded[CT_HEALTH_LEN] = { 0x0c, 0x00, 0x06, 97, 0xfb, 0xff, 0x87, 0xd6, 0x12, 0x00,
							 7, 0, 0, 0, 1, 0, 0, 0 };
	struct ct_context ctx = { 0 };
	struct ct_alert_config a;
	struct ct_health h;
	bool have_alert;

	memcpy(reply, degraded, sizeof(reply));
	is_int(ct_health_read(&ctx, "mem0", &h, &a, &have_alert), 0, "Get Health Info read: %s", ctx.err.msg);
	ok(h.health_status & CT_HEALTH_CAPACITY_DEGRADED, "Memory Capacity Degraded (bit 3) comes through");
	is_int(h.health_status, CT_HEALTH_CAPACITY_DEGRADED | CT_HEALTH_HW_REPLACEMENT_NEEDED, "with bit 2, nothing else");
	is_int(h.media_status, 0, "media normal");
	ok(h.life_used_state == 2 && h.temperature_state == 1, "life used critical, temperature warning");
	ok(h.has_life_used && h.life_used == 97, "97 %%");
	ok(h.has_temperature && h.temperature == -5, "-5 C, signed");
	is_int(h.dirty_shutdowns, 1234567, "dirty shutdowns");
	ok(h.corrected_volatile_errors == 7 && h.corrected_persistent_errors == 1, "corrected error counts");
	ok(!have_alert, "no alert configuration, and no error for it");

	reply_len = 10;
	is_int(ct_health_read(&ctx, "mem0", &h, &a, &have_alert), -EBADMSG, "a short payload is an error");
	is_str(ctx.err.msg, "mem0: Get Health Info returned 10 bytes, the payload is 18", "naming its size");
	return tap_done();
}
