// SPDX-License-Identifier: LGPL-2.1-or-later
/* region-plan.c - choose how to build a RAM region over given memdevs: the
 * root decoder, the interleave order, decoders, granularity and size, by the
 * kernel's rules (see region.h). Pure: works on a loaded fabric. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "change/region.h"
#include "core/sysfs.h"

#define SZ_256M (256ULL << 20)

bool ct_region_ways_valid(unsigned w)
{
	return w == 1 || w == 2 || w == 4 || w == 8 || w == 16 || w == 3 || w == 6 || w == 12;
}

static bool pow2(unsigned v)
{
	return v && !(v & (v - 1));
}

bool ct_region_granularity_valid(unsigned g)
{
	return pow2(g) && g >= 256 && g <= 16384;
}

static const char *human(uint64_t v, char *buf, size_t len)
{
	if (v && !(v % (1ULL << 30)))
		snprintf(buf, len, "%lluG", (unsigned long long)(v >> 30));
	else if (v && !(v % (1ULL << 20)))
		snprintf(buf, len, "%lluM", (unsigned long long)(v >> 20));
	else
		snprintf(buf, len, "%llu bytes", (unsigned long long)v);
	return buf;
}

struct fit {
	const struct ct_endpoint_info *const *eps;	/* by request order */
	unsigned n;
	char *why;					/* why this root decoder does not fit */
	size_t whylen;
};

/*
 * Order the memdevs below one port (all share path[0..level-1]): spread over
 * that port's downstream ports in turn. out[k] gets the k-th member.
 */
static int order(const struct fit *ft, const unsigned *in, unsigned m, unsigned level, unsigned *out)
{
	int ids[CT_MAX_TARGETS];
	unsigned ng = 0, per, cnt[CT_MAX_TARGETS] = { 0 };

	if (m == 1) {
		out[0] = in[0];
		return 0;
	}
	for (unsigned i = 0; i < m; i++) {
		const struct ct_endpoint_info *e = ft->eps[in[i]];
		unsigned g;
		if (level >= e->depth) {
			snprintf(ft->why, ft->whylen, "%s and other memdevs meet below %s, which has one downstream port for them",
				 e->memdev, e->path[level < e->depth ? level : e->depth - 1].port);
			return -EINVAL;
		}
		for (g = 0; g < ng && ids[g] != e->path[level].dport; g++)
			;
		if (g == ng)
			ids[ng++] = e->path[level].dport;
		cnt[g]++;
	}
	/* downstream ports in id order */
	for (unsigned a = 0; a < ng; a++)
		for (unsigned b = a + 1; b < ng; b++)
			if (ids[b] < ids[a]) {
				int t = ids[a]; ids[a] = ids[b]; ids[b] = t;
				unsigned c = cnt[a]; cnt[a] = cnt[b]; cnt[b] = c;
			}
	per = m / ng;
	for (unsigned g = 0; g < ng; g++)
		if (!pow2(ng) || cnt[g] != per || ng * per != m) {
			snprintf(ft->why, ft->whylen,
				 "below %s the memdevs sit on %u downstream ports, %u on port %d: the kernel needs a power-of-2 "
				 "number of ports with the same number of memdevs each",
				 ft->eps[in[0]]->path[level].port, ng, cnt[g], ids[g]);
			return -EINVAL;
		}
	for (unsigned g = 0; g < ng; g++) {
		unsigned sub[CT_MAX_TARGETS], res[CT_MAX_TARGETS], k = 0;
		int rc;
		for (unsigned i = 0; i < m; i++)
			if (ft->eps[in[i]]->path[level].dport == ids[g])
				sub[k++] = in[i];
		rc = order(ft, sub, k, level + 1, res);
		if (rc)
			return rc;
		for (unsigned s = 0; s < k; s++)
			out[g + ng * s] = res[s];
	}
	return 0;
}

/* can this root decoder take the memdevs? fills plan when it can */
static int fit_root(const struct fit *ft, const struct ct_root_decoder *rd, const struct ct_region_req *req,
		    struct ct_region_plan *plan)
{
	unsigned w = ft->n, r = rd->ways, pos[CT_MAX_TARGETS], g;
	uint64_t per = UINT64_MAX, size;
	char a[32], b[32];

	if (!rd->cap_ram)
		return snprintf(ft->why, ft->whylen, "not volatile capable (cap_ram 0)"), -EINVAL;
	if (!rd->can_create_ram)
		return snprintf(ft->why, ft->whylen, "the kernel cannot create RAM regions (no create_ram_region; Linux 6.3+)"),
		       -EOPNOTSUPP;
	if (!r || !rd->ntargets || w % r || !pow2(w / r))
		return snprintf(ft->why, ft->whylen, "it interleaves %u host bridge%s: %u memdev%s not a power-of-2 multiple of that",
				r, r == 1 ? "" : "s", w, w == 1 ? " is" : "s are"), -EINVAL;
	for (unsigned i = 0; i < w; i++) {
		bool in_target = false;
		if (!ft->eps[i]->depth || strcmp(ft->eps[i]->path[0].port, rd->port))
			return snprintf(ft->why, ft->whylen, "%s is not below %s", ft->eps[i]->memdev, rd->port), -EINVAL;
		for (unsigned t = 0; t < rd->ntargets && t < r; t++)
			in_target |= ft->eps[i]->path[0].dport == rd->targets[t];
		if (!in_target)
			return snprintf(ft->why, ft->whylen, "%s is below host bridge %d, not one it interleaves",
					ft->eps[i]->memdev, ft->eps[i]->path[0].dport), -EINVAL;
	}
	for (unsigned t = 0; t < rd->ntargets && t < r; t++) {
		unsigned in[CT_MAX_TARGETS], m = 0, out[CT_MAX_TARGETS];
		int rc;
		for (unsigned i = 0; i < w; i++) {
			if (ft->eps[i]->path[0].dport == rd->targets[t])
				in[m++] = i;
		}
		if (m != w / r) {
			char list[64];
			size_t off = 0;
			for (unsigned k = 0; k < rd->ntargets && off < sizeof(list); k++)
				off += snprintf(list + off, sizeof(list) - off, "%s%d", k ? "," : "", rd->targets[k]);
			return snprintf(ft->why, ft->whylen, "it interleaves host bridge%s %s: each needs %u of the memdevs, "
					"host bridge %d has %u", r == 1 ? "" : "s", list, w / r, rd->targets[t], m), -EINVAL;
		}
		rc = order(ft, in, m, 1, out);
		if (rc)
			return rc;
		for (unsigned s = 0; s < m; s++)
			pos[t + r * s] = out[s];
	}
	g = req->granularity ? req->granularity : rd->granularity;
	if (!ct_region_granularity_valid(g))
		return snprintf(ft->why, ft->whylen, "granularity %u is not one CXL decodes (a power of 2 from 256 to 16384)", g),
		       -EINVAL;
	if (r > 1 && g != rd->granularity)
		return snprintf(ft->why, ft->whylen, "it interleaves host bridges every %u bytes: the region must use %u, not %u",
				rd->granularity, rd->granularity, g), -EINVAL;
	for (unsigned i = 0; i < w; i++)
		if ((ft->eps[i]->ram_free & ~(SZ_256M - 1)) < per)
			per = ft->eps[i]->ram_free & ~(SZ_256M - 1);
	if (req->size) {
		if (req->size % (SZ_256M * w))
			return snprintf(ft->why, ft->whylen, "size %s is not a multiple of 256M x %u ways", human(req->size, a, sizeof(a)), w),
			       -EINVAL;
		if (req->size / w > per)
			return snprintf(ft->why, ft->whylen, "each memdev would give %s, but one has only %s free",
					human(req->size / w, a, sizeof(a)), human(per, b, sizeof(b))), -ENOSPC;
		size = req->size;
		if (size > rd->free_size)
			return snprintf(ft->why, ft->whylen, "%s of free address space, %s asked", human(rd->free_size, a, sizeof(a)),
					human(size, b, sizeof(b))), -ENOSPC;
	} else {
		size = per * w;
		if (size > rd->free_size)
			size = rd->free_size / (SZ_256M * w) * (SZ_256M * w);
		if (!size)
			return snprintf(ft->why, ft->whylen, "no free address space left (%s free, %s needed at least)",
					human(rd->free_size, a, sizeof(a)), human(SZ_256M * w, b, sizeof(b))), -ENOSPC;
	}
	ct_strlcpy(plan->root_decoder, rd->name, sizeof(plan->root_decoder));
	plan->root_ways = r;
	plan->ways = w;
	plan->granularity = g;
	plan->size = size;
	for (unsigned p = 0; p < w; p++) {
		const struct ct_endpoint_info *e = ft->eps[pos[p]];
		struct ct_region_member *m = &plan->members[p];
		m->position = p;
		ct_strlcpy(m->memdev, e->memdev, sizeof(m->memdev));
		ct_strlcpy(m->endpoint, e->endpoint, sizeof(m->endpoint));
		ct_strlcpy(m->decoder, e->free_decoder, sizeof(m->decoder));
		ct_strlcpy(m->decoder_mode, e->free_decoder_mode, sizeof(m->decoder_mode));
		snprintf(m->host_bridge, sizeof(m->host_bridge), "%d", e->path[0].dport);
		m->dpa_size = size / w;
	}
	return 0;
}

/* how many memdevs' qos_class differ from the root decoder's (ndctl -Q) */
static unsigned qos_mismatch(const struct fit *ft, const struct ct_root_decoder *rd)
{
	unsigned n = 0;

	for (unsigned i = 0; i < ft->n; i++)
		n += rd->qos_class >= 0 && ft->eps[i]->qos_class >= 0 && ft->eps[i]->qos_class != rd->qos_class;
	return n;
}

static int check_memdevs(const struct ct_fabric *f, const struct ct_region_req *req,
			 const struct ct_endpoint_info **eps, struct ct_error *err)
{
	char a[32], b[32];

	for (size_t i = 0; i < req->nmemdevs; i++) {
		const struct ct_endpoint_info *e = ct_fabric_endpoint(f, req->memdevs[i]);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(req->memdevs[i], req->memdevs[j]))
				return ct_fail(err, EINVAL, "%s is given twice: a region takes one decoder of each memdev",
					       req->memdevs[i]);
		if (!e)
			return ct_fail(err, ENODEV, "%s has no CXL endpoint port: is it enabled (bound to cxl_mem)?",
				       req->memdevs[i]);
		if (!e->ram_size)
			return ct_fail(err, EINVAL, "%s has no volatile capacity (ram/size 0): RAM regions need it", e->memdev);
		if (!e->free_decoder[0])
			return ct_fail(err, ENOSPC, "%s (%s) has no free endpoint decoder (%u of %u in use): destroy a region it backs",
				       e->memdev, e->endpoint, e->used_decoders, e->ndecoders);
		if (e->ram_free < SZ_256M)
			return ct_fail(err, ENOSPC, "%s has no free volatile capacity (%s of %s mapped by its decoders)",
				       e->memdev, human(e->ram_size - e->ram_free, a, sizeof(a)), human(e->ram_size, b, sizeof(b)));
		eps[i] = e;
	}
	return 0;
}

int ct_region_plan_make(const struct ct_fabric *f, const struct ct_region_req *req,
			struct ct_region_plan *plan, struct ct_error *err)
{
	const struct ct_endpoint_info *eps[CT_MAX_TARGETS];
	const struct ct_root_decoder *cands[64];
	char why[256], all[512] = "", names[128];
	size_t ncand = 0, off = 0;
	unsigned w = req->ways ? req->ways : (unsigned)req->nmemdevs;
	struct fit ft = { eps, (unsigned)req->nmemdevs, why, sizeof(why) };
	int rc = -EINVAL, last = 0, unsupported = 0;

	memset(plan, 0, sizeof(*plan));
	if (!req->nmemdevs)
		return ct_fail(err, EINVAL, "give the memdevs the region is made of");
	if (req->nmemdevs > CT_MAX_TARGETS)
		return ct_fail(err, EINVAL, "%zu memdevs: a CXL region interleaves at most 16", req->nmemdevs);
	if (w != req->nmemdevs)
		return ct_fail(err, EINVAL, "%u ways but %zu memdevs given: each way is one memdev", w, req->nmemdevs);
	if (!ct_region_ways_valid(w))
		return ct_fail(err, EINVAL, "%u memdevs cannot be interleaved: CXL interleaves 1, 2, 3, 4, 6, 8, 12 or 16 ways", w);
	if (req->granularity && !ct_region_granularity_valid(req->granularity))
		return ct_fail(err, EINVAL, "granularity %u is not one CXL decodes (a power of 2 from 256 to 16384)",
			       req->granularity);
	if ((rc = check_memdevs(f, req, eps, err)))
		return rc;
	if (req->root_decoder) {
		const struct ct_root_decoder *rd = ct_fabric_root(f, req->root_decoder);
		if (!rd)
			return ct_fail(err, ENOENT, "no root decoder '%s' (root decoders: the CXL windows, decoderN.M of rootN)",
				       req->root_decoder);
		cands[ncand++] = rd;
	} else {
		/* the ones whose QoS class the memdevs match first, then in name order */
		for (unsigned miss = 0; miss <= ft.n; miss++)
			for (size_t i = 0; i < f->nroots && ncand < 64; i++)
				if (qos_mismatch(&ft, &f->roots[i]) == miss)
					cands[ncand++] = &f->roots[i];
	}
	if (!ncand)
		return ct_fail(err, ENODEV, "no CXL root decoder (no CXL window: is cxl_acpi loaded?)");
	for (size_t i = 0; i < ncand; i++) {
		why[0] = '\0';
		last = fit_root(&ft, cands[i], req, plan);
		if (!last)
			return 0;
		unsupported += last == -EOPNOTSUPP;
		off += snprintf(all + off, off < sizeof(all) ? sizeof(all) - off : 0, "%s%s: %s",
				i ? "; " : "", cands[i]->name, why);
	}
	memset(plan, 0, sizeof(*plan));
	off = 0;
	for (size_t i = 0; i < req->nmemdevs && off < sizeof(names); i++)
		off += snprintf(names + off, sizeof(names) - off, "%s%s", i ? "," : "", req->memdevs[i]);
	if (ncand == 1)
		return ct_fail(err, -last, "%s cannot take %s: %s", cands[0]->name, names, why);
	return ct_fail(err, unsupported == (int)ncand ? EOPNOTSUPP : EINVAL,
		       "no root decoder can take %s: %s", names, all);
}
