// SPDX-License-Identifier: GPL-2.0-only
/* spread-floor - the least a tool does to spread a process's pages between
 * two nodes by weight, the floor test/bench/migrate-spread.sh measures
 * `cxltier migrate --spread weighted` against: /proc/PID/numa_maps read
 * for its pages per node, the pages node TO lacks of its share
 * (total x WTO / (WFROM + WTO), the rest to FROM), and the move_pages(2)
 * calls cxltier makes for a process of base pages all on FROM: the
 * mappings wholly on FROM (from /proc/PID/maps) in address order, in
 * batches of at most 4096 pages inside 16 MiB-aligned blocks, each page to
 * TO, until the share is reached. Nothing else: no page asked where it is,
 * no status checked again, no report.
 * usage: spread-floor PID FROM TO WFROM WTO; prints the pages moved */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BATCH 4096
#define PAGE 4096ULL

static void *pages[BATCH];
static int nodes[BATCH], status[BATCH];

/* Nn=COUNT of node n in a numa_maps line */
static unsigned long long on_node(const char *line, int n)
{
	char key[16];
	const char *p;
	size_t k = (size_t)snprintf(key, sizeof(key), " N%d=", n);

	p = strstr(line, key);
	return p ? strtoull(p + k, NULL, 10) : 0;
}

static unsigned long long all_nodes(const char *line)
{
	unsigned long long s = 0;

	for (const char *p = line; (p = strstr(p, " N")); p += 2)
		if (p[2] >= '0' && p[2] <= '9' && strchr(p + 2, '='))
			s += strtoull(strchr(p + 2, '=') + 1, NULL, 10);
	return s;
}

int main(int argc, char **argv)
{
	static char text[1 << 22];
	char path[64], *line, *next;
	unsigned long long total = 0, have_to = 0, want, moved = 0;
	int pid, from, to;
	unsigned wfrom, wto;
	size_t len = 0;
	ssize_t got;
	FILE *nm, *maps;

	if (argc != 6)
		return fprintf(stderr, "usage: spread-floor PID FROM TO WFROM WTO\n"), 2;
	pid = atoi(argv[1]), from = atoi(argv[2]), to = atoi(argv[3]);
	wfrom = (unsigned)atoi(argv[4]), wto = (unsigned)atoi(argv[5]);
	snprintf(path, sizeof(path), "/proc/%d/numa_maps", pid);
	if (!(nm = fopen(path, "r")))
		return perror(path), 1;
	/* read once (each read of numa_maps walks the page tables) */
	while (len < sizeof(text) - 1 && (got = read(fileno(nm), text + len, sizeof(text) - 1 - len)) > 0)
		len += (size_t)got;
	text[len] = '\0';
	fclose(nm);
	for (size_t i = 0; i < len; i++)
		if (text[i] == '\n')
			text[i] = '\0';	/* a string a line */
	for (line = text; line < text + len; line += strlen(line) + 1) {
		total += all_nodes(line);
		have_to += on_node(line, to);
	}
	want = total * wto / (wfrom + wto);
	want = want > have_to ? want - have_to : 0;
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	if (!(maps = fopen(path, "r")))
		return perror(path), 1;
	for (int i = 0; i < BATCH; i++)
		nodes[i] = to;
	/* numa_maps and maps list the same mappings in the same order */
	for (line = text; moved < want && line < text + len; line = next) {
		unsigned long long start = strtoull(line, NULL, 16), a, b, n, all;
		char ml[4096];
		do {
			if (!fgets(ml, sizeof(ml), maps))
				return 1;
		} while (sscanf(ml, "%llx-%llx", &a, &b) == 2 && a < start);
		next = line + strlen(line) + 1;
		n = on_node(line, from), all = all_nodes(line);
		if (a != start || !n || n != all || n * PAGE != b - a)
			continue;	/* not wholly on FROM: cxltier asks those page by page */
		while (a < b && moved < want) {
			unsigned long long end = (a / (BATCH * PAGE) + 1) * (BATCH * PAGE);
			unsigned long k = 0;
			if (end > b)
				end = b;
			for (; a < end && moved + k < want; a += PAGE)
				pages[k++] = (void *)(uintptr_t)a;
			a = end;
			if (syscall(SYS_move_pages, pid, k, pages, nodes, status, 2 /* MPOL_MF_MOVE */) < 0)
				return perror("move_pages"), 1;
			moved += k;
		}
	}
	printf("%llu\n", moved);
	return 0;
}
