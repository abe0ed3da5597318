#!/bin/bash
# A test for demonstrating make bisect-feature. It asserts a behaviour of the
# unpatched 6.12 that feature 2 (vm.zone_dirty_limits) changes on purpose:
# page cache written into free memory lands in the highest zone first. Passes
# on the base and with every feature off; fails with zone-fair dirty limits on,
# which send writes past a zone's own dirty limit to the lower zones.
#
#   make bisect-feature MEM=5G TEST=tests/bisect-demo/normal-zone-first.sh
#
# Needs a Normal zone (a guest with more than 4 GiB). Exit 0 pass, 1 fail.
set -u
img=/tmp/nzf.img mnt=/tmp/nzf-mnt
file_pages() { # zone -> pages on its file LRUs
	awk '/^Node/ { z = $4 }
	     $1 == "nr_zone_inactive_file" || $1 == "nr_zone_active_file" { f[z] += $2 }
	     END { for (z in f) print z, f[z] }' /proc/zoneinfo | sort
}
grep -q 'zone *Normal' /proc/zoneinfo && [ "$(file_pages | awk '$1 == "Normal"' | wc -l)" = 1 ] ||
	{ echo "no Normal zone: give the guest more than 4 GiB (MEM=5G)"; exit 1; }
truncate -s 4G $img && mkfs.ext4 -q -F $img && mkdir -p $mnt && mount -o loop $img $mnt ||
	{ echo "cannot make the test filesystem"; exit 1; }
trap 'umount $mnt; rm -f $img' EXIT
sync; echo 3 > /proc/sys/vm/drop_caches
mb=$(awk '/MemTotal/ { print int($2 / 1024 / 10) }' /proc/meminfo)
file_pages > /tmp/nzf.0
dd if=/dev/zero of=$mnt/f bs=1M count="$mb" status=none || { echo "write failed"; exit 1; }
file_pages > /tmp/nzf.1
join /tmp/nzf.0 /tmp/nzf.1 | awk -v mb="$mb" '
	{ d = $3 - $2; if (d < 0) d = 0; got[$1] = d; all += d }
	END {
		share = all ? got["Normal"] / all : 0
		printf "wrote %d MB: file pages added per zone:", mb
		for (z in got) printf " %s %d", z, got[z]
		printf "; Normal took %.2f (the base fills it first: at least 0.90)\n", share
		exit share >= 0.90 ? 0 : 1
	}'
