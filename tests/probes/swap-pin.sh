#!/bin/bash
# In the guest: can a removed memory cgroup stay dying because swap entries
# its task freed at exit still sit in a per-cpu swap slots cache? In 6.12
# free_swap_slot() parks a freed entry in the CPU's slots_ret (up to
# SWAP_SLOTS_CACHE_SIZE, 64) and only swapcache_free_entries() uncharges it
# (mem_cgroup_uncharge_swap(), which drops the memcg id reference that pins
# the css). Each round: a task in a cgroup with memory.max 8M touches 12 MB
# of anon (so that some is swapped out) and exits; the cgroup is removed.
# memory.swap.current after the exit is what is still charged (parked
# entries). After 3 s of dropped caches, is the cgroup freed? If not, does
# swapoff/swapon of the swap devices (which drains the caches) free it?
# Then the same with memory.swap.max 0 (the task is OOM-killed then: the
# round only shows that nothing else keeps the cgroup).
# 2026-12-07: 3 of 3 with swap dying until swapoff (64-248 kB parked),
# 3 of 3 without swap freed.
#   make run CPUS=1 TCG=single SWAP=1G CMD="bash $PWD/tests/probes/swap-pin.sh [N]"
CG=/sys/fs/cgroup
N=${1:-5}
mountpoint -q $CG || mount -t cgroup2 none $CG
echo +memory > $CG/cgroup.subtree_control
[ -n "$(awk 'NR > 1' /proc/swaps)" ] || { echo "swap-pin: no swap"; exit 1; }
dying() { awk '/^nr_dying_descendants/{print $2}' $CG/cgroup.stat; }
wait_freed() { # -> 0 if dying is back to $d0 within 3 s
	local j
	for j in $(seq 30); do
		[ "$(dying)" -le "$d0" ] && return 0
		echo 3 > /proc/sys/vm/drop_caches
		sleep 0.1
	done
	return 1
}
round() { # name swap.max
	local c=$CG/$1 r
	mkdir $c
	echo 8M > $c/memory.max
	echo "$2" > $c/memory.swap.max
	sh -c "echo \$\$ > $c/cgroup.procs; exec taskset -c 0 dd if=/dev/zero of=/dev/null bs=12M count=1 2>/dev/null"
	local sw
	sw=$(cat $c/memory.swap.current)
	rmdir $c
	if wait_freed; then r="freed"
	else
		for d in $swaps; do swapoff "$d" && swapon "$d"; done
		if wait_freed; then r="dying until swapoff/swapon, then freed"; else r="dying, also after swapoff/swapon"; fi
	fi
	echo "swap-pin: $1 (swap.max $2, memory.swap.current after the exit $((${sw:-0} / 1024)) kB): $r"
}
swaps=$(awk 'NR > 1 { print $1 }' /proc/swaps)
d0=$(dying)
for i in $(seq "$N"); do round sw$i max; done
for i in $(seq "$N"); do round nosw$i 0; done
