#!/bin/bash
# A test for demonstrating make bisect-feature PATCH=1. It asserts a behaviour
# of the unpatched 6.12 that feature 5 (vm.migrate_mt_copy=2) changes on
# purpose: migrate_pages(2) copies the pages in the calling thread, so no
# migration batch is ever considered for a multithreaded copy (the feature's
# pgmigrate_mt_batch and pgmigrate_mt_serial counters do not move, or do not
# exist). Passes on the base and with every feature off; fails with mode 2,
# which copies migrate_pages(2) batches with helper threads.
#
#   make bisect-feature NUMA=2 PATCH=1 TEST=tests/bisect-demo/migrate-pages-one-thread.sh
#
# Needs two NUMA nodes and numactl's migratepages. Exit 0 pass, 1 fail.
set -u
[ -d /sys/devices/system/node/node1 ] || { echo "needs two NUMA nodes (NUMA=2)"; exit 1; }
command -v migratepages > /dev/null || { echo "needs migratepages (numactl)"; exit 1; }
considered() {
	awk '$1 == "pgmigrate_mt_batch" || $1 == "pgmigrate_mt_serial" { n += $2 } END { print n + 0 }' /proc/vmstat
}
# 64 MB of anonymous memory on node 0, held until killed
rm -f /tmp/mpot.ready
numactl --membind=0 python3 -c '
import time
b = bytearray(64 << 20)
for i in range(0, len(b), 4096):
    b[i] = 1
open("/tmp/mpot.ready", "w").close()
time.sleep(600)' &
pid=$!
trap 'kill $pid 2> /dev/null' EXIT
for _ in $(seq 600); do [ -e /tmp/mpot.ready ] && break; sleep 0.1; done
[ -e /tmp/mpot.ready ] || { echo "the memory holder did not start"; exit 1; }
before=$(considered)
migratepages "$pid" 0 1 || { echo "migratepages failed"; exit 1; }
after=$(considered)
moved=$(awk '/N1=/ { for (i = 1; i <= NF; i++) if ($i ~ /^N1=/) n += substr($i, 4) } END { print n + 0 }' "/proc/$pid/numa_maps")
echo "migrate_pages(2): $moved pages now on node 1; batches considered for a multithreaded copy: $((after - before)) (the base: 0)"
[ "$moved" -gt 8192 ] || { echo "the pages did not move"; exit 1; }
[ "$after" = "$before" ]
