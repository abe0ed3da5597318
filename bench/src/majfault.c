// SPDX-License-Identifier: GPL-2.0
/*
 * majfault: the cost of a major fault. PROCS processes each map MIB_PER_PROC
 * of anonymous memory, write it, and ROUNDS times push it all to swap with
 * MADV_PAGEOUT and read one byte of every page back: one swap-in per page,
 * timed. With swap on zram the swap-in is a decompression, so what the
 * fault path adds (vm.swap_token's bookkeeping) is a visible share of it.
 * MADV_PAGEOUT reclaims with the references ignored: the token plays no part
 * in the page-out, only in the fault.
 *
 * Output: one "proc=N ..." line per child, then one "result ..." line.
 */
#define _GNU_SOURCE
#define PROG "majfault"
#include <inttypes.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

static void usage(FILE *f)
{
	fprintf(f, "usage: majfault -p PROCS -m MIB_PER_PROC [-r ROUNDS] [-h]\n");
}

struct res {
	uint64_t faults;
	double fault_s;
	int ok;
};

static void child(struct res *r, uint64_t mib, uint64_t rounds)
{
	long psz = sysconf(_SC_PAGESIZE);
	size_t len = mib << 20, i, n = len / psz;
	volatile char sink = 0;
	struct rusage a, b;
	uint64_t round;
	char *buf;

	buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		die("mmap");
	/* A different word in every page: zram must store each one */
	for (i = 0; i < n; i++)
		*(uint64_t *)(buf + i * psz) = i * 2654435761u + 1;
	for (round = 0; round < rounds; round++) {
		double t0;

		if (madvise(buf, len, MADV_PAGEOUT))
			die("madvise(MADV_PAGEOUT)");
		getrusage(RUSAGE_SELF, &a);
		t0 = now_s();
		for (i = 0; i < n; i++)
			sink += buf[i * psz];
		r->fault_s += now_s() - t0;
		getrusage(RUSAGE_SELF, &b);
		r->faults += b.ru_majflt - a.ru_majflt;
	}
	(void)sink;
	r->ok = 1;
}

int main(int argc, char **argv)
{
	uint64_t procs = 0, mib = 0, rounds = 5, faults = 0, p;
	double t0, fault_s = 0;
	unsigned int failed = 0;
	struct res *res;
	int opt;

	while ((opt = getopt(argc, argv, "p:m:r:h")) != -1) {
		switch (opt) {
		case 'p':
			procs = parse_u64(optarg, 10, 1, 64, "bad -p");
			break;
		case 'm':
			mib = parse_u64(optarg, 10, 1, 1 << 16, "bad -m");
			break;
		case 'r':
			rounds = parse_u64(optarg, 10, 1, 1000, "bad -r");
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc)
		bad_usage("unexpected argument");
	if (!procs || !mib)
		bad_usage("-p and -m are required");

	res = mmap(NULL, procs * sizeof(*res), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (res == MAP_FAILED)
		die("mmap");
	t0 = now_s();
	for (p = 0; p < procs; p++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (!pid) {
			child(&res[p], mib, rounds);
			_exit(0);
		}
	}
	for (p = 0; p < procs; p++) {
		int status;

		if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			failed++;
	}
	for (p = 0; p < procs; p++) {
		printf("proc=%" PRIu64 " ok=%d majflt=%" PRIu64 " fault_s=%.3f\n",
		       p, res[p].ok, res[p].faults, res[p].fault_s);
		if (!res[p].ok)
			failed++;
		faults += res[p].faults;
		fault_s += res[p].fault_s;
	}
	printf("result procs=%" PRIu64 " mib_per_proc=%" PRIu64 " elapsed_s=%.3f majflt=%" PRIu64
	       " ns_per_fault=%.0f failed=%u\n", procs, mib, now_s() - t0, faults,
	       faults ? fault_s * 1e9 / faults : 0.0, failed);
	return failed ? 1 : 0;
}
