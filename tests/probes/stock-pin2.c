// SPDX-License-Identifier: GPL-2.0
/*
 * Probe (run in the guest, 2 or more CPUs): can a removed memory cgroup stay
 * dying because a per-cpu charge stock it emptied still caches it? 6.12's
 * drain_all_stock() (called when the memcg goes offline) flushes only
 * stocks with pages; an empty one keeps its css reference until another
 * memcg's charge on that CPU replaces it. Each round: a child joins a new
 * cgroup on CPU 1, faults anonymous pages there (each
 * consumes the stock that the first charge refilled; round i faults i
 * pages, so that every remainder comes up), moves to CPU 0 and
 * exits there (its page tables' kmem uncharge refills CPU 0's stock, not
 * CPU 1's). The cgroup is removed; if it is still dying after 2 s of
 * dropped caches, a child charges in a scratch cgroup on CPU 1 and the
 * probe says whether that freed it.
 *   cc -O2 -static -o build/wip/stock-pin2 tests/probes/stock-pin2.c
 *   make run CPUS=2 CMD="$PWD/build/wip/stock-pin2 192"
 * 2026-12-07 (sysctls at 0): 6 of 192 still dying (N = 62, 63, 126, 127,
 * 190, 191: the faults plus the page tables' charges empty the stock), all
 * 6 freed by a charge elsewhere on CPU 1.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define CG "/sys/fs/cgroup"

static void put(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(s, f);
		fclose(f);
	}
}

static long dying(void)
{
	char line[128];
	long n = -1;
	FILE *f = fopen(CG "/cgroup.stat", "r");

	while (f && fgets(line, sizeof(line), f))
		sscanf(line, "nr_dying_descendants %ld", &n);
	if (f)
		fclose(f);
	return n;
}

static void on_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void charge_in(const char *cg, int cpu, long pages, int exit_cpu)
{
	char path[256];
	pid_t pid = fork();

	if (!pid) {
		char *p;

		on_cpu(cpu);
		snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
		put(path, "0");
		p = mmap(NULL, pages * 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
		if (p == MAP_FAILED)
			_exit(1);
		on_cpu(exit_cpu);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
}

static int wait_freed(long d0)
{
	int i;

	for (i = 0; i < 20; i++) {
		if (dying() <= d0)
			return 1;
		put("/proc/sys/vm/drop_caches", "3");
		usleep(100000);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100, i, pinned = 0, unpinned = 0;
	char cg[64];
	long d0;

	put(CG "/cgroup.subtree_control", "+memory");
	mkdir(CG "/sp2_scratch", 0755);
	charge_in(CG "/sp2_scratch", 1, 1, 1);
	sleep(1);
	d0 = dying();
	for (i = 1; i <= n; i++) {
		snprintf(cg, sizeof(cg), CG "/sp2_%d", i);
		mkdir(cg, 0755);
		charge_in(cg, 1, i, 0);	/* every stock remainder */
		if (rmdir(cg))
			perror("rmdir");
		if (wait_freed(d0))
			continue;
		pinned++;
		charge_in(CG "/sp2_scratch", 1, 1, 1);
		if (wait_freed(d0))
			unpinned++;
		printf("stock-pin2: sp2_%d still dying after 2 s; %s by a charge elsewhere on CPU 1\n",
		       i, dying() <= d0 ? "freed" : "not freed");
		d0 = dying();
	}
	printf("stock-pin2: %d removed, %d still dying after 2 s, %d of them freed by a charge elsewhere on CPU 1\n",
	       n, pinned, unpinned);
	return 0;
}
