// SPDX-License-Identifier: GPL-2.0
/*
 * memhog: keep MIB of anonymous memory hot until killed, -d seconds pass or
 * -p passes over the whole set are done. -S stops it (SIGSTOP) once mapped,
 * before the first touch, so that a caller can start many at once.
 * Each pass writes one word per page, so the whole set stays on the active
 * lists and reclaim has to swap it out and fault it back continuously.
 * (stress-ng --vm trims its size to the free memory; this does not.)
 * -r FILE is created once the whole set has been touched, so a benchmark can
 * start its workload under pressure rather than while the hog still grows.
 * Prints the number of passes per second at the end.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#define PROG "memhog"
#include "common.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: memhog -m MIB [-d SECONDS] [-p PASSES] [-r READY_FILE] [-S]\n");
}

int main(int argc, char **argv)
{
	uint64_t mib = 0, seconds = 0, passes = 0, max_passes = 0;
	const char *ready = NULL;
	int stop_first = 0;
	size_t page = sysconf(_SC_PAGESIZE), len, off;
	double t0;
	char *p;
	int opt;

	while ((opt = getopt(argc, argv, "m:d:p:r:Sh")) != -1) {
		switch (opt) {
		case 'm':
			mib = parse_u64(optarg, 10, 1, 1 << 20, "bad -m");
			break;
		case 'd':
			seconds = parse_u64(optarg, 10, 1, 1 << 30, "bad -d");
			break;
		case 'p':
			max_passes = parse_u64(optarg, 10, 1, 1 << 30, "bad -p");
			break;
		case 'r':
			ready = optarg;
			break;
		case 'S':
			stop_first = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc || !mib)
		bad_usage("-m is required");
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	len = mib << 20;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		die("mmap");
	/* -S: wait for SIGCONT here, so that many hogs can start at once */
	if (stop_first)
		raise(SIGSTOP);
	t0 = now_s();
	while (!stop && (!seconds || now_s() - t0 < seconds) &&
	       (!max_passes || passes < max_passes)) {
		for (off = 0; off < len && !stop; off += page)
			*(volatile uint64_t *)(p + off) = passes + off;
		if (!passes++ && ready) {
			FILE *f = fopen(ready, "w");

			if (!f)
				die(ready);
			fclose(f);
		}
	}
	printf("result mib=%llu passes=%llu passes_per_s=%.3f\n", (unsigned long long)mib,
	       (unsigned long long)passes, passes / (now_s() - t0));
	return 0;
}
