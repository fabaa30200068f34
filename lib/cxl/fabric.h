/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fabric.h - the decode side of the CXL topology, as region
 * creation needs it: root decoders (CXL windows) with their host-bridge
 * targets and free address space, and each memdev's endpoint with the path
 * of downstream ports that leads to it from the root, its free endpoint
 * decoder and its free volatile capacity. Read through the rooted sysfs
 * reader (live or a captured tree).
 */
#ifndef CXLTIER_FABRIC_H
#define CXLTIER_FABRIC_H

#include <stdbool.h>
#include <stdint.h>
#include "cxl/topology.h"

#define CT_MAX_DEPTH 8
#define CT_MAX_EP_DECODERS 32

/* an endpoint decoder: which device capacity it maps, for which region */
struct ct_ep_decoder {
	char name[CT_NAME];
	char mode[16];			/* "none", "ram", "pmem" */
	char region[CT_NAME];		/* "" none */
	uint64_t dpa_resource, dpa_size;	/* dpa_size 0: nothing allocated */
	bool locked;
};

struct ct_root_decoder {
	char name[CT_NAME];
	char port[CT_NAME];		/* "root0" */
	bool cap_ram;			/* volatile capable */
	bool can_create_ram;		/* create_ram_region is there (Linux 6.3+) */
	bool locked;
	unsigned ways, granularity;
	unsigned ntargets;
	int targets[CT_MAX_TARGETS];	/* host-bridge dport ids, in interleave order */
	uint64_t start, size;
	uint64_t free_start, free_size;	/* the largest free range, 256 MiB aligned */
	int qos_class;			/* -1: none */
};

/* one step down the tree: from `port` through its downstream port `dport` */
struct ct_hop {
	char port[CT_NAME];
	int dport;
};

struct ct_endpoint_info {
	char memdev[CT_NAME];
	char endpoint[CT_NAME];
	bool enabled;			/* the memdev is bound to its driver */
	unsigned depth;
	struct ct_hop path[CT_MAX_DEPTH];	/* path[0].port is the root, .dport the host bridge */
	uint64_t ram_size;
	uint64_t ram_free;		/* volatile capacity no decoder maps yet */
	char free_decoder[CT_NAME];	/* the decoder the next allocation must use, "" none */
	char free_decoder_mode[16];	/* its mode now: "none", "ram", "pmem" */
	unsigned ndecoders, used_decoders;
	char last_decoder[CT_NAME];	/* the last one with DPA: the only one the kernel frees */
	int qos_class;			/* ram/qos_class, -1 none */
	struct ct_ep_decoder decoders[CT_MAX_EP_DECODERS];	/* the first ndecoders (at most 32) */
};

struct ct_fabric {
	struct ct_root_decoder *roots;
	size_t nroots;
	struct ct_endpoint_info *eps;
	size_t neps;
};

int ct_fabric_load(struct ct_context *ctx, struct ct_fabric *f);
/* the same with only the endpoints of the n memdevs named (every root
 * decoder): what a region over them is planned on, without reading the
 * decoders and port paths of every other card */
int ct_fabric_load_memdevs(struct ct_context *ctx, struct ct_fabric *f, const char *const *memdevs, size_t n);
void ct_fabric_free(struct ct_fabric *f);
const struct ct_endpoint_info *ct_fabric_endpoint(const struct ct_fabric *f, const char *memdev);
const struct ct_root_decoder *ct_fabric_root(const struct ct_fabric *f, const char *name);
/* is the endpoint below the port that spec names, as ndctl's `cxl list -p`
 * (a port's descendants with it): "root0", "port3", "endpoint5", a bare id
 * ("3": any of those kinds), a port's host (its uport device: "pci0000:0c",
 * a switch's "0000:0d:00.0", the endpoint's memdev), "root" (any root port)
 * or "all" */
bool ct_endpoint_below_port(struct ct_sysfs *s, const struct ct_endpoint_info *e, const char *spec);
/* does a port of that kind exist: spec "root0", "port3", "endpoint5", a
 * bare id of any of them, or a port's host (kinds: "root", "port",
 * "endpoint"; NULL: all three) */
bool ct_fabric_port_exists(struct ct_sysfs *s, const char *spec, const char *const *kinds);
/* is spec the endpoint's own port ("endpoint5", its id "5") or its memdev
 * ("mem0"), as ndctl's `cxl list -e` */
bool ct_endpoint_is(const struct ct_endpoint_info *e, const char *spec);
/* does spec name the CXL bus the endpoint is on, as ndctl's `cxl list -b`:
 * its root port ("root0", "0") or the bus provider ("ACPI.CXL" for an
 * ACPI0017 root, else the root's uport device: "cxl_acpi.0" on cxl_test) */
bool ct_endpoint_on_bus(struct ct_sysfs *s, const struct ct_endpoint_info *e, const char *spec);

#endif
