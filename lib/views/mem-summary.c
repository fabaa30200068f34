// SPDX-License-Identifier: LGPL-2.1-or-later
/* mem-summary.c - memory blocks by node, state and zone (see
 * mem-summary.h); blocks are read through memblock.c */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "core/context.h"
#include "mm/memblock.h"
#include "views/mem-summary.h"

#define NODES "/sys/devices/system/node"

/* "memory34" -> 34; false for memory_tiering, memory_failure... */
static bool block_id(const char *name, uint64_t *id)
{
	char *end;

	if (strncmp(name, "memory", 6) || name[6] < '0' || name[6] > '9')
		return false;
	*id = strtoull(name + 6, &end, 10);
	return !*end;
}

static struct ct_node_blocks *node_of(struct ct_mem_summary *s, int node)
{
	struct ct_node_blocks *n;

	for (size_t i = 0; i < s->nnodes; i++)
		if (s->nodes[i].node == node)
			return &s->nodes[i];
	n = realloc(s->nodes, (s->nnodes + 1) * sizeof(*n));
	if (!n)
		return NULL;
	s->nodes = n;
	n = &s->nodes[s->nnodes++];
	memset(n, 0, sizeof(*n));
	n->node = node;
	return n;
}

static bool is_cxl(const struct ct_topology *t, uint64_t id)
{
	for (size_t i = 0; t && i < t->nregions; i++)
		for (size_t j = 0; j < t->regions[i].ndax; j++) {
			const struct ct_blocks *b = &t->regions[i].dax[j].blocks;
			if (b->total && id >= b->first && id < b->first + b->total)
				return true;
		}
	return false;
}

static void count(struct ct_node_blocks *n, const struct ct_block *b, bool cxl)
{
	n->blocks++;
	n->cxl += cxl;
	if (b->state != CT_BLOCK_ONLINE) {
		n->offline++;
		return;
	}
	n->online++;
	n->cxl_online += cxl;
	if (b->nzones && b->zones[0] == CT_ZONE_MOVABLE)
		n->movable++;
	else if (b->nzones && b->zones[0] == CT_ZONE_NORMAL)
		n->normal++;
	else
		n->other_zone++;
}

static int cmp_node(const void *a, const void *b)
{
	return ((const struct ct_node_blocks *)a)->node - ((const struct ct_node_blocks *)b)->node;
}

int ct_mem_summary_load(struct ct_context *ctx, const struct ct_topology *t, struct ct_mem_summary *s)
{
	struct ct_sysfs *sys = &ctx->sys;
	char **blocks = NULL, **nodes = NULL, **mem, path[128];
	size_t nblocks = 0, nnodes = 0, nmem;
	int *node_by_block = NULL, rc;
	uint64_t max = 0, id;

	memset(s, 0, sizeof(*s));
	s->total.node = -1;
	if ((rc = ct_sysfs_present(sys, CT_MEMORY_DIR "/block_size_bytes")) < 0)
		return rc;
	if (!rc)
		return ct_fail(&ctx->err, EOPNOTSUPP, "no memory blocks here (%s" CT_MEMORY_DIR ": no memory hotplug)", sys->root);
	if ((rc = ct_block_size_cached(ctx, &s->block_size)) || (rc = ct_sysfs_list(sys, CT_MEMORY_DIR, "memory", &blocks, &nblocks)))
		return rc;
	for (size_t i = 0; i < nblocks; i++)
		if (block_id(blocks[i], &id) && id >= max)
			max = id + 1;
	node_by_block = malloc((max + 1) * sizeof(int));
	if (!node_by_block) {
		rc = ct_fail(&ctx->err, ENOMEM, "out of memory");
		goto out;
	}
	for (uint64_t i = 0; i <= max; i++)
		node_by_block[i] = -1;
	/* the node of each block: the memoryN entries of nodeM */
	if (ct_sysfs_list(sys, NODES, "node", &nodes, &nnodes) == 0)
		for (size_t i = 0; i < nnodes; i++) {
			char *end;
			long n = strtol(nodes[i] + 4, &end, 10);
			if (*end || ct_sysfs_list(sys, ct_path(path, sizeof(path), NODES "/%s", nodes[i]), "memory", &mem, &nmem))
				continue;
			for (size_t k = 0; k < nmem; k++)
				if (block_id(mem[k], &id) && id < max)
					node_by_block[id] = (int)n;
			ct_strv_free(mem, nmem);
		}
	ct_error_clear(&ctx->err);
	for (size_t i = 0; i < nblocks && !rc; i++) {
		struct ct_node_blocks *n;
		struct ct_block b;
		bool cxl;

		if (!block_id(blocks[i], &id))
			continue;
		if ((rc = ct_block_read(sys, id, &b)))
			break;
		if (!(n = node_of(s, node_by_block[id]))) {
			rc = ct_fail(&ctx->err, ENOMEM, "out of memory");
			break;
		}
		cxl = is_cxl(t, id);
		count(n, &b, cxl);
		count(&s->total, &b, cxl);
	}
	if (s->nnodes)
		qsort(s->nodes, s->nnodes, sizeof(*s->nodes), cmp_node);
out:
	free(node_by_block);
	ct_strv_free(blocks, nblocks);
	ct_strv_free(nodes, nnodes);
	if (rc)
		ct_mem_summary_free(s);
	return rc;
}

void ct_mem_summary_free(struct ct_mem_summary *s)
{
	free(s->nodes);
	s->nodes = NULL;
	s->nnodes = 0;
}
