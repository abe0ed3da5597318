/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the workload programs: error exits, strict argument
 * parsing, a stop flag for SIGTERM/SIGINT and a monotonic clock. A program defines PROG and its usage()
 * before including this.
 */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void usage(FILE *f);

/* Set by SIGTERM/SIGINT where a program installs on_signal(). */
static volatile sig_atomic_t stop __attribute__((unused));

static inline void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static inline void bad_usage(const char *why)
{
	fprintf(stderr, PROG ": %s\n", why);
	usage(stderr);
	exit(2);
}

static inline void die(const char *what)
{
	fprintf(stderr, PROG ": %s: %s\n", what, strerror(errno));
	exit(1);
}

/* Strict unsigned parse: the whole string, in [min, max]; else exit 2. */
static inline uint64_t parse_u64(const char *s, int base, uint64_t min,
				 uint64_t max, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	if (!*s || *s == '-' || *s == '+')
		bad_usage(what);
	v = strtoull(s, &end, base);
	if (errno || *end || v < min || v > max)
		bad_usage(what);
	return v;
}

static inline double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#endif
