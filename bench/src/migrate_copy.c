// SPDX-License-Identifier: GPL-2.0
/*
 * migrate_copy - page-migration throughput between two NUMA nodes.
 *
 * Migration mode times one move_pages(2) call that moves COUNT base pages
 * (-k 4k) or COUNT 2 MiB THPs (-k thp) from --from to --to, then moves
 * them back on the next rep.  Placement, per-page status and a data
 * checksum are verified around every timed call.
 *
 * Each rep also records the CPU time the whole machine spent during the
 * call (/proc/stat: the caller and any kworkers helping it), and the
 * caller's own. With -S CPU a nice-0 spinner runs pinned to CPU (the caller
 * is pinned elsewhere): its progress during each call, as a share of its
 * progress alone, shows what helpers took from it.
 *
 * Ceiling mode (-C) times a multi-threaded memcpy between buffers on the
 * two nodes: an upper bound for what a migration copy could reach.
 *
 * Exit: 0 ok, 1 error/verification failure, 2 usage, 3 move_pages EINVAL
 * (e.g. unsupported -F flag), 4 NUMA topology not suitable.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <numa.h>
#include <numaif.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PROG "migrate_copy"
#include "common.h"

#define HPAGE_SIZE	(2UL << 20)
#define MAX_BYTES	(1ULL << 40)

static size_t page_size;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: migrate_copy -k 4k|thp -n COUNT [-r REPS] [-F FLAGS] [-s SEED] [-S CPU] [--from NODE --to NODE]\n"
		"       migrate_copy -C THREADS -b MIB [-r REPS] [--from NODE --to NODE]\n");
}

static double gbps(size_t bytes, double s)
{
	return s > 0 ? bytes / s / 1e9 : 0;
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

/* Position-dependent, so a page landing at the wrong address is caught. */
static uint64_t checksum(const uint64_t *w, size_t n)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += w[i] * (i | 1);
	return sum;
}

static void check_nodes(int from, int to)
{
	int nodes[2] = { from, to };

	if (numa_available() < 0) {
		fprintf(stderr, "error=NUMA not available\n");
		exit(4);
	}
	if (from != to && numa_num_configured_nodes() < 2) {
		fprintf(stderr, "error=need 2 NUMA nodes\n");
		exit(4);
	}
	for (int i = 0; i < 2; i++) {
		if (nodes[i] > numa_max_node() ||
		    !numa_bitmask_isbitset(numa_all_nodes_ptr, nodes[i])) {
			fprintf(stderr, "error=node %d not available\n", nodes[i]);
			exit(4);
		}
	}
}

/* CPU time every CPU spent outside idle and iowait, in seconds */
static double busy_s(void)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	int n;

	if (!f)
		die("/proc/stat");
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n != 8)
		die("/proc/stat format");
	/* user nice system [idle iowait] irq softirq steal */
	return (double)(v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) /
	       sysconf(_SC_CLK_TCK);
}

static double thread_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

/* The spinner: a child pinned to @cpu counting loops in shared memory */
static volatile uint64_t *spin_count;
static pid_t spinner;

static double spin_rate(double seconds)
{
	uint64_t c0 = *spin_count;
	double t0 = now_s();
	struct timespec ts = { (time_t)seconds, (long)((seconds - (time_t)seconds) * 1e9) };

	nanosleep(&ts, NULL);
	return (*spin_count - c0) / (now_s() - t0);
}

static double start_spinner(int cpu)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	double best = 0;

	spin_count = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (spin_count == MAP_FAILED)
		die("mmap");
	spinner = fork();
	if (spinner < 0)
		die("fork");
	if (!spinner) {
		pin_to(cpu);
		for (;;)
			(*spin_count)++;
	}
	pin_to(cpu == 0 ? (ncpu > 1 ? 1 : 0) : 0);
	spin_rate(0.2);		/* let it settle */
	/*
	 * Its rate alone: the best of five short windows, not one long one.
	 * Anything else that runs on its CPU (or, under TCG, on the host) only
	 * slows it down, and a calibration slowed that way made the share
	 * during a call come out above 1.
	 */
	for (int i = 0; i < 5; i++)
		best = fmax(best, spin_rate(0.2));
	return best;
}

/*
 * Count base pages of [buf, buf + bytes) that are not on @node.  This is
 * a query (nodes == NULL), done in batches so it needs no big arrays, and
 * it looks at every base page even in THP mode so a THP that was split or
 * never allocated cannot hide unmoved tail pages.
 */
static size_t off_node(char *buf, size_t bytes, int node)
{
	enum { BATCH = 1024 };
	void *pages[BATCH];
	int status[BATCH];
	size_t off = 0, done = 0;

	while (done < bytes) {
		unsigned long n;

		for (n = 0; n < BATCH && done < bytes; n++, done += page_size)
			pages[n] = buf + done;
		if (move_pages(0, n, pages, NULL, status, 0) < 0)
			die("move_pages(query)");
		for (unsigned long i = 0; i < n; i++)
			off += status[i] != node;
	}
	return off;
}

/* Number of 2 MiB THPs backing [start, end), from AnonHugePages in smaps. */
static long thp_count(uintptr_t start, uintptr_t end)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	unsigned long lo, hi, kb;
	int inside = 0;
	long total_kb = 0;
	char *line = NULL;
	size_t cap = 0;

	if (!f)
		return -1;
	while (getline(&line, &cap, f) > 0) {
		/* VMA header lines are "lo-hi perms ..."; fields are "Name: v kB". */
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)
			inside = lo < end && hi > start;
		else if (inside && sscanf(line, "AnonHugePages: %lu kB", &kb) == 1)
			total_kb += kb;
	}
	free(line);
	fclose(f);
	return total_kb / (HPAGE_SIZE >> 10);
}

static int run_migrate(int thp, uint64_t count, unsigned int reps, int flags,
		       uint64_t seed, int from, int to, int spin_cpu)
{
	double cpu_sum = 0, task_sum = 0, share_sum = 0, spin_alone = 0;
	size_t unit = thp ? HPAGE_SIZE : page_size, bytes = count * unit;
	size_t align = thp ? HPAGE_SIZE : page_size;
	double smin = INFINITY, smax = 0, ssum = 0;
	unsigned long status_errors = 0, node_errors = 0;
	long thp_before, thp_after;
	uint64_t st = seed ^ 0x9E3779B97F4A7C15ULL, sum0;
	struct bitmask *mask;
	unsigned int rep;
	int *nodes, *status, cs_ok = 1;
	void **pages;
	char *map, *buf;

	if (count > MAX_BYTES / unit)
		bad_usage("-n too large");
	check_nodes(from, to);
	/* Before the buffer exists: a child sharing its pages would keep them */
	if (spin_cpu >= 0)
		spin_alone = start_spinner(spin_cpu);

	/* Over-allocate, then trim so the VMA is exactly the aligned area. */
	map = mmap(NULL, bytes + align, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (map == MAP_FAILED)
		die("mmap");
	buf = (char *)(((uintptr_t)map + align - 1) & ~(uintptr_t)(align - 1));
	if (buf > map)
		munmap(map, buf - map);
	munmap(buf + bytes, map + align - buf);

	/* 4k mode must not get THPs even when THP is "always". */
	if (madvise(buf, bytes, thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE) && thp)
		die("madvise(MADV_HUGEPAGE)");

	/* Bind before the first touch so the fault allocates on @from. */
	mask = numa_allocate_nodemask();
	numa_bitmask_setbit(mask, from);
	if (mbind(buf, bytes, MPOL_BIND, mask->maskp, mask->size + 1, 0))
		die("mbind");
	numa_free_nodemask(mask);

	for (size_t i = 0; i < bytes / 8; i++)
		((uint64_t *)buf)[i] = xorshift64s(&st);
	sum0 = checksum((uint64_t *)buf, bytes / 8);
	thp_before = thp_count((uintptr_t)buf, (uintptr_t)buf + bytes);

	/* One entry per base page or per THP (a THP moves as one folio). */
	pages = calloc(count, sizeof(*pages));
	nodes = calloc(count, sizeof(*nodes));
	status = calloc(count, sizeof(*status));
	if (!pages || !nodes || !status)
		die("calloc");
	for (size_t i = 0; i < count; i++)
		pages[i] = buf + i * unit;

	for (rep = 0; rep < reps; rep++) {
		double cpu0, task0, cpu_s, task_s, share = 0;
		uint64_t spun = 0;
		int src = rep & 1 ? to : from, dst = rep & 1 ? from : to;
		unsigned long serr = 0;
		size_t off, nerr;
		double t0, s;
		long ret;
		int ok;

		off = off_node(buf, bytes, src);
		if (off) {
			fprintf(stderr, "error=pages not on source node rep=%u node=%d count=%zu\n",
				rep, src, off);
			return 1;
		}
		for (size_t i = 0; i < count; i++) {
			nodes[i] = dst;
			status[i] = INT_MIN;	/* catch entries never written */
		}

		if (spinner)
			spun = *spin_count;
		cpu0 = busy_s();
		task0 = thread_cpu_s();
		t0 = now_s();
		ret = move_pages(0, count, pages, nodes, status,
				 MPOL_MF_MOVE | flags);
		s = now_s() - t0;
		task_s = thread_cpu_s() - task0;
		cpu_s = busy_s() - cpu0;
		if (spinner && spin_alone > 0)
			share = (*spin_count - spun) / s / spin_alone;
		if (ret < 0) {
			if (errno == EINVAL) {
				fprintf(stderr, "error=EINVAL\n");
				exit(3);
			}
			die("move_pages");
		}

		for (size_t i = 0; i < count; i++)
			serr += status[i] != dst;
		nerr = off_node(buf, bytes, dst);
		ok = checksum((uint64_t *)buf, bytes / 8) == sum0;
		printf("rep=%u dir=%d->%d seconds=%.6f gbps=%.3f not_migrated=%ld status_errors=%lu node_errors=%zu checksum_ok=%d thp=%ld cpu_s=%.3f task_cpu_s=%.3f spinner_share=%.3f\n",
		       rep, src, dst, s, gbps(bytes, s), ret, serr, nerr, ok,
		       thp_count((uintptr_t)buf, (uintptr_t)buf + bytes),
		       cpu_s, task_s, share);
		cpu_sum += cpu_s;
		task_sum += task_s;
		share_sum += share;

		ssum += s;
		smin = s < smin ? s : smin;
		smax = s > smax ? s : smax;
		status_errors += serr;
		node_errors += nerr;
		cs_ok &= ok;
		/* The next rep's source would be wrong; stop here. */
		if (serr || nerr || !ok) {
			rep++;
			break;
		}
	}
	thp_after = thp_count((uintptr_t)buf, (uintptr_t)buf + bytes);
	if (spinner) {
		kill(spinner, SIGKILL);
		waitpid(spinner, NULL, 0);
	}

	printf("result kind=%s count=%" PRIu64 " bytes=%zu reps=%u gbps_mean=%.3f gbps_min=%.3f gbps_max=%.3f status_errors=%lu node_errors=%lu checksum_ok=%d thp_before=%ld thp_after=%ld cpu_s_per_gb=%.3f task_cpu_s_per_gb=%.3f",
	       thp ? "thp" : "4k", count, bytes, rep,
	       gbps(bytes, ssum / rep), gbps(bytes, smax), gbps(bytes, smin),
	       status_errors, node_errors, cs_ok, thp_before, thp_after,
	       cpu_sum / (bytes * (double)rep / 1e9),
	       task_sum / (bytes * (double)rep / 1e9));
	if (spin_cpu >= 0)
		printf(" spinner_share=%.3f", share_sum / rep);
	printf("\n");
	return status_errors || node_errors || !cs_ok;
}

struct copy_job {
	char *dst;
	const char *src;
	size_t len;
	pthread_barrier_t *start;
};

static void *copy_thread(void *arg)
{
	struct copy_job *j = arg;

	pthread_barrier_wait(j->start);
	memcpy(j->dst, j->src, j->len);
	return NULL;
}

static int run_memcpy(unsigned int threads, uint64_t mib, unsigned int reps,
		      int from, int to)
{
	size_t bytes = mib << 20, chunk = (bytes / threads) & ~(size_t)63;
	double smin = INFINITY, smax = 0, ssum = 0;
	struct copy_job *jobs;
	pthread_barrier_t start;
	pthread_t *tids;
	char *src, *dst;

	check_nodes(from, to);
	src = numa_alloc_onnode(bytes, from);
	dst = numa_alloc_onnode(bytes, to);
	jobs = calloc(threads, sizeof(*jobs));
	tids = calloc(threads, sizeof(*tids));
	if (!src || !dst || !jobs || !tids)
		die("alloc");
	/* Touch both so page faults are not timed; verify they landed right. */
	memset(src, 0xa5, bytes);
	memset(dst, 0, bytes);
	if (off_node(src, bytes, from) || off_node(dst, bytes, to)) {
		fprintf(stderr, "error=buffers not on requested nodes\n");
		return 1;
	}

	for (unsigned int t = 0; t < threads; t++) {
		jobs[t].src = src + t * chunk;
		jobs[t].dst = dst + t * chunk;
		jobs[t].len = t == threads - 1 ? bytes - t * chunk : chunk;
		jobs[t].start = &start;
	}

	for (unsigned int rep = 0; rep < reps; rep++) {
		double t0, s;
		int err;

		pthread_barrier_init(&start, NULL, threads + 1);
		for (unsigned int t = 0; t < threads; t++) {
			err = pthread_create(&tids[t], NULL, copy_thread, &jobs[t]);
			if (err) {
				errno = err;
				die("pthread_create");
			}
		}
		pthread_barrier_wait(&start);
		t0 = now_s();
		for (unsigned int t = 0; t < threads; t++)
			pthread_join(tids[t], NULL);
		s = now_s() - t0;
		pthread_barrier_destroy(&start);

		printf("rep=%u dir=%d->%d seconds=%.6f gbps=%.3f\n",
		       rep, from, to, s, gbps(bytes, s));
		ssum += s;
		smin = s < smin ? s : smin;
		smax = s > smax ? s : smax;
	}
	if (memcmp(src, dst, bytes)) {
		fprintf(stderr, "error=memcpy verification failed\n");
		return 1;
	}

	printf("result mode=memcpy threads=%u mib=%" PRIu64 " from=%d to=%d gbps_mean=%.3f gbps_min=%.3f gbps_max=%.3f\n",
	       threads, mib, from, to, gbps(bytes, ssum / reps),
	       gbps(bytes, smax), gbps(bytes, smin));
	numa_free(src, bytes);
	numa_free(dst, bytes);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "from", required_argument, NULL, 'f' },
		{ "to", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t count = 0, reps = 1, seed = 1, threads = 0, mib = 0;
	int kind = -1, flags = 0, from = 0, to = 1, opt, spin_cpu = -1;
	int migrate_opts = 0;

	while ((opt = getopt_long(argc, argv, "k:n:r:F:s:S:C:b:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'k':
			if (!strcmp(optarg, "4k"))
				kind = 0;
			else if (!strcmp(optarg, "thp"))
				kind = 1;
			else
				bad_usage("-k must be 4k or thp");
			migrate_opts = 1;
			break;
		case 'n':
			count = parse_u64(optarg, 10, 1, MAX_BYTES, "bad -n");
			migrate_opts = 1;
			break;
		case 'r':
			reps = parse_u64(optarg, 10, 1, 1000000, "bad -r");
			break;
		case 'F':
			flags = (int)parse_u64(optarg, 0, 0, UINT32_MAX, "bad -F");
			migrate_opts = 1;
			break;
		case 's':
			seed = parse_u64(optarg, 0, 0, UINT64_MAX, "bad -s");
			migrate_opts = 1;
			break;
		case 'S':
			spin_cpu = (int)parse_u64(optarg, 10, 0, 4095, "bad -S");
			migrate_opts = 1;
			break;
		case 'C':
			threads = parse_u64(optarg, 10, 1, 1024, "bad -C");
			break;
		case 'b':
			mib = parse_u64(optarg, 10, 1, MAX_BYTES >> 20, "bad -b");
			break;
		case 'f':
			from = parse_u64(optarg, 10, 0, 4095, "bad --from");
			break;
		case 't':
			to = parse_u64(optarg, 10, 0, 4095, "bad --to");
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
	page_size = sysconf(_SC_PAGESIZE);

	if (threads || mib) {
		if (!threads || !mib || migrate_opts)
			bad_usage("ceiling mode takes -C, -b, -r, --from, --to only");
		return run_memcpy(threads, mib, reps, from, to);
	}
	if (kind < 0 || !count)
		bad_usage("-k and -n are required");
	return run_migrate(kind, count, reps, flags, seed, from, to, spin_cpu);
}
