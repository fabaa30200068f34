// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: a sysfs tree under --sysroot, built from the input (see
 * fuzz-tree.h): memdevs with endpoints and CDAT, regions with targets and
 * access figures, dax devices, memory blocks with state and valid_zones,
 * nodes with distances and access figures, memory tiers, the proc files
 * read beside them. Then what `list`, `tiers` and `online --dry-run` ask of
 * the library: the topology, the tier model, the block plan of every kind
 * of target. Nothing may crash, leak or hang, and what comes back must be
 * consistent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/context.h"
#include "fuzz-tree.h"
#include "change/blocks.h"
#include "views/tier-model.h"
#include "cxl/topology.h"

#define CXL "sys/bus/cxl/devices"
#define DAXBUS "sys/bus/dax/devices"
#define ROOT0 "sys/devices/platform/ACPI0017:00/root0"
#define MEMDIR "sys/devices/system/memory"
#define NODEDIR "sys/devices/system/node"
#define TIERDIR "sys/devices/virtual/memory_tiering"
#define P(...) ct_path(path, sizeof(path), __VA_ARGS__)

/* QEMU's default CDAT for a 1 GiB volatile device: one DSMAS, four
 * DSLBIS, one DSEMTS (test/fuzz/corpus-cdat/qemu-default.cdat) */
static const unsigned char cdat[160] = {
	0xa0, 0x00, 0x00, 0x00, 0x01, 0xae, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x18, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x18, 0x00, 0x00, 0x00, 0x01, 0x00,
	0x10, 0x27, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0f, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x01, 0x00, 0x18, 0x00, 0x00, 0x00, 0x02, 0x00, 0x10, 0x27, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x19, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x18, 0x00, 0x00, 0x00, 0x04, 0x00,
	0xe8, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x01, 0x00, 0x18, 0x00, 0x00, 0x00, 0x05, 0x00, 0xe8, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x18, 0x00, 0x00, 0x01, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00,
};

#define MAX_NODES 4
#define MAX_MEM 4
#define MAX_REG 3
#define MAX_DAX 2

/* what the tree was made of: the targets to plan */
struct model {
	unsigned nnode, node[MAX_NODES];
	unsigned nmem;
	unsigned nreg, ndax[MAX_REG];
	uint64_t first_block;
};

static void list_text(char *buf, size_t len, const unsigned *ids, unsigned n, unsigned mask)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < n; i++)
		if (mask & (1u << i))
			off += snprintf(buf + off, len - off, "%s%u", off ? "," : "", ids[i]);
}

static void access_dir(struct ft_tree *t, struct ft_in *in, const char *dir, uint64_t lat, uint64_t bw)
{
	static const char *const names[] = { "read_latency", "write_latency", "read_bandwidth", "write_bandwidth" };
	const uint64_t v[] = { lat, lat, bw, bw };
	char path[512];

	ft_attr_dir(t, in, dir);
	for (int i = 0; i < 4; i++)
		ft_attr_num(t, in, P("%s/%s", dir, names[i]), "%llu", v[i]);
}

static void nodes(struct ft_tree *t, struct ft_in *in, struct model *m)
{
	char path[512], buf[512], target[512];
	unsigned cpus = ft_pick(in, 1, 15), all = 0;

	m->nnode = ft_pick(in, 2, MAX_NODES);
	for (unsigned i = 0; i < m->nnode; i++) {
		m->node[i] = (i ? m->node[i - 1] + 1 : 0) + ft_u8(in) % 4;
		all |= 1u << i;
	}
	ft_attr_dir(t, in, NODEDIR);
	list_text(buf, sizeof(buf), m->node, m->nnode, all);
	ft_attr_str(t, in, NODEDIR "/online", buf);
	ft_attr_str(t, in, NODEDIR "/has_memory", buf);
	list_text(buf, sizeof(buf), m->node, m->nnode, cpus);
	ft_attr_str(t, in, NODEDIR "/has_cpu", buf);
	for (unsigned i = 0; i < m->nnode; i++) {
		unsigned id = m->node[i];
		size_t off = 0;

		ft_attr_dir(t, in, P(NODEDIR "/node%u", id));
		ft_attr_str(t, in, P(NODEDIR "/node%u/cpulist", id), cpus & (1u << i) ? "0-1" : "");
		snprintf(buf, sizeof(buf), "Node %u MemTotal:        1048576 kB\nNode %u MemFree:          524288 kB\n", id, id);
		ft_attr_str(t, in, P(NODEDIR "/node%u/meminfo", id), buf);
		for (unsigned j = 0; j < m->nnode; j++)
			off += snprintf(buf + off, sizeof(buf) - off, "%s%u", j ? " " : "", i == j ? 10 : 20 + 2 * (i + j));
		ft_attr_str(t, in, P(NODEDIR "/node%u/distance", id), buf);
		for (int a = 0; a < 2; a++) {
			char dir[256];
			if (ft_u8(in) & 1)
				continue;	/* no figures (no HMAT) */
			ct_path(dir, sizeof(dir), NODEDIR "/node%u/access%d/initiators", id, a);
			access_dir(t, in, dir, cpus & (1u << i) ? 100 : 300 + 17000 * (ft_u8(in) & 1), 20000);
			ct_path(target, sizeof(target), NODEDIR "/node%u", m->node[0]);
			ft_attr_link(t, in, P("%s/node%u", dir, m->node[0]), target, NULL);
		}
	}
}

static void memdevs(struct ft_tree *t, struct ft_in *in, struct model *m)
{
	char path[512], dir[256], other[256], ep[256], target[256];

	m->nmem = ft_pick(in, 1, MAX_MEM);
	for (unsigned i = 0; i < m->nmem; i++) {
		ct_path(dir, sizeof(dir), "sys/devices/pci0000:0c/0000:0c:00.%u/0000:%02x:00.0/mem%u", i, 0x0d + i, i);
		ct_path(other, sizeof(other), "sys/devices/pci0000:0c/0000:0c:00.0/0000:0d:00.0/mem0");
		ft_attr_dir(t, in, dir);
		ft_attr_link(t, in, P(CXL "/mem%u", i), dir, other);
		ft_attr_num(t, in, P("%s/serial", dir), "0x%llx", 0x1234 + i);
		ft_attr_num(t, in, P("%s/numa_node", dir), "%lld", (uint64_t)-1);
		ft_attr_str(t, in, P("%s/firmware_version", dir), "BWFW VERSION 00");
		ft_attr_num(t, in, P("%s/ram/size", dir), "0x%llx", 0x40000000);
		ft_attr_num(t, in, P("%s/pmem/size", dir), "0x%llx", 0);
		ft_attr_num(t, in, P("%s/ram/qos_class", dir), "%lld", 0);
		ft_attr_link(t, in, P("%s/driver", dir), "sys/bus/cxl/drivers/cxl_mem", NULL);
		if (ft_u8(in) & 1)
			continue;	/* no endpoint: the port is not there */
		ct_path(ep, sizeof(ep), ROOT0 "/port1/endpoint%u", 2 + i);
		ft_attr_dir(t, in, ep);
		ft_attr_link(t, in, P(CXL "/endpoint%u", 2 + i), ep, ROOT0 "/port1/endpoint2");
		ft_attr_link(t, in, P("%s/uport", ep), dir, other);
		ft_attr(t, in, P("%s/CDAT", ep), cdat, sizeof(cdat));
		ft_attr_link(t, in, P("%s/driver", ep), "sys/bus/cxl/drivers/cxl_port", NULL);
		ct_path(target, sizeof(target), "%s/decoder%u.0", ep, 2 + i);
		ft_attr_dir(t, in, target);
		ft_attr_link(t, in, P(CXL "/decoder%u.0", 2 + i), target, ROOT0 "/decoder0.0");
	}
}

static void block(struct ft_tree *t, struct ft_in *in, uint64_t id, unsigned node)
{
	static const char *const states[] = { "online", "offline", "online", "going-offline" };
	static const char *const zones[] = { "Movable", "Normal", "none", "DMA32" };
	char path[512], dir[256], target[256];
	unsigned st = ft_u8(in) % 4, z = ft_u8(in) % 4;

	ct_path(dir, sizeof(dir), MEMDIR "/memory%llu", (unsigned long long)id);
	ft_attr_dir(t, in, dir);
	ft_attr_str(t, in, P("%s/state", dir), states[st]);
	ft_attr_str(t, in, P("%s/valid_zones", dir), st == 1 ? (z & 1 ? "Normal Movable" : "Movable Normal") : zones[z]);
	ct_path(target, sizeof(target), NODEDIR "/node%u", node);
	ft_attr_link(t, in, P("%s/node%u", dir, node), target, NODEDIR "/node0");
	ft_attr_link(t, in, P(NODEDIR "/node%u/memory%llu", node, (unsigned long long)id), dir, MEMDIR "/memory0");
}

static void regions(struct ft_tree *t, struct ft_in *in, struct model *m, uint64_t bs)
{
	static const char *const drivers[] = { "kmem", "kmem", "device_dax", NULL };
	char path[512], dir[256], dax[256], target[256];
	uint64_t base = 0x1000000000ULL;

	m->nreg = ft_pick(in, 1, MAX_REG);
	m->first_block = base / bs;
	for (unsigned r = 0; r < m->nreg; r++) {
		unsigned ways = ft_pick(in, 1, 4), nblk[MAX_DAX];
		uint64_t size = 0;

		m->ndax[r] = ft_pick(in, 1, MAX_DAX);
		for (unsigned j = 0; j < m->ndax[r]; j++) {
			nblk[j] = ft_pick(in, 2, 6);
			size += nblk[j] * bs;
		}
		ct_path(dir, sizeof(dir), ROOT0 "/decoder0.0/region%u", r);
		ft_attr_dir(t, in, dir);
		ft_attr_link(t, in, P(CXL "/region%u", r), dir, ROOT0 "/decoder0.0/region0");
		ft_attr_str(t, in, P("%s/mode", dir), "ram");
		ft_attr_num(t, in, P("%s/size", dir), "0x%llx", size);
		ft_attr_num(t, in, P("%s/interleave_ways", dir), "%llu", ways);
		ft_attr_num(t, in, P("%s/interleave_granularity", dir), "%llu", 256);
		ft_attr_num(t, in, P("%s/resource", dir), "0x%llx", base);
		ft_attr_num(t, in, P("%s/commit", dir), "%llu", 1);
		ft_attr_link(t, in, P("%s/driver", dir), "sys/bus/cxl/drivers/cxl_region", NULL);
		for (unsigned w = 0; w < ways; w++) {
			char dec[32];
			snprintf(dec, sizeof(dec), "decoder%u.0", 2 + ft_u8(in) % (m->nmem ? m->nmem : 1));
			ft_attr_str(t, in, P("%s/target%u", dir, w), dec);
		}
		for (int a = 0; a < 2; a++)
			if (!(ft_u8(in) & 1))
				access_dir(t, in, P("%s/access%d", dir, a), 300 + 17000 * (ft_u8(in) & 1), 16000);
		ft_attr_dir(t, in, P("%s/dax_region%u", dir, r));
		ft_dir(t, P("%s/dax_region%u/dax_region", dir, r));
		for (unsigned j = 0; j < m->ndax[r]; j++) {
			const char *drv = drivers[ft_u8(in) % 4];
			unsigned node = m->nnode ? m->node[(m->nnode - 1 + ft_u8(in)) % m->nnode] : 0;

			ct_path(dax, sizeof(dax), "%s/dax_region%u/dax%u.%u", dir, r, r, j);
			ft_attr_dir(t, in, dax);
			ft_attr_link(t, in, P(DAXBUS "/dax%u.%u", r, j), dax, NULL);
			ft_attr_num(t, in, P("%s/size", dax), "%llu", nblk[j] * bs);
			ft_attr_num(t, in, P("%s/resource", dax), "0x%llx", base);
			ft_attr_num(t, in, P("%s/target_node", dax), "%lld", node);
			if (drv) {
				ct_path(target, sizeof(target), "sys/bus/dax/drivers/%s", drv);
				ft_attr_link(t, in, P("%s/driver", dax), target, NULL);
			}
			for (unsigned k = 0; drv && !strcmp(drv, "kmem") && k < nblk[j]; k++)
				block(t, in, base / bs + k, node);
			base += nblk[j] * bs;
		}
	}
}

static void tiers(struct ft_tree *t, struct ft_in *in, const struct model *m)
{
	static const char *const odd[] = { "memory_tier", "memory_tier-1", "memory_tier2147483647",
					   "memory_tier-2147483648", "memory_tier99999999999", "memory_tierX",
					   "memory_tier4.5", "memory_tier 4" };
	char path[512], name[64], buf[256];
	unsigned n = ft_pick(in, 2, 3);

	ft_attr_dir(t, in, TIERDIR);
	for (unsigned i = 0; i < n; i++) {
		unsigned c = ft_u8(in), mask = i == 0 ? 1 : i == 1 ? ~1u : 0;
		if (c >= 128)
			snprintf(name, sizeof(name), "%s", odd[c % 8]);
		else
			snprintf(name, sizeof(name), "memory_tier%u", (4 + 4 * i + c) % 32);
		list_text(buf, sizeof(buf), m->node, m->nnode, mask ^ ft_u8(in));
		ft_attr_str(t, in, P(TIERDIR "/%s/%s", name, ft_u8(in) & 1 ? "nodes" : "nodelist"), buf);
	}
}

/* names no kernel makes, in the directories the library lists */
static void strays(struct ft_tree *t, struct ft_in *in)
{
	static const char *const dirs[] = { CXL, DAXBUS, MEMDIR, NODEDIR, TIERDIR, NODEDIR "/node0",
					    NODEDIR "/node0/access1/initiators", ROOT0 "/decoder0.0/region0/dax_region0" };
	static const char *const names[] = { "mem", "mem99999999999999999999999", "region", "regionX", "endpoint",
					     "endpoint9", "dax", "dax9.9", "dax.", "memory", "memory18446744073709551616",
					     "memory99999999999999999999", "node", "node-1", "node2147483648", "memory_tier",
					     "memory_tier9", ".hidden", "memory1-2", "region9", "mem9", "decoder9.0",
					     "dax_region", "dax_region9", "node9", "memory9" };
	unsigned n = ft_pick(in, 0, 4);
	char path[512], what[64];

	for (unsigned i = 0; i < n; i++) {
		const char *dir = dirs[ft_u8(in) % 8], *name = names[ft_u8(in) % (sizeof(names) / sizeof(names[0]))];
		snprintf(what, sizeof(what), "%s", name);
		ft_attr_link(t, in, P("%s/%s", dir, what), dir, NULL);	/* sane: a link back to its own directory */
	}
}

static void build(struct ft_tree *t, struct ft_in *in, struct model *m)
{
	char buf[1024];
	uint64_t bs = 0x8000000ULL << ft_pick(in, 0, 3);

	ft_attr_dir(t, in, "sys/bus/cxl");
	ft_dir(t, CXL);
	ft_dir(t, "sys/bus/cxl/drivers/cxl_mem");
	ft_dir(t, "sys/bus/cxl/drivers/cxl_port");
	ft_dir(t, "sys/bus/cxl/drivers/cxl_region");
	ft_dir(t, "sys/bus/dax/drivers/kmem");
	ft_dir(t, "sys/bus/dax/drivers/device_dax");
	ft_dir(t, DAXBUS);
	ft_attr_dir(t, in, MEMDIR);
	ft_attr_num(t, in, MEMDIR "/block_size_bytes", "%llx", bs);
	ft_attr_str(t, in, MEMDIR "/auto_online_blocks", "offline");
	ft_attr_str(t, in, "proc/sys/kernel/osrelease", ft_u8(in) & 1 ? "7.3.0" : "6.12.95+deb12-amd64");
	ft_attr_str(t, in, "sys/kernel/mm/numa/demotion_enabled", "false");
	ft_attr_str(t, in, "proc/sys/kernel/numa_balancing", "0");
	ft_attr_str(t, in, "proc/sys/kernel/numa_balancing_promote_rate_limit_MBps", "65536");
	nodes(t, in, m);
	memdevs(t, in, m);
	regions(t, in, m, bs);
	/* two boot memory blocks outside CXL */
	block(t, in, 0, m->nnode ? m->node[0] : 0);
	block(t, in, 1, m->nnode ? m->node[0] : 0);
	tiers(t, in, m);
	snprintf(buf, sizeof(buf), "Node %u, zone   Normal\n  pages free     1\n        present  262144\n"
		 "Node %u, zone  Movable\n        present  262144\n", m->nnode ? m->node[0] : 0,
		 m->nnode > 1 ? m->node[1] : 1);
	ft_attr_str(t, in, "proc/zoneinfo", buf);
	strays(t, in);
}

static void check_str(const char *s, size_t size)
{
	if (!memchr(s, '\0', size))
		abort();
}

static void check_topology(const struct ct_topology *t)
{
	for (size_t i = 0; i < t->nmemdevs; i++) {
		check_str(t->memdevs[i].name, CT_NAME);
		check_str(t->memdevs[i].host, CT_NAME);
		check_str(t->memdevs[i].endpoint, CT_NAME);
		check_str(t->memdevs[i].firmware, CT_NAME);
	}
	for (size_t i = 0; i < t->nregions; i++) {
		const struct ct_region *r = &t->regions[i];
		check_str(r->mode, sizeof(r->mode));
		check_str(r->root_decoder, CT_NAME);
		if (r->ntargets > CT_MAX_TARGETS)
			abort();
		for (unsigned k = 0; k < r->ntargets; k++) {
			check_str(r->targets[k], CT_NAME);
			check_str(r->memdevs[k], CT_NAME);
		}
		for (size_t j = 0; j < r->ndax; j++) {
			const struct ct_blocks *b = &r->dax[j].blocks;
			check_str(r->dax[j].mode, sizeof(r->dax[j].mode));
			if (b->online + b->offline != b->total || b->movable + b->normal + b->other_zone != b->online)
				abort();
		}
	}
}

static void plan_one(struct ct_context *ctx, const struct ct_topology *t, const char *target)
{
	struct ct_blocks_plan p = { 0 };
	const struct ct_dax *devdax = NULL;

	ct_blocks_plan_add_target(&ctx->sys, t, &p, target, &devdax);
	for (int want = CT_WANT_MOVABLE; want <= CT_WANT_OFFLINE; want++)
		for (int re = 0; re < 2; re++) {
			ct_blocks_plan_decide(&p, (enum ct_blocks_want)want, re);
			for (size_t i = 0; i < p.n; i++) {
				const struct ct_block_op *op = &p.op[i];
				if (op->action > CT_ACT_REFUSE || op->result != CT_RES_PLANNED || op->before.nzones > 4 ||
				    !ct_block_state_name(op->before.state))
					abort();
				/* the owner's name and the note: strings (read whole) */
				if (!op->owner || strlen(op->owner) >= 4096 || strlen(ct_blocks_note_of(op)) >= 4096)
					abort();
				for (unsigned z = 0; z < op->before.nzones; z++)
					if (!ct_zone_name(op->before.zones[z]))
						abort();
			}
		}
	ct_blocks_plan_free(&p);
	ct_error_clear(&ctx->err);
}

/* one target per input, as `online --dry-run TARGET` gets it: 0 is "all" */
static void plan(struct ct_context *ctx, const struct ct_topology *t, const struct model *m, unsigned pick)
{
	char name[64] = "all";
	unsigned k = 1;

	for (unsigned r = 0; r < m->nreg; r++) {
		if (pick == k++)
			snprintf(name, sizeof(name), "region%u", r);
		for (unsigned j = 0; j < m->ndax[r]; j++)
			if (pick == k++)
				snprintf(name, sizeof(name), "dax%u.%u", r, j);
	}
	for (unsigned i = 0; i < m->nmem; i++)
		if (pick == k++)
			snprintf(name, sizeof(name), "mem%u", i);
	for (unsigned i = 0; i < m->nnode; i++)
		if (pick == k++)
			snprintf(name, sizeof(name), "node%u", m->node[i]);
	if (pick == k++)
		snprintf(name, sizeof(name), "memory%llu-%llu", (unsigned long long)m->first_block,
			 (unsigned long long)m->first_block + 3);
	plan_one(ctx, t, name);
}

static void check_model(const struct ct_tier_model *m)
{
	bool seen[64] = { false };

	if (m->count > m->numa.count)
		abort();
	for (size_t i = 0; i < m->count; i++) {
		const struct ct_tier_node *x = &m->nodes[i];
		if (x->rank < 0 || (size_t)x->rank > m->count || (x->rank && x->rank_source == CT_RANK_NONE))
			abort();
		if (x->rank && x->rank < 64) {
			if (seen[x->rank])
				abort();
			seen[x->rank] = true;
		}
		check_str(x->access[0].region, CT_NAME);
		check_str(x->access[1].region, CT_NAME);
	}
	for (size_t i = 0; i < m->numa.count; i++)
		check_str(m->numa.nodes[i].cpulist, sizeof(m->numa.nodes[i].cpulist));
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	setenv("CXLTIER_BACKEND", "sysfs", 1);
	ft_root();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ft_in in = { data, size, 0 };
	struct ft_tree *tree = ft_begin();
	struct model m = { 0 };
	struct ct_context *ctx;
	struct ct_topology t, *topo = NULL;
	struct ct_tier_model tm;
	unsigned target, from;

	target = ft_u8(&in);	/* first: what to plan and rank from, often mutated */
	from = ft_u8(&in);
	build(tree, &in, &m);
	ft_make(tree);
	if (ct_context_new(&ctx, ft_root())) {
		ct_context_free(ctx);
		abort();	/* the root itself is always there */
	}
	/* tiers [--from NODE]: it loads the topology `list` shows too */
	if (ct_tier_model_load(ctx, from && m.nnode ? (int)m.node[from % m.nnode] : -1, &tm) == 0) {
		check_model(&tm);
		if (tm.have_topo)
			topo = &tm.topo;
	} else {
		memset(&tm, 0, sizeof(tm));
	}
	ct_error_clear(&ctx->err);
	if (!topo && ct_topology_load(ctx, &t) == 0)
		topo = &t;
	/* list, then online --dry-run TARGET */
	if (topo) {
		check_topology(topo);
		plan(ctx, topo, &m, target);
	}
	if (topo == &t)
		ct_topology_free(&t);
	ct_tier_model_free(&tm);
	ct_context_free(ctx);
	return 0;
}
