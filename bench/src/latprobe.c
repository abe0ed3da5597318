// SPDX-License-Identifier: GPL-2.0
/*
 * latprobe - periodic allocation-latency probe, meant to run next to a
 * memory-pressure workload and show how long an ordinary small
 * allocation stalls (direct reclaim, compaction, ...).
 *
 *   pipe: write 64 KiB into a fresh pipe and read it back; the pipe
 *         buffer pages are GFP_KERNEL(_ACCOUNT) allocations.
 *   anon: mmap 256 KiB anonymous, touch every page, munmap; user page
 *         faults allocating GFP_HIGHUSER_MOVABLE pages.
 *
 * Stops after -d seconds or on SIGINT/SIGTERM, then prints percentiles.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define PROG "latprobe"
#include "common.h"

#define PIPE_BYTES	(64 << 10)
#define ANON_BYTES	(256 << 10)
#define NSEC		1000000000LL

static void usage(FILE *f)
{
	fprintf(f, "usage: latprobe -d SECONDS [-i INTERVAL_MS] [-k pipe|anon] [-h]\n");
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC + ts.tv_nsec;
}

/*
 * Non-blocking and interleaved, so a pipe that got less than 64 KiB of
 * buffer (pipe-user-pages-soft exceeded) cannot deadlock us.
 */
static void probe_pipe(void)
{
	static char wbuf[PIPE_BYTES], rbuf[PIPE_BYTES];
	size_t wr = 0, rd = 0;
	int fd[2];

	if (pipe2(fd, O_CLOEXEC | O_NONBLOCK))
		die("pipe2");
	while (rd < PIPE_BYTES) {
		ssize_t n;

		if (wr < PIPE_BYTES) {
			n = write(fd[1], wbuf + wr, PIPE_BYTES - wr);
			if (n > 0)
				wr += n;
			else if (n < 0 && errno != EAGAIN && errno != EINTR)
				die("write");
		}
		n = read(fd[0], rbuf, PIPE_BYTES);
		if (n > 0)
			rd += n;
		else if (n == 0 || (errno != EAGAIN && errno != EINTR))
			die("read");
	}
	close(fd[0]);
	close(fd[1]);
}

static void probe_anon(void)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile char *p;

	p = mmap(NULL, ANON_BYTES, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		die("mmap");
	for (long off = 0; off < ANON_BYTES; off += page)
		p[off] = 1;
	munmap((void *)p, ANON_BYTES);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Nearest-rank percentile of sorted samples, in microseconds. */
static double pct_us(const int64_t *v, size_t n, double p)
{
	size_t rank = (size_t)ceil(p / 100.0 * n);

	if (!n)
		return NAN;
	return v[rank ? rank - 1 : 0] / 1e3;
}

int main(int argc, char **argv)
{
	double seconds = -1, sum = 0;
	long interval_ms = 10;
	int anon = 0, opt;
	struct sigaction sa = { .sa_handler = on_signal };
	int64_t *lat = NULL, next, end;
	size_t n = 0, cap = 0;
	char *e;

	while ((opt = getopt(argc, argv, "d:i:k:h")) != -1) {
		switch (opt) {
		case 'd':
			errno = 0;
			seconds = strtod(optarg, &e);
			if (errno || *e || e == optarg || !(seconds > 0) ||
			    seconds > 1e7)
				bad_usage("bad -d");
			break;
		case 'i':
			errno = 0;
			interval_ms = strtol(optarg, &e, 10);
			if (errno || *e || e == optarg || interval_ms < 0 ||
			    interval_ms > 3600000)
				bad_usage("bad -i");
			break;
		case 'k':
			if (!strcmp(optarg, "pipe"))
				anon = 0;
			else if (!strcmp(optarg, "anon"))
				anon = 1;
			else
				bad_usage("-k must be pipe or anon");
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
	if (seconds < 0)
		bad_usage("-d is required");

	/* No SA_RESTART: a signal must cut the inter-probe sleep short. */
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL))
		die("sigaction");

	next = now_ns();
	end = next + (int64_t)(seconds * NSEC);
	while (!stop && next < end) {
		struct timespec ts;
		int64_t t0, t1;

		t0 = now_ns();
		if (anon)
			probe_anon();
		else
			probe_pipe();
		t1 = now_ns();

		if (n == cap) {
			cap = cap ? cap * 2 : 4096;
			lat = realloc(lat, cap * sizeof(*lat));
			if (!lat)
				die("realloc");
		}
		lat[n++] = t1 - t0;
		sum += t1 - t0;

		/*
		 * Fixed cadence on absolute deadlines; if a probe overran,
		 * skip the missed slots instead of firing a burst.
		 */
		next += interval_ms * 1000000LL;
		if (next < t1)
			next = t1;
		if (next >= end)
			break;
		ts.tv_sec = next / NSEC;
		ts.tv_nsec = next % NSEC;
		while (!stop && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME,
						&ts, NULL) == EINTR)
			;
	}

	if (n)
		qsort(lat, n, sizeof(*lat), cmp_i64);
	printf("result kind=%s samples=%zu p50_us=%.1f p90_us=%.1f p99_us=%.1f max_us=%.1f mean_us=%.1f\n",
	       anon ? "anon" : "pipe", n, pct_us(lat, n, 50), pct_us(lat, n, 90),
	       pct_us(lat, n, 99), n ? lat[n - 1] / 1e3 : NAN,
	       n ? sum / n / 1e3 : NAN);
	free(lat);
	return 0;
}
