# memcg-readers: <where>-n<N>: N dd readers, one sparse file each, read once
# (vm-scalability's lru-file-readonce), total 1x MemTotal (3x the cgroup's
# limit), so reclaim runs all the time in the cgroup cases. where = root (no limit), d1 (/bench, memory.max=MemTotal/3)
# or d3 (/b1/b2/bench, the limit on the leaf). Hierarchy-walk counts come
# from kprobe hits on the uncharge-side functions (kprobe_profile).
# mix-n<N>: the anon/file balance of get_scan_count(), which feature 3's
# batched LRU cost feeds (issue 23 point 5). In /bench, with swap on zram
# for this case only, memhog keeps half of the limit of anonymous memory
# hot while N readers each read their file three times (MemTotal/3 of
# files in all): the files refault, so reclaim leaves cache-trim mode and
# splits its scanning between anon and file by the LRU costs. Reported over
# the readers' window: the scanned and reclaimed anon and file pages
# (/proc/vmstat, limit reclaim included) and anon_scan_pct, anon's share of
# the pages scanned; the hog's passes per second. MGLRU does not use the
# LRU cost: its rows are the control.
T=/sys/kernel/tracing
# name:function; pcu = page_counter walks, wan = nonresident-age atomics.
# pct = page_counter charge attempts (each one a walk up the hierarchy).
# workingset_eviction() ages the non-resident counters of every ancestor with
# an inlined workingset_age_nonresident() that kprobes cannot see: wev counts
# those walks, unless vm.memcg_reclaim_batch defers them (then the deferred
# walks are out-of-line calls, counted in wan) or MGLRU evicts (no walk).
# lnb = lru_note_cost_batch(): a batched pass's one cost walk (v2 of feature
# 3; absent on older kernels, then not probed).
PROBES="pcu:page_counter_uncharge pct:page_counter_try_charge ucf:__mem_cgroup_uncharge_folios wan:workingset_age_nonresident wev:workingset_eviction lnc:lru_note_cost lnb:lru_note_cost_batch"
bench_setup() {
	MEM_MB=$(( $(mem_kb MemTotal) / 1024 ))
	truncate -s 64G /tmp/xfs.img && mkfs.xfs -q /tmp/xfs.img &&
		mkdir -p /mnt/xfs && mount -o loop /tmp/xfs.img /mnt/xfs || return 1
	local p
	for p in $PROBES; do
		echo "p:${p%%:*} ${p#*:}" >> $T/kprobe_events && continue
		[ "${p%%:*}" = lnb ] || return 1
	done
	echo 1 > $T/events/kprobes/enable
	echo "+memory" > /sys/fs/cgroup/cgroup.subtree_control
	mkdir -p /sys/fs/cgroup/bench /sys/fs/cgroup/b1/b2/bench
	echo "+memory" > /sys/fs/cgroup/b1/cgroup.subtree_control
	echo "+memory" > /sys/fs/cgroup/b1/b2/cgroup.subtree_control
	echo $(( MEM_MB / 3 ))M > /sys/fs/cgroup/bench/memory.max
	echo $(( MEM_MB / 3 ))M > /sys/fs/cgroup/b1/b2/bench/memory.max
	case " $(bench_cases) " in *" mix-"*)
		echo $(( MEM_MB / 2 ))M > /sys/block/zram0/disksize && mkswap /dev/zram0 > /dev/null || return 1
	esac
}
bench_cases() {
	if [ "$QUICK" = 1 ]; then echo "d3-n2"
	else echo "root-n2 d1-n2 d3-n2 root-n8 d1-n8 d3-n8 mix-n2"; fi
}
hits() { awk '$1 ~ /^(pcu|pct|ucf|wan|wev|lnc|lnb)$/ {print $1 "=" $2}' $T/kprobe_profile; }
# Pages reclaimed from the cgroup: memcg reclaim is not in /proc/vmstat's
# pgsteal_direct/kswapd, memory.stat has it (the root's covers everything).
stolen() { awk '$1 == "pgsteal" {print $2}' "$1/memory.stat"; }
scans() { awk '$1 ~ /^pg(scan|steal)_(anon|file)$/ {print $1 "=" $2}' /proc/vmstat; }
bench_run() {
	local where=${1%-n*} n=${1#*-n} cg size_mb i t0 t1 s0 s1 steal0 steal1 max0=0 passes=1 hog=
	case $where in root) cg=/sys/fs/cgroup ;; d1 | mix) cg=/sys/fs/cgroup/bench ;; d3) cg=/sys/fs/cgroup/b1/b2/bench ;; esac
	size_mb=$(( MEM_MB / n ))
	[ "$where" != mix ] || { size_mb=$(( MEM_MB / 3 / n )); passes=3
		swapoff /dev/zram0 2>/dev/null; swapon /dev/zram0 || return 1; }
	for ((i = 0; i < n; i++)); do rm -f /mnt/xfs/f$i; truncate -s ${size_mb}M /mnt/xfs/f$i; done
	sync; echo 3 > /proc/sys/vm/drop_caches
	hits > /tmp/h0
	s0=$(awk '/system_usec/{print $2}' $cg/cpu.stat)
	steal0=$(stolen $cg)
	[ "$where" = root ] || max0=$(awk '$1 == "max" {print $2}' $cg/memory.events)
	echo $BASHPID > $cg/cgroup.procs
	if [ "$where" = mix ]; then
		rm -f /tmp/hog.ready
		"$BIN/memhog" -m $(( MEM_MB / 6 )) -r /tmp/hog.ready > /tmp/hog.out 2>&1 &
		hog=$!
		for ((i = 0; i < 600; i++)); do [ ! -e /tmp/hog.ready ] || break; sleep 0.1; done
		[ -e /tmp/hog.ready ] || { kill $hog; wait $hog; swapoff /dev/zram0; return 1; }
	fi
	scans > /tmp/sc0
	t0=$(date +%s.%N)
	local readers=()
	for ((i = 0; i < n; i++)); do
		(for ((p = 0; p < passes; p++)); do dd if=/mnt/xfs/f$i of=/dev/null bs=64k 2>/dev/null; done) &
		readers+=($!)
	done
	wait "${readers[@]}"
	t1=$(date +%s.%N)
	scans > /tmp/sc1
	if [ -n "$hog" ]; then
		kill $hog; wait $hog
		sed -n 's/^result .*passes_per_s=/hog_passes_per_s=/p' /tmp/hog.out
		paste -d= /tmp/sc0 /tmp/sc1 | awk -F= '{ d[$1] = $4 - $2; print $1 "=" d[$1] }
			END { s = d["pgscan_anon"] + d["pgscan_file"]
			      if (s > 0) printf "anon_scan_pct=%.2f\n", 100 * d["pgscan_anon"] / s }'
	fi
	echo $BASHPID > /sys/fs/cgroup/cgroup.procs
	s1=$(awk '/system_usec/{print $2}' $cg/cpu.stat)
	steal1=$(stolen $cg)
	hits > /tmp/h1
	local mb=$(( size_mb * n * passes )) steal=$(( steal1 - steal0 ))
	echo "read_mb=$mb"
	echo "read_mbps=$(echo "$mb / ($t1 - $t0)" | bc -l)"
	echo "sys_ms_per_gb=$(echo "($s1 - $s0) / 1000 * 1024 / $mb" | bc -l)"
	echo "pgsteal=$steal"
	# memory.events and memory.peak count since the cgroup was made (one per
	# boot): the events are a difference, the peak is the boot's highest
	[ "$where" = root ] || echo "memcg_max_events=$(( $(awk '$1 == "max" {print $2}' $cg/memory.events) - max0 ))"
	[ "$where" = root ] || echo "memcg_peak_kb=$(( $(cat $cg/memory.peak 2>/dev/null || echo 0) / 1024 ))"
	# MGLRU evictions do not age the non-resident counters at all
	local batched=0
	[ "$(cat /proc/sys/vm/memcg_reclaim_batch 2>/dev/null || echo 0)" = 0 ] || batched=1
	[ "$(cat /sys/kernel/mm/lru_gen/enabled 2>/dev/null || echo 0x0000)" = 0x0000 ] || batched=1
	paste -d' ' /tmp/h0 /tmp/h1 | awk -F'[ =]' -v st="$steal" -v batched=$batched '{
		d = $4 - $2; print $1 "_hits=" d
		if ($1 == "pcu" && st > 0) printf "pcu_per_1k_steal=%.2f\n", d * 1000 / st
		if ($1 == "pct" && st > 0) printf "pct_per_1k_steal=%.2f\n", d * 1000 / st
		if ($1 == "lnc" && st > 0) printf "lnc_per_1k_steal=%.2f\n", d * 1000 / st
		if ($1 == "lnb" && st > 0) printf "lnb_per_1k_steal=%.2f\n", d * 1000 / st
		if ($1 == "wan") nonres += d
		if ($1 == "wev" && !batched) nonres += d }
		END { if (st > 0) printf "nonres_per_1k_steal=%.2f\n", nonres * 1000 / st }'
	for ((i = 0; i < n; i++)); do rm -f /mnt/xfs/f$i; done
	[ "$where" != mix ] || swapoff /dev/zram0
}
bench_teardown() { echo 0 > $T/events/kprobes/enable; umount /mnt/xfs; }
