// SPDX-License-Identifier: GPL-2.0
/*
 * Why mremap_test's "with 40MB Preamble" case fails now and then, on the
 * base as on the series (docs/testing.md, "Known flaky results").
 *
 * Built like the mm selftests on x86-64 (-no-pie), this does what the test
 * does before its mremap(): the source at 41 MiB, then the destination's
 * preamble at 47-87 MiB, both MAP_FIXED_NOREPLACE. The program's brk heap
 * (stdio's buffer) starts a random 0-1 GiB above its bss; when it lands in
 * the preamble, the mapping fails with EEXIST. Prints the heap's top in
 * MiB and "EEXIST" or "free" for the preamble.
 *
 *   gcc -O2 -no-pie -o /tmp/probe tests/probes/mremap-preamble-heap.c
 *   for i in $(seq 2000); do /tmp/probe; done | grep -c EEXIST
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#define MB (1UL << 20)

int main(void)
{
	void *src, *pre;

	printf("heap top ");	/* stdio's buffer: the heap exists, as in the test */
	src = mmap((void *)(41 * MB), 5 * MB, PROT_READ | PROT_WRITE,
		   MAP_FIXED_NOREPLACE | MAP_ANONYMOUS | MAP_SHARED, -1, 0);
	pre = mmap((void *)(47 * MB), 40 * MB, PROT_READ | PROT_WRITE,
		   MAP_FIXED_NOREPLACE | MAP_ANONYMOUS | MAP_SHARED, -1, 0);
	printf("%lu MiB source %s preamble %s\n", (unsigned long)sbrk(0) / MB,
	       src == MAP_FAILED ? "EEXIST" : "free",
	       pre == MAP_FAILED ? (errno == EEXIST ? "EEXIST" : "error") : "free");
	return 0;
}
