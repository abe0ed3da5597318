// SPDX-License-Identifier: GPL-2.0
/*
 * DRAFT (issue 5, never compiled): tests for vm.zone_dirty_balance
 * (CONFIG_ZONE_DIRTY_LIMITS). Goes to tools/testing/selftests/mm/.
 *
 * Bad sysctl values are refused and change nothing. Then a writer dirties
 * 40% of a node's memory in a file on ext4 (on a loop device backed by a
 * tmpfs file), with periodic and background writeback held off so the pages
 * stay dirty, first with the sysctl off, then on. /proc/zoneinfo is sampled
 * while it writes: with the sysctl on, no zone's write-pending pages may
 * exceed its dirty_limit by more than the margin (per-cpu counter drift),
 * the zone_dirty_skip counter must move whenever a zone was over its limit
 * without it, the writer must complete, and nothing may be OOM-killed.
 * Needs a node with two zones of at least 256 MB (for example DMA32 and
 * Normal with more than 4 GB of RAM, or movablecore=); skips otherwise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "../kselftest.h"

#define SYSCTL		"/proc/sys/vm/zone_dirty_balance"
#define MAX_ZONES	8
#define MARGIN_PAGES	4096	/* per-cpu vmstat drift and the pcp lists */
#define MB		(1024UL * 1024)

struct zone_sample {
	int node;
	char name[16];
	long managed, pending, limit, dirtyable;
};

static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	int err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, val, strlen(val)) < 0)
		err = errno;
	close(fd);
	return err;
}

static long read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static long vmstat(const char *name)
{
	FILE *f = fopen("/proc/vmstat", "r");
	char key[64];
	long v, ret = -1;

	if (!f)
		return -1;
	while (fscanf(f, "%63s %ld", key, &v) == 2)
		if (!strcmp(key, name))
			ret = v;
	fclose(f);
	return ret;
}

/* Populated zones with their write-pending pages, limits and sizes */
static int read_zones(struct zone_sample *z)
{
	FILE *f = fopen("/proc/zoneinfo", "r");
	char line[256], name[16];
	int n = -1, node;
	long v;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Node %d, zone %15s", &node, name) == 2) {
			if (n + 1 >= MAX_ZONES)
				break;
			n++;
			memset(&z[n], 0, sizeof(z[n]));
			z[n].node = node;
			strcpy(z[n].name, name);
		} else if (n < 0) {
			continue;
		} else if (sscanf(line, " managed %ld", &v) == 1) {
			z[n].managed = v;
		} else if (sscanf(line, " nr_zone_write_pending %ld", &v) == 1) {
			z[n].pending = v;
		} else if (sscanf(line, " dirty_limit %ld", &v) == 1) {
			z[n].limit = v;
		} else if (sscanf(line, " dirtyable %ld", &v) == 1) {
			z[n].dirtyable = v;
		}
	}
	fclose(f);
	return n + 1;
}

/* A node with two zones of at least 256 MB each; -1 if none */
static int pick_node(long page_size)
{
	struct zone_sample z[MAX_ZONES];
	int nr = read_zones(z), i, j;
	long min = 256 * MB / page_size;

	for (i = 0; i < nr; i++)
		for (j = i + 1; j < nr; j++)
			if (z[i].node == z[j].node && z[i].managed >= min &&
			    z[j].managed >= min)
				return z[i].node;
	return -1;
}

static void test_bad_writes(void)
{
	static const char * const bad[] = { "2", "-1", "abc", "99999999999" };
	long before = read_long(SYSCTL);
	unsigned int i;
	int ok = 1;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		int err = write_file(SYSCTL, bad[i]);

		if (err != EINVAL || read_long(SYSCTL) != before) {
			ksft_print_msg("write '%s': %s, value %ld (was %ld)\n",
				       bad[i], strerror(err), read_long(SYSCTL), before);
			ok = 0;
		}
	}
	ksft_test_result(ok, "bad values get EINVAL and change nothing\n");
}

struct run {
	long worst_excess;	/* pages over the limit, worst zone, worst sample */
	long skips, fallbacks, oom_kills;
	int writer_ok;
};

/* Dirty @mb MB in @dir while sampling the zones of @node */
static void write_and_sample(const char *dir, long mb, int node, struct run *r)
{
	char path[256], *buf = malloc(MB);
	long skip0 = vmstat("zone_dirty_skip"), fb0 = vmstat("zone_dirty_fallback");
	long oom0 = vmstat("oom_kill"), i;
	struct zone_sample z[MAX_ZONES];
	int fd, nr, k;

	memset(r, 0, sizeof(*r));
	snprintf(path, sizeof(path), "%s/dirty", dir);
	fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
	if (fd < 0 || !buf)
		return;
	memset(buf, 0x5a, MB);
	r->writer_ok = 1;
	for (i = 0; i < mb; i++) {
		if (write(fd, buf, MB) != (ssize_t)MB) {
			r->writer_ok = 0;
			break;
		}
		if (i % 16)
			continue;
		nr = read_zones(z);
		for (k = 0; k < nr; k++)
			if (z[k].node == node && z[k].pending - z[k].limit > r->worst_excess)
				r->worst_excess = z[k].pending - z[k].limit;
	}
	close(fd);
	unlink(path);	/* the dirty pages go without being written */
	free(buf);
	r->skips = vmstat("zone_dirty_skip") - skip0;
	r->fallbacks = vmstat("zone_dirty_fallback") - fb0;
	r->oom_kills = vmstat("oom_kill") - oom0;
}

int main(void)
{
	long page_size = sysconf(_SC_PAGESIZE), node_mb = 0;
	const char *dir = "/tmp/zone_dirty_mnt";
	struct zone_sample z[MAX_ZONES];
	struct run off, on;
	int node, nr, k;

	ksft_print_header();
	if (access(SYSCTL, W_OK))
		ksft_exit_skip("%s: %s (CONFIG_ZONE_DIRTY_LIMITS, root)\n",
			       SYSCTL, strerror(errno));
	ksft_set_plan(5);
	test_bad_writes();

	node = pick_node(page_size);
	if (node < 0) {
		ksft_test_result_skip("no node with two zones of 256 MB or more\n");
		ksft_finished();
	}
	nr = read_zones(z);
	for (k = 0; k < nr; k++)
		if (z[k].node == node)
			node_mb += z[k].managed * page_size / MB;

	/* Keep the pages dirty: no periodic and no early background writeback */
	write_file("/proc/sys/vm/dirty_writeback_centisecs", "0");
	write_file("/proc/sys/vm/dirty_background_ratio", "50");
	write_file("/proc/sys/vm/dirty_ratio", "60");
	if (system("mkdir -p /tmp/zone_dirty_mnt && truncate -s 4G /dev/shm/zone_dirty.img && "
		   "mkfs.ext4 -q -F /dev/shm/zone_dirty.img && "
		   "mount -o loop /dev/shm/zone_dirty.img /tmp/zone_dirty_mnt"))
		ksft_exit_skip("cannot make an ext4 scratch filesystem\n");

	write_file(SYSCTL, "0");
	write_and_sample(dir, node_mb * 2 / 5, node, &off);
	write_file(SYSCTL, "1");
	write_and_sample(dir, node_mb * 2 / 5, node, &on);

	ksft_print_msg("off: worst zone %ld pages over its limit; on: %ld, %ld skips, %ld fallbacks\n",
		       off.worst_excess, on.worst_excess, on.skips, on.fallbacks);
	ksft_test_result(off.writer_ok && on.writer_ok, "the writer completed both times\n");
	ksft_test_result(on.worst_excess <= MARGIN_PAGES,
			 "on: no zone over its dirty limit by more than %d pages\n", MARGIN_PAGES);
	ksft_test_result(off.worst_excess <= MARGIN_PAGES || on.skips > 0,
			 "on: zones over the limit were passed over\n");
	ksft_test_result(!off.oom_kills && !on.oom_kills, "no OOM kill\n");

	system("umount /tmp/zone_dirty_mnt; rm -f /dev/shm/zone_dirty.img");
	ksft_finished();
}
