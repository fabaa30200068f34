/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz-tree.h - for the structured fuzz targets: a small sysfs-like tree
 * described from the fuzz input and made in a temporary directory.
 *
 * The input is read as a stream of decisions; an exhausted input reads as
 * zeros, and zero always means "what a real kernel shows", so an empty input
 * gives a sane tree and every byte the fuzzer adds makes it more hostile:
 * missing files, values no kernel writes (huge numbers, signs, junk, NUL
 * bytes, long lines), raw bytes, directories or symlinks (loops, dangling,
 * pointing at a directory) where a file is expected. Symlink targets never
 * leave the tree. Between inputs only what changed is rewritten on disk.
 */
#ifndef CXLTIER_FUZZ_TREE_H
#define CXLTIER_FUZZ_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ft_in {
	const uint8_t *p;
	size_t n, pos;
};

/* the next byte, 0 when the input is exhausted */
unsigned ft_u8(struct ft_in *in);
/* a count or index in [0, max], dflt when the input is exhausted or 0 */
unsigned ft_pick(struct ft_in *in, unsigned dflt, unsigned max);

enum ft_type { FT_DIR, FT_FILE, FT_LINK };

struct ft_entry {
	uint32_t path, data;	/* offsets into the tree's text */
	uint32_t len;		/* file content or link target length */
	uint32_t hash;		/* of the path */
	uint32_t parent;	/* index + 1 of the parent entry, 0: the root */
	enum ft_type type;
	bool rewrite;		/* the code under test writes it: make it afresh every time */
	bool made;		/* exists on disk as described */
};

/* one tree description; its buffers are reused from input to input */
struct ft_tree {
	struct ft_entry *e;
	size_t n, cap;
	uint32_t *hash;		/* open addressing: index + 1, 0 empty */
	size_t hcap;
	char *text;		/* paths and contents, NUL-terminated */
	size_t used, tcap;
	bool rewrite;		/* files added from now on are written by the code under test */
};

/* the tree to describe the next input in (emptied) */
struct ft_tree *ft_begin(void);
/* plain entries; parents are added as directories when missing. The first
 * description of a path wins. */
void ft_dir(struct ft_tree *t, const char *path);
void ft_file(struct ft_tree *t, const char *path, const void *data, size_t len);
void ft_link(struct ft_tree *t, const char *path, const char *target);
/* a relative link from path to target (both relative to the root) */
void ft_rel_link(struct ft_tree *t, const char *path, const char *target);
bool ft_has(const struct ft_tree *t, const char *path);

/* an attribute: sane content unless the input decides otherwise */
void ft_attr(struct ft_tree *t, struct ft_in *in, const char *path, const void *sane, size_t len);
void ft_attr_str(struct ft_tree *t, struct ft_in *in, const char *path, const char *sane);
/* a number printed with fmt ("%llu", "0x%llx", "%llx", "%lld"); the input
 * may also pick another number, printed the same way */
void ft_attr_num(struct ft_tree *t, struct ft_in *in, const char *path, const char *fmt, uint64_t sane);
/* a directory of the model; the input may make it a file, a loop or missing
 * (then the caller's entries below it are not made) */
void ft_attr_dir(struct ft_tree *t, struct ft_in *in, const char *path);
/* a relative link to target; the input may loop it, dangle it, point it at
 * a directory or at alt (another object of the same kind, may be NULL) */
void ft_attr_link(struct ft_tree *t, struct ft_in *in, const char *path, const char *target, const char *alt);

/* the directory trees are made in (created once, removed at exit unless
 * CXLTIER_FUZZ_KEEP is set: then its path is printed, to run cxltier on) */
const char *ft_root(void);
/* make t (from ft_begin) on disk under ft_root(), changing only what
 * differs from the last tree made */
void ft_make(struct ft_tree *t);

#endif
