// SPDX-License-Identifier: GPL-2.0
/*
 * qsbench - fork PROCS children that each quicksort MIB_PER_PROC MiB of
 * int32 data.  With enough children the working sets exceed RAM and the
 * run turns into a swap-thrashing test; the per-child time spread shows
 * how fairly reclaim treated the children.
 *
 * -b BITS keeps only the low BITS bits of each value: random 32-bit data
 * do not compress, so zram has to keep a page of RAM for every page it
 * takes; fewer bits make the pages compressible, as most real memory is.
 *
 * Output: one "proc=N ..." line per child, then one "result ..." line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PROG "qsbench"
#include "common.h"

#define MAX_PROCS	4096
#define INSERTION_MIN	16	/* ranges shorter than this use insertion sort */

static uint32_t value_mask = UINT32_MAX;	/* -b */

static void usage(FILE *f)
{
	fprintf(f, "usage: qsbench -p PROCS -m MIB_PER_PROC [-s SEED] [-l LOOPS] [-b BITS] [-h]\n");
}

/* splitmix64 turns seed+index into a well-mixed, non-zero xorshift state. */
static uint64_t seed_state(uint64_t seed)
{
	uint64_t z = seed + 0x9E3779B97F4A7C15ULL;

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	z ^= z >> 31;
	return z ? z : 0x2545F4914F6CDD1DULL;
}

static inline uint64_t xorshift64s(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

static inline void swap32(int32_t *a, size_t i, size_t j)
{
	int32_t t = a[i];

	a[i] = a[j];
	a[j] = t;
}

/* Sort a[lo, hi). */
static void insertion_sort(int32_t *a, size_t lo, size_t hi)
{
	for (size_t i = lo + 1; i < hi; i++) {
		int32_t v = a[i];
		size_t j = i;

		while (j > lo && a[j - 1] > v) {
			a[j] = a[j - 1];
			j--;
		}
		a[j] = v;
	}
}

/*
 * Iterative quicksort: median-of-three pivot, Sedgewick-style partition
 * with sentinels, insertion sort for small ranges.  The larger partition
 * is pushed and the smaller one processed first, so the explicit stack
 * never holds more than log2(n) entries.
 */
static void quicksort(int32_t *a, size_t n)
{
	struct { size_t lo, hi; } stack[64];
	size_t sp = 0, lo = 0, hi = n;

	for (;;) {
		while (hi - lo >= INSERTION_MIN) {
			size_t mid = lo + (hi - lo) / 2, last = hi - 1;
			size_t i, j;
			int32_t pivot;

			/* Order a[lo] <= a[mid] <= a[last]. */
			if (a[mid] < a[lo])
				swap32(a, mid, lo);
			if (a[last] < a[lo])
				swap32(a, last, lo);
			if (a[last] < a[mid])
				swap32(a, last, mid);
			/* Park the pivot at last-1; a[lo] and it act as sentinels. */
			swap32(a, mid, last - 1);
			pivot = a[last - 1];
			i = lo;
			j = last - 1;
			for (;;) {
				while (a[++i] < pivot)
					;
				while (a[--j] > pivot)
					;
				if (i >= j)
					break;
				swap32(a, i, j);
			}
			swap32(a, i, last - 1);
			/* Now a[lo, i) <= pivot == a[i] <= a(i, hi). */
			if (i - lo < hi - i - 1) {
				stack[sp].lo = i + 1;
				stack[sp++].hi = hi;
				hi = i;
			} else {
				stack[sp].lo = lo;
				stack[sp++].hi = i;
				lo = i + 1;
			}
		}
		insertion_sort(a, lo, hi);
		if (!sp)
			break;
		sp--;
		lo = stack[sp].lo;
		hi = stack[sp].hi;
	}
}

static int child(unsigned int idx, size_t n, uint64_t seed, unsigned int loops,
		 double *elapsed)
{
	uint64_t st = seed_state(seed + idx), sum = 0;
	double t0 = now_s();
	int sorted = 1;
	int32_t *a;

	a = malloc(n * sizeof(*a));
	if (!a) {
		fprintf(stderr, "qsbench: proc=%u malloc(%zu) failed\n",
			idx, n * sizeof(*a));
		return 1;
	}
	for (unsigned int l = 0; l < loops; l++) {
		/* The PRNG stream continues, so every loop sorts fresh data. */
		for (size_t i = 0; i < n; i++)
			a[i] = (int32_t)((uint32_t)(xorshift64s(&st) >> 32) & value_mask);
		quicksort(a, n);
		for (size_t i = 1; i < n; i++) {
			if (a[i - 1] > a[i]) {
				sorted = 0;
				break;
			}
		}
	}
	for (size_t i = 0; i < n; i++)
		sum += (uint64_t)(int64_t)a[i] * (uint64_t)(i | 1);
	*elapsed = now_s() - t0;
	free(a);

	printf("proc=%u elapsed_s=%.3f checksum=0x%016" PRIx64 " sorted=%d\n",
	       idx, *elapsed, sum, sorted);
	fflush(stdout);
	return sorted ? 0 : 1;
}

int main(int argc, char **argv)
{
	uint64_t procs = 0, mib = 0, seed = 1, loops = 1, bits = 32;
	double t0, total, min = INFINITY, max = 0, sumt = 0;
	unsigned int failed = 0, ok = 0, started;
	double *elapsed;
	pid_t *pids;
	int opt;

	while ((opt = getopt(argc, argv, "p:m:s:l:b:h")) != -1) {
		switch (opt) {
		case 'p':
			procs = parse_u64(optarg, 10, 1, MAX_PROCS, "bad -p");
			break;
		case 'm':
			/* Keep n * 4 bytes well inside size_t and int indices sane. */
			mib = parse_u64(optarg, 10, 1, 1 << 20, "bad -m");
			break;
		case 's':
			seed = parse_u64(optarg, 0, 0, UINT64_MAX, "bad -s");
			break;
		case 'l':
			loops = parse_u64(optarg, 10, 1, 1000000, "bad -l");
			break;
		case 'b':
			bits = parse_u64(optarg, 10, 1, 32, "bad -b");
			value_mask = bits == 32 ? UINT32_MAX : (1U << bits) - 1;
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

	/* Children report their own elapsed time through a shared page. */
	elapsed = mmap(NULL, procs * sizeof(*elapsed), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pids = calloc(procs, sizeof(*pids));
	if (elapsed == MAP_FAILED || !pids) {
		perror("qsbench: alloc");
		return 1;
	}

	fflush(stdout);
	t0 = now_s();
	for (started = 0; started < procs; started++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("qsbench: fork");
			failed += procs - started;
			/* Don't leave a partial run thrashing; stop our children. */
			for (unsigned int i = 0; i < started; i++)
				kill(pids[i], SIGKILL);
			break;
		}
		if (!pid)
			_exit(child(started, (size_t)mib << 18, seed,
				    loops, &elapsed[started]));
		pids[started] = pid;
	}

	for (unsigned int left = started; left; left--) {
		unsigned int idx;
		int status;
		pid_t pid;

		pid = waitpid(-1, &status, 0);
		if (pid < 0) {
			if (errno == EINTR) {
				left++;
				continue;
			}
			perror("qsbench: waitpid");
			return 1;
		}
		for (idx = 0; idx < started && pids[idx] != pid; idx++)
			;
		if (idx == started) {
			left++;	/* not one of ours */
			continue;
		}
		if (WIFSIGNALED(status)) {
			printf("proc=%u killed=%d\n", idx, WTERMSIG(status));
			failed++;
		} else if (WEXITSTATUS(status)) {
			printf("proc=%u exit=%d\n", idx, WEXITSTATUS(status));
			failed++;
		} else {
			double e = elapsed[idx];

			ok++;
			sumt += e;
			if (e < min)
				min = e;
			if (e > max)
				max = e;
		}
	}
	total = now_s() - t0;

	if (!ok)
		min = max = NAN;
	printf("result procs=%" PRIu64 " mib_per_proc=%" PRIu64 " bits=%" PRIu64
	       " elapsed_s=%.3f min_s=%.3f max_s=%.3f mean_s=%.3f spread=%.3f failed=%u\n",
	       procs, mib, bits, total, min, max, ok ? sumt / ok : NAN,
	       ok && min > 0 ? max / min : NAN, failed);
	return failed ? 1 : 0;
}
