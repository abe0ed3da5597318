#!/bin/bash
# In the guest: the smoke test of make check-series. Each feature sysctl that
# this kernel has is switched on and back off (and a bad value refused), then
# memory pressure with each feature on (memcg limit reclaim, then global
# reclaim of page cache): nothing may be OOM-killed, and the kernel may not warn.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
fail=0
. "$TOP/harness/guest/features.sh"
features_read "$TOP"
path() { sysctl_path "$1"; }
names=() ons=() offs=()
for i in "${!feat_name[@]}"; do
	[ -n "${feat_saved[i]}" ] || { echo "smoke: ${feat_name[i]} absent"; continue; }
	names+=("${feat_name[i]}") offs+=("${feat_off[i]}") ons+=("${feat_on[i]}")
done
for i in "${!names[@]}"; do
	p=$(path "${names[i]}") v0=$(cat "$(path "${names[i]}")")
	echo "${ons[i]}" > "$p" && [ "$(cat "$p")" = "${ons[i]}" ] || { echo "smoke: cannot set ${names[i]}=${ons[i]}"; fail=1; }
	if echo -1 > "$p" 2>/dev/null; then echo "smoke: ${names[i]} took -1"; fail=1; fi
	[ "$(cat "$p")" = "${ons[i]}" ] || { echo "smoke: a bad write changed ${names[i]}"; fail=1; }
	echo "${offs[i]}" > "$p" && echo "$v0" > "$p"
	echo "smoke: ${names[i]} on/off/bad value ok"
done
for i in "${!names[@]}"; do echo "${ons[i]}" > "$(path "${names[i]}")"; done
oom0=$(awk '$1 == "oom_kill" {print $2}' /proc/vmstat)
# Page cache on ext4 (on a loop file in tmpfs), read inside a cgroup limited
# to half of it (memcg reclaim), then anonymous memory that needs half of
# that cache back (global reclaim).
mb=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 / 8 ))
mkdir -p /tmp/smoke && truncate -s $(( mb * 2 ))M /tmp/smoke.img && mkfs.ext4 -q -F /tmp/smoke.img &&
	mount -o loop /tmp/smoke.img /tmp/smoke &&
	dd if=/dev/zero of=/tmp/smoke/f bs=1M count=$mb status=none && sync &&
	echo 3 > /proc/sys/vm/drop_caches || { echo "smoke: cannot make the test file"; fail=1; }
echo +memory > /sys/fs/cgroup/cgroup.subtree_control
mkdir -p /sys/fs/cgroup/smoke && echo $(( mb / 2 ))M > /sys/fs/cgroup/smoke/memory.max
(echo $BASHPID > /sys/fs/cgroup/smoke/cgroup.procs; cat /tmp/smoke/f > /dev/null) ||
	{ echo "smoke: reading in the cgroup failed"; fail=1; }
cg_steal=$(awk '$1 == "pgsteal" {print $2}' /sys/fs/cgroup/smoke/memory.stat)
cat /tmp/smoke/f > /dev/null
steal() { awk '$1 ~ /^pgsteal_(kswapd|direct)$/ {s += $2} END {print s}' /proc/vmstat; }
g0=$(steal)
free_mb=$(( $(awk '/MemFree/ {print $2}' /proc/meminfo) / 1024 ))
# Anonymous memory of the free memory plus half of the file's cache (less
# python's own 16 MB), every page written: reclaim must take about half of
# the cache, the other half stays as a margin (no swap here)
python3 -c 'import sys
n = int(sys.argv[1]) << 20
b = bytearray(n)
b[::4096] = b"\1" * len(range(0, n, 4096))' $(( free_mb + mb / 2 - 16 )) ||
	{ echo "smoke: the anonymous hog failed"; fail=1; }
g1=$(steal)
echo "smoke: reclaimed in the cgroup: ${cg_steal:-0} pages; globally: $((g1 - g0)) pages"
[ "${cg_steal:-0}" -gt 0 ] && [ $((g1 - g0)) -gt 0 ] || { echo "smoke: no reclaim happened"; fail=1; }
umount /tmp/smoke; rm -f /tmp/smoke.img; rmdir /sys/fs/cgroup/smoke
oom1=$(awk '$1 == "oom_kill" {print $2}' /proc/vmstat)
[ "$oom0" = "$oom1" ] || { echo "smoke: OOM kills under pressure: $((oom1 - oom0))"; fail=1; }
if dmesg | grep -E -q 'WARNING:|BUG:|underflow|Oops'; then
	echo "smoke: the kernel warned:"; dmesg | grep -E -A3 'WARNING:|BUG:|underflow|Oops' | head -20; fail=1
fi
for i in "${!names[@]}"; do echo "${offs[i]}" > "$(path "${names[i]}")"; done
echo "smoke: $([ $fail = 0 ] && echo pass || echo FAIL)"
exit $fail
