// SPDX-License-Identifier: GPL-2.0-only
/* The region planner on the shapes the kernel supports: one device, two
 * devices on one host bridge, two host bridges under a 2-way window, a
 * switch, 2 x 2, and what it must refuse. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include "tap.h"
#include "change/region.h"

#define G (1ULL << 30)

static struct ct_root_decoder roots[8];
static struct ct_endpoint_info eps[16];
static struct ct_fabric fab;

static void reset(void)
{
	memset(roots, 0, sizeof(roots));
	memset(eps, 0, sizeof(eps));
	fab = (struct ct_fabric){ roots, 0, eps, 0 };
}

/* root decoder: name, ways, then ways host-bridge ids */
static struct ct_root_decoder *root(const char *name, unsigned ways, ...)
{
	struct ct_root_decoder *r = &roots[fab.nroots++];
	va_list ap;

	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(r->port, sizeof(r->port), "root0");
	r->cap_ram = r->can_create_ram = true;
	r->ways = r->ntargets = ways;
	r->granularity = 256;
	r->start = 0x100000000ULL;
	r->size = r->free_size = 16 * G;
	r->free_start = r->start;
	r->qos_class = -1;
	va_start(ap, ways);
	for (unsigned i = 0; i < ways; i++)
		r->targets[i] = va_arg(ap, int);
	va_end(ap);
	return r;
}

/* memdev memN at endpoint "endpointK": path of (port, dport) pairs, -1 ends */
static struct ct_endpoint_info *ep(const char *memdev, int id, ...)
{
	struct ct_endpoint_info *e = &eps[fab.neps++];
	va_list ap;
	int d;

	snprintf(e->memdev, sizeof(e->memdev), "%s", memdev);
	snprintf(e->endpoint, sizeof(e->endpoint), "endpoint%d", id);
	snprintf(e->free_decoder, sizeof(e->free_decoder), "decoder%d.0", id);
	snprintf(e->free_decoder_mode, sizeof(e->free_decoder_mode), "none");
	e->enabled = true;
	e->ram_size = e->ram_free = 1 * G;
	e->ndecoders = 4;
	e->qos_class = -1;
	va_start(ap, id);
	while ((d = va_arg(ap, int)) >= 0) {
		snprintf(e->path[e->depth].port, CT_NAME, "%s", va_arg(ap, const char *));
		e->path[e->depth++].dport = d;
	}
	va_end(ap);
	return e;
}

static int plan(struct ct_region_plan *p, struct ct_error *err, const char *rd, unsigned ways, unsigned gran,
		uint64_t size, int n, ...)
{
	const char *names[16];
	va_list ap;

	va_start(ap, n);
	for (int i = 0; i < n; i++)
		names[i] = va_arg(ap, const char *);
	va_end(ap);
	struct ct_region_req req = { names, (size_t)n, rd, ways, gran, size };
	memset(err, 0, sizeof(*err));
	return ct_region_plan_make(&fab, &req, p, err);
}

static const char *order(const struct ct_region_plan *p)
{
	static char buf[128];
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < p->ways; i++)
		off += snprintf(buf + off, sizeof(buf) - off, "%s%s", i ? "," : "", p->members[i].memdev);
	return buf;
}

int main(void)
{
	struct ct_region_plan p;
	struct ct_error err;

	/* one device behind one root port: the lab's default */
	reset();
	root("decoder0.0", 1, 12);
	ep("mem0", 2, 12, "root0", 0, "port1", -1);
	is_int(plan(&p, &err, NULL, 0, 0, 0, 1, "mem0"), 0, "one memdev: planned");
	is_str(p.root_decoder, "decoder0.0", "root decoder chosen");
	is_int(p.ways, 1, "1 way");
	is_int(p.granularity, 256, "the root decoder's granularity");
	is_int(p.size, 1 * G, "all its volatile capacity");
	is_str(p.members[0].decoder, "decoder2.0", "its free endpoint decoder");
	is_int(p.members[0].dpa_size, 1 * G, "dpa_size = size / ways");
	is_int(plan(&p, &err, NULL, 0, 4096, 0, 1, "mem0"), 0, "a 1-way window takes any granularity");
	is_int(p.granularity, 4096, "the granularity given");
	is_int(plan(&p, &err, NULL, 0, 0, 512ULL << 20, 1, "mem0"), 0, "a smaller size");
	is_int(p.members[0].dpa_size, 512ULL << 20, "its share");
	ok(plan(&p, &err, NULL, 0, 0, 2 * G, 1, "mem0") == -ENOSPC && strstr(err.msg, "only 1G free"),
	   "more than the memdev has: %s", err.msg);
	ok(plan(&p, &err, NULL, 0, 0, 100 << 20, 1, "mem0") == -EINVAL && strstr(err.msg, "multiple of 256M"),
	   "size not a multiple of 256M x ways: %s", err.msg);
	is_int(plan(&p, &err, NULL, 0, 0, 1 * G, 1, "mem0"), 0, "a size of all the memdev's free capacity: %s", err.msg);
	ok(plan(&p, &err, NULL, 0, 300, 0, 1, "mem0") == -EINVAL, "granularity 300 refused: %s", err.msg);
	ok(ct_region_granularity_valid(256) && ct_region_granularity_valid(16384) && !ct_region_granularity_valid(128) &&
	   !ct_region_granularity_valid(32768), "granularities from 256 to 16384");
	is_int(plan(&p, &err, NULL, 0, 16384, 0, 1, "mem0"), 0, "granularity 16384: %s", err.msg);
	ok(plan(&p, &err, NULL, 0, 32768, 0, 1, "mem0") == -EINVAL, "granularity 32768 refused: %s", err.msg);
	ok(plan(&p, &err, NULL, 0, 0, 0, 2, "mem0", "mem0") == -EINVAL && strstr(err.msg, "twice"),
	   "a memdev given twice: %s", err.msg);
	ok(plan(&p, &err, NULL, 0, 0, 0, 1, "mem7") == -ENODEV && strstr(err.msg, "mem7"), "unknown memdev: %s", err.msg);
	ok(plan(&p, &err, "decoder9.9", 0, 0, 0, 1, "mem0") == -ENOENT, "unknown root decoder: %s", err.msg);
	ok(plan(&p, &err, NULL, 2, 0, 0, 1, "mem0") == -EINVAL && strstr(err.msg, "2 ways but 1 memdevs"),
	   "--ways must match: %s", err.msg);
	eps[0].free_decoder[0] = '\0';
	eps[0].used_decoders = 4;
	ok(plan(&p, &err, NULL, 0, 0, 0, 1, "mem0") == -ENOSPC && strstr(err.msg, "no free endpoint decoder"),
	   "no free decoder: %s", err.msg);
	snprintf(eps[0].free_decoder, CT_NAME, "decoder2.1");
	eps[0].ram_free = 0;
	ok(plan(&p, &err, NULL, 0, 0, 0, 1, "mem0") == -ENOSPC && strstr(err.msg, "no free volatile"),
	   "no free capacity: %s", err.msg);
	eps[0].ram_free = 1 * G;
	roots[0].free_size = 768ULL << 20;
	is_int(plan(&p, &err, NULL, 0, 0, 0, 1, "mem0"), 0, "a fuller window...");
	is_int(p.size, 768ULL << 20, "...gives what is left, 256M aligned");
	roots[0].can_create_ram = false;
	ok(plan(&p, &err, NULL, 0, 0, 0, 1, "mem0") == -EOPNOTSUPP, "no create_ram_region: not supported: %s", err.msg);

	/* two devices on one host bridge, two root ports (run.sh two-devices) */
	reset();
	root("decoder0.0", 1, 12);
	ep("mem0", 3, 12, "root0", 1, "port1", -1);
	ep("mem1", 2, 12, "root0", 0, "port1", -1);
	is_int(plan(&p, &err, NULL, 0, 0, 0, 2, "mem0", "mem1"), 0, "2 devices, one host bridge");
	is_str(order(&p), "mem1,mem0", "positions follow the root ports (dport 0 first)");
	is_int(p.size, 2 * G, "size = sum");
	is_str(p.members[1].decoder, "decoder3.0", "each memdev's own decoder");

	/* two host bridges, a 2-way window over them (targets 13, 12) and a
	 * 1-way window on each */
	reset();
	root("decoder0.0", 1, 12);
	root("decoder0.1", 1, 13);
	root("decoder0.2", 2, 13, 12);
	ep("mem0", 3, 12, "root0", 0, "port1", -1);
	ep("mem1", 4, 13, "root0", 0, "port2", -1);
	is_int(plan(&p, &err, NULL, 0, 0, 0, 2, "mem0", "mem1"), 0, "across host bridges");
	is_str(p.root_decoder, "decoder0.2", "the window that interleaves both host bridges");
	is_str(order(&p), "mem1,mem0", "position p on target[p %% 2]: host bridge 13 first");
	is_int(p.root_ways, 2, "root ways 2");
	is_int(plan(&p, &err, NULL, 0, 0, 0, 1, "mem1"), 0, "one of them alone");
	is_str(p.root_decoder, "decoder0.1", "the window of its own host bridge");
	ok(plan(&p, &err, "decoder0.2", 0, 0, 0, 1, "mem1") == -EINVAL && strstr(err.msg, "interleaves 2 host bridges"),
	   "1 memdev cannot fill a 2-way window: %s", err.msg);
	ok(plan(&p, &err, NULL, 0, 512, 0, 2, "mem0", "mem1") == -EINVAL && strstr(err.msg, "must use 256"),
	   "a 2-way window fixes the granularity: %s", err.msg);
	ok(plan(&p, &err, "decoder0.0", 0, 0, 0, 2, "mem0", "mem1") == -EINVAL && strstr(err.msg, "host bridge 13"),
	   "a window that does not reach a memdev: %s", err.msg);

	/* a switch below one root port: both devices on its downstream ports */
	reset();
	root("decoder0.0", 1, 12);
	ep("mem0", 4, 12, "root0", 0, "port1", 1, "port3", -1);
	ep("mem1", 5, 12, "root0", 0, "port1", 0, "port3", -1);
	is_int(plan(&p, &err, NULL, 0, 0, 0, 2, "mem0", "mem1"), 0, "behind a switch");
	is_str(order(&p), "mem1,mem0", "positions follow the switch's downstream ports");

	/* 2 host bridges x 2 root ports, 4-way */
	reset();
	root("decoder0.0", 2, 12, 13);
	ep("mem0", 4, 12, "root0", 0, "port1", -1);
	ep("mem1", 5, 12, "root0", 1, "port1", -1);
	ep("mem2", 6, 13, "root0", 0, "port2", -1);
	ep("mem3", 7, 13, "root0", 1, "port2", -1);
	is_int(plan(&p, &err, NULL, 0, 0, 0, 4, "mem3", "mem2", "mem1", "mem0"), 0, "4-way over 2 x 2");
	is_str(order(&p), "mem0,mem2,mem1,mem3", "host bridge by p %% 2, root port by p / 2");
	is_int(p.size, 4 * G, "4G");
	ok(plan(&p, &err, NULL, 0, 0, 0, 3, "mem0", "mem1", "mem2") == -EINVAL, "3 over a 2-way window: %s", err.msg);
	ok(plan(&p, &err, NULL, 0, 0, 0, 2, "mem0", "mem1") == -EINVAL && strstr(err.msg, "host bridge 12 has 2"),
	   "both on one host bridge of a 2-way window: %s", err.msg);

	/* an uneven tree: 2 behind a switch on one root port, 1 on the other */
	reset();
	root("decoder0.0", 1, 12);
	ep("mem0", 4, 12, "root0", 0, "port1", 0, "port3", -1);
	ep("mem1", 5, 12, "root0", 0, "port1", 1, "port3", -1);
	ep("mem2", 6, 12, "root0", 1, "port1", -1);
	ep("mem3", 7, 12, "root0", 2, "port1", -1);
	ok(plan(&p, &err, NULL, 0, 0, 0, 4, "mem0", "mem1", "mem2", "mem3") == -EINVAL &&
	   strstr(err.msg, "power-of-2"), "3 root ports: refused: %s", err.msg);
	ok(plan(&p, &err, NULL, 0, 0, 0, 3, "mem0", "mem1", "mem2") == -EINVAL, "3 ways on a 1-way window: %s", err.msg);
	is_int(plan(&p, &err, NULL, 0, 0, 0, 2, "mem2", "mem3"), 0, "the two direct ones");

	/* QoS: the window whose class matches the memdevs comes first */
	reset();
	root("decoder0.0", 1, 12)->qos_class = 1;
	root("decoder0.1", 1, 12)->qos_class = 0;
	ep("mem0", 2, 12, "root0", 0, "port1", -1)->qos_class = 0;
	is_int(plan(&p, &err, NULL, 0, 0, 0, 1, "mem0"), 0, "two windows");
	is_str(p.root_decoder, "decoder0.1", "the one of the same QoS class");
	return tap_done();
}
