// SPDX-License-Identifier: GPL-2.0-only
/* mkcdat - write a CDAT table from a list of structures, for QEMU's
 * cxl-type3 cdat= property and for fuzz seeds.
 *
 * usage: mkcdat OUT STRUCT...
 *   dsmas:HANDLE:FLAGS:BASE:LEN
 *   dslbis:HANDLE:FLAGS:DATATYPE:BASEUNIT:ENTRY
 *   dsmscis:HANDLE:SIZE:ATTRS
 *   dsis:FLAGS:HANDLE
 *   dsemts:HANDLE:EFITYPE:OFFSET:LEN
 *   sslbis:DATATYPE:BASEUNIT:X:Y:V[:X:Y:V...]
 *   seq:N            (header sequence number)
 *   badsum           (break the checksum on purpose)
 * numbers: decimal or 0x...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cdat-build.h"

static int fields(char *s, unsigned long long *v, int max)
{
	int n = 0;

	for (char *save, *t = strtok_r(s, ":", &save); t && n < max; t = strtok_r(NULL, ":", &save))
		v[n++] = strtoull(t, NULL, 0);
	return n;
}

int main(int argc, char **argv)
{
	static struct blob x;
	unsigned long long v[64];
	uint32_t seq = 0;
	int badsum = 0;
	FILE *f;

	if (argc < 2) {
		fprintf(stderr, "usage: mkcdat OUT STRUCT...\n");
		return 2;
	}
	for (int i = 2; i < argc; i++)
		if (!strncmp(argv[i], "seq:", 4))
			seq = (uint32_t)strtoul(argv[i] + 4, NULL, 0);
	blob_header(&x, seq);
	for (int i = 2; i < argc; i++) {
		char *colon = strchr(argv[i], ':');
		char kind[16];
		int n;

		snprintf(kind, sizeof(kind), "%.*s", colon ? (int)(colon - argv[i]) : (int)strlen(argv[i]), argv[i]);
		n = colon ? fields(colon + 1, v, 64) : 0;
		if (!strcmp(kind, "dsmas") && n == 4)
			put_dsmas(&x, v[0], v[1], v[2], v[3]);
		else if (!strcmp(kind, "dslbis") && n == 5)
			put_dslbis(&x, v[0], v[1], v[2], v[3], v[4]);
		else if (!strcmp(kind, "dsmscis") && n == 3)
			put_dsmscis(&x, v[0], v[1], v[2]);
		else if (!strcmp(kind, "dsis") && n == 2)
			put_dsis(&x, v[0], v[1]);
		else if (!strcmp(kind, "dsemts") && n == 4)
			put_dsemts(&x, v[0], v[1], v[2], v[3]);
		else if (!strcmp(kind, "sslbis") && n >= 2 && (n - 2) % 3 == 0) {
			uint16_t e[60];
			for (int k = 2; k < n; k++)
				e[k - 2] = (uint16_t)v[k];
			put_sslbis(&x, v[0], v[1], (n - 2) / 3, e);
		} else if (!strcmp(kind, "seq"))
			continue;
		else if (!strcmp(kind, "badsum"))
			badsum = 1;
		else {
			fprintf(stderr, "mkcdat: cannot parse '%s'\n", argv[i]);
			return 2;
		}
	}
	blob_finish(&x);
	if (badsum)
		x.b[5] ^= 0x5a;
	f = fopen(argv[1], "wb");
	if (!f || fwrite(x.b, 1, x.len, f) != x.len || fclose(f)) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
