// SPDX-License-Identifier: GPL-2.0-only
/* online-floor - the floor for onlining memory blocks movable: for each
 * block given (memoryN or N), one open, one write of "online_movable" and
 * one close of /sys/devices/system/memory/memoryN/state, nothing else (no
 * check before or after). test/bench/online.sh times it beside cxltier.
 * Exit 1 when any write failed (each named). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static const char state[] = "online_movable";
	int bad = 0;

	for (int i = 1; i < argc; i++) {
		const char *id = strncmp(argv[i], "memory", 6) ? argv[i] : argv[i] + 6;
		char path[96];
		int fd;

		snprintf(path, sizeof(path), "/sys/devices/system/memory/memory%s/state", id);
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, state, sizeof(state) - 1) != (ssize_t)(sizeof(state) - 1)) {
			fprintf(stderr, "online-floor: memory%s: %s\n", id, strerror(errno));
			bad = 1;
		}
		if (fd >= 0)
			close(fd);
	}
	return bad;
}
