// SPDX-License-Identifier: LGPL-2.1-or-later
/* region-libcxl.c - the region steps through libcxl, on a private libcxl
 * context (fresh: it sees memdevs and regions that appeared since the
 * command began), whose log lines become the step's detail instead of
 * being printed. Creating RAM regions needs libcxl 77
 * (cxl_decoder_create_ram_region); everything else is there since 74. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <cxl/libcxl.h>
#include "config.h"
#include "core/context.h"
#include "core/crash-point.h"
#include "change/region-ops.h"

static void log_fn(struct cxl_ctx *c, int priority, const char *file, int line, const char *fn,
		   const char *format, va_list args)
{
	struct ct_region_io *io = cxl_get_userdata(c);
	size_t n;

	(void)priority;
	(void)file;
	(void)line;
	(void)fn;
	if (!io)
		return;
	vsnprintf(io->detail, sizeof(io->detail), format, args);
	n = strlen(io->detail);
	if (n && io->detail[n - 1] == '\n')
		io->detail[n - 1] = '\0';
}

static int begin(struct ct_region_io *io)
{
	struct cxl_ctx *c;
	int rc = cxl_new(&c);

	if (rc) {
		ct_region_io_say(io, "cannot open libcxl: %s", strerror(-rc));
		return rc;
	}
	cxl_set_userdata(c, io);
	cxl_set_log_fn(c, log_fn);
	io->priv = c;
	return 0;
}

static void end(struct ct_region_io *io)
{
	if (io->priv)
		cxl_unref(io->priv);
	io->priv = NULL;
}

static struct cxl_decoder *port_decoder(struct cxl_port *port, const char *name)
{
	struct cxl_decoder *d;
	struct cxl_endpoint *ep;
	struct cxl_port *child;

	cxl_decoder_foreach(port, d)
		if (!strcmp(cxl_decoder_get_devname(d), name))
			return d;
	cxl_endpoint_foreach(port, ep)
		cxl_decoder_foreach(cxl_endpoint_get_port(ep), d)
			if (!strcmp(cxl_decoder_get_devname(d), name))
				return d;
	cxl_port_foreach(port, child)
		if ((d = port_decoder(child, name)))
			return d;
	return NULL;
}

static struct cxl_decoder *decoder(struct ct_region_io *io, const char *name)
{
	struct cxl_bus *bus;
	struct cxl_decoder *d;

	cxl_bus_foreach((struct cxl_ctx *)io->priv, bus)
		if ((d = port_decoder(cxl_bus_get_port(bus), name)))
			return d;
	ct_region_io_say(io, "libcxl does not see %s", name);
	return NULL;
}

static struct cxl_region *region(struct ct_region_io *io, const char *name)
{
	struct cxl_bus *bus;

	cxl_bus_foreach((struct cxl_ctx *)io->priv, bus) {
		struct cxl_decoder *d;
		struct cxl_region *r;

		cxl_decoder_foreach(cxl_bus_get_port(bus), d)
			cxl_region_foreach(d, r)
				if (!strcmp(cxl_region_get_devname(r), name))
					return r;
	}
	ct_region_io_say(io, "libcxl does not see %s", name);
	return NULL;
}

#if LIBCXL_VERSION >= 77
static int create_ram(struct ct_region_io *io, const char *root, char *name, size_t len)
{
	ct_crash_point("libcxl create_ram_region %s", root);
	struct cxl_decoder *d = decoder(io, root);
	struct cxl_region *r;

	if (!d)
		return -ENODEV;
	r = cxl_decoder_create_ram_region(d);
	if (!r)
		return -ENXIO;
	snprintf(name, len, "%s", cxl_region_get_devname(r));
	return 0;
}
#endif

static int set_granularity(struct ct_region_io *io, const char *name, unsigned g)
{
	ct_crash_point("libcxl %s interleave_granularity %u", name, g);
	struct cxl_region *r = region(io, name);

	return r ? cxl_region_set_interleave_granularity(r, g) : -ENODEV;
}

static int set_ways(struct ct_region_io *io, const char *name, unsigned w)
{
	ct_crash_point("libcxl %s interleave_ways %u", name, w);
	struct cxl_region *r = region(io, name);

	return r ? cxl_region_set_interleave_ways(r, w) : -ENODEV;
}

static int set_size(struct ct_region_io *io, const char *name, uint64_t size)
{
	ct_crash_point("libcxl %s size %llu", name, (unsigned long long)size);
	struct cxl_region *r = region(io, name);

	return r ? cxl_region_set_size(r, size) : -ENODEV;
}

static int set_mode(struct ct_region_io *io, const char *name, const char *mode)
{
	ct_crash_point("libcxl %s mode %s", name, mode);
	struct cxl_decoder *d = decoder(io, name);

	return d ? cxl_decoder_set_mode(d, cxl_decoder_mode_from_ident(mode)) : -ENODEV;
}

static int set_dpa_size(struct ct_region_io *io, const char *name, uint64_t size)
{
	ct_crash_point("libcxl %s dpa_size %llu", name, (unsigned long long)size);
	struct cxl_decoder *d = decoder(io, name);

	return d ? cxl_decoder_set_dpa_size(d, size) : -ENODEV;
}

static int set_target(struct ct_region_io *io, const char *name, unsigned pos, const char *dec)
{
	ct_crash_point("libcxl %s target%u %s", name, pos, dec ? dec : "none");
	struct cxl_region *r = region(io, name);
	struct cxl_decoder *d;

	if (!r)
		return -ENODEV;
	if (!dec)
		return cxl_region_clear_target(r, (int)pos);
	d = decoder(io, dec);
	return d ? cxl_region_set_target(r, (int)pos, d) : -ENODEV;
}

static int commit(struct ct_region_io *io, const char *name, bool on)
{
	ct_crash_point("libcxl %s commit %d", name, on);
	struct cxl_region *r = region(io, name);

	if (!r)
		return -ENODEV;
	return on ? cxl_region_decode_commit(r) : cxl_region_decode_reset(r);
}

static int enable(struct ct_region_io *io, const char *name, bool on)
{
	ct_crash_point("libcxl %s %s", name, on ? "enable" : "disable");
	struct cxl_region *r = region(io, name);

	if (!r)
		return -ENODEV;
	return on ? cxl_region_enable(r) : cxl_region_disable(r);
}

static int remove_region(struct ct_region_io *io, const char *root, const char *name)
{
	ct_crash_point("libcxl %s delete_region %s", root, name);
	struct cxl_region *r = region(io, name);

	(void)root;
	return r ? cxl_region_delete(r) : -ENODEV;
}

const struct ct_region_ops ct_region_libcxl_ops = {
	.name = "libcxl",
	.begin = begin,
	.end = end,
#if LIBCXL_VERSION >= 77
	.create_ram = create_ram,
#else
	.create_ram = NULL,	/* libcxl 76 creates only pmem regions */
#endif
	.set_granularity = set_granularity,
	.set_ways = set_ways,
	.set_size = set_size,
	.set_mode = set_mode,
	.set_dpa_size = set_dpa_size,
	.set_target = set_target,
	.commit = commit,
	.enable = enable,
	.remove = remove_region,
};
