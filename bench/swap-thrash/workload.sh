# swap-thrash: qs-<factor>x-<swap>: 3 qsbench processes whose total working
# set is <factor> x MemTotal, swap on the throttled disk or on zram (same
# size). On zram the values keep 4 bits (qsbench -b 4): random 32-bit data
# do not compress, and zram then needs a page of RAM for every page it
# takes. 2x RAM on zram OOM-killed two of three sorters on the base with
# 32-bit values, and one with 8 or 4 bits (zram's peak 200 MB of the 230 MB
# guest), so the zram case is 1.5x (peak 164 MB with 4 bits, no OOM kill).
# majfault-1p-zram, majfault-4p-zram: the cost of a major fault (swap-in
# from zram after MADV_PAGEOUT), one process (the holder's path) and four
# (the contenders' path); not in the default set: CASES=majfault-1p-zram ...
# qsnice-1.5x-disk: two sorters at nice 0 and two at nice 10, 1.5x RAM
# together (the 2006 token's point: the more important task wins it).
# kbuild: 'make -j2' of two of mm/'s largest objects of an allnoconfig
# kernel from the read-only source, objects on a scratch ext4 disk, inside
# a memory.max cgroup of 1/2 of MemTotal (configured and prepared on the
# host, untimed). Each cc1 peaks at ~110 MB, so the two overcommit the
# cgroup ~1.8x, as kbuild-global's four overcommit the guest ~2x. The
# first form (all of mm/, -j4, 1/4 of MemTotal) had compiled about a fifth
# of mm/'s 51 objects after 15 minutes on the base: an hour a run.
# kbuild-global: Zijlstra's test of the 2.6.20 token (make -j5 at mem=64M):
# four of mm/'s largest objects compiled at once in the root cgroup, so the
# pressure is global (the token is not honoured in memcg reclaim) and the
# compilers contend for it. Per-process elapsed times give the fairness spread.
bench_setup() {
	MEM_MB=$(( $(mem_kb MemTotal) / 1024 ))
	DISKSWAP=$(awk 'NR > 1 {print $1}' /proc/swaps | head -n 1)
	echo "$(awk 'NR > 1 {print $3 * 1024}' /proc/swaps | head -n 1)" > /sys/block/zram0/disksize 2>/dev/null &&
		mkswap /dev/zram0 > /dev/null
	mkfs.ext4 -q /dev/disk/scratch && mkdir -p /mnt/scratch && mount /dev/disk/scratch /mnt/scratch
	mkdir -p /sys/fs/cgroup/kbuild
	echo "+memory" > /sys/fs/cgroup/cgroup.subtree_control
	echo $(( MEM_MB / 2 ))M > /sys/fs/cgroup/kbuild/memory.max
	case " $(bench_cases) " in *" kbuild "* | *" kbuild-global "*)
		# Configured and prepared on the host by the spec's host_setup
		# (build/bench-kb), outside the timed runs.
		cp -a "$TOP/build/bench-kb" /mnt/scratch/kb && touch /mnt/scratch/kb/.prepared ;;
	esac
}
# Faults that took the token's lock (debugfs; 0 without the feature)
st_locked() { awk '$1 == "locked" { print $2; f = 1 } END { if (!f) print 0 }' /sys/kernel/debug/swap_token 2>/dev/null || echo 0; }
KB_GLOBAL_OBJS="memory page_alloc vmscan filemap"
KB_MEMCG_OBJS="page_alloc vmscan"
kb_make() { # jobs, mm/ objects: compile them afresh
	local jobs=$1 rc; shift
	[ -f /mnt/scratch/kb/.prepared ] || return 1
	rm -f $(printf '/mnt/scratch/kb/mm/%s.o ' "$@")
	make -s -C "$TOP/build/linux" O=/mnt/scratch/kb -j"$jobs" \
		$(printf 'mm/%s.o ' "$@") > /tmp/kb.out 2>&1; rc=$?
	tail -n 5 /tmp/kb.out
	return $rc
}
bench_cases() {
	if [ "$QUICK" = 1 ]; then echo "qs-1.1x-disk"
	else echo "qs-1.2x-disk qs-1.5x-disk qs-2x-disk qs-1.5x-zram qsnice-1.5x-disk kbuild kbuild-global"; fi
}
use_swap() {
	swapoff -a
	if [ "$1" = zram ]; then swapon /dev/zram0; else swapon "$DISKSWAP"; fi
}
bench_run() {
	local rc locked
	locked=$(st_locked)
	bench_run_case "$@"; rc=$?
	echo "swap_token_locked=$(( $(st_locked) - locked ))"
	return $rc
}
bench_run_case() {
	local f mib rc swap=${1##*-}
	case $1 in
	qs-*)
		f=${1#qs-}; f=${f%%x-*}
		use_swap "$swap"
		mib=$(echo "$f * $MEM_MB / 3" | bc)
		echo "mib_per_proc=$mib"
		[ "$swap" != zram ] || echo 0 > /sys/block/zram0/mem_used_max
		"$BIN/qsbench" -p 3 -m "$mib" -s 1 $([ "$swap" = zram ] && echo -b 4) > /tmp/qs.out 2>&1; rc=$?
		# zram's peak footprint in RAM (mm_stat field 5, bytes)
		[ "$swap" != zram ] || awk '{ printf "zram_used_max_mib=%.1f\n", $5 / 1048576 }' /sys/block/zram0/mm_stat
		use_swap disk
		# qs_ prefix: qsbench's elapsed_s is not the run's elapsed_s.
		sed -n 's/^result //p' /tmp/qs.out | tr ' ' '\n' | grep -v '^procs=' | sed 's/^/qs_/'
		grep -E 'killed|exit=' /tmp/qs.out
		return $rc ;;
	majfault-*)
		# majfault-<procs>p-zram: the fault path's cost, 32 MB a process
		local procs=${1#majfault-}; procs=${procs%%p-*}
		use_swap zram
		"$BIN/majfault" -p "$procs" -m 32 -r 5 > /tmp/mf.out 2>&1; rc=$?
		use_swap disk
		sed -n 's/^result //p' /tmp/mf.out | tr ' ' '\n' | grep -v '^procs=' | sed 's/^/mf_/'
		return $rc ;;
	qsnice-*)
		# Two groups of two sorters, at nice 0 and nice 10, 1.5x RAM
		# together: does the important group finish sooner?
		f=${1#qsnice-}; f=${f%%x-*}
		use_swap "$swap"
		mib=$(echo "$f * $MEM_MB / 4" | bc)
		echo "mib_per_proc=$mib"
		local hi lo
		# Three sorts each (-l 3), so that the groups overlap: with one,
		# some runs of 20261204-115801 never thrashed (pswpin 56-130k).
		"$BIN/qsbench" -p 2 -m "$mib" -s 1 -l 3 > /tmp/qs-hi.out 2>&1 & hi=$!
		nice -n 10 "$BIN/qsbench" -p 2 -m "$mib" -s 2 -l 3 > /tmp/qs-lo.out 2>&1 & lo=$!
		wait $hi; rc=$?
		wait $lo || rc=$?
		use_swap disk
		sed -n 's/^result //p' /tmp/qs-hi.out | tr ' ' '\n' | grep -v '^procs=' | sed 's/^/hi_qs_/'
		sed -n 's/^result //p' /tmp/qs-lo.out | tr ' ' '\n' | grep -v '^procs=' | sed 's/^/lo_qs_/'
		grep -hE 'killed|exit=' /tmp/qs-hi.out /tmp/qs-lo.out
		return $rc ;;
	kbuild)
		cp /sys/fs/cgroup/kbuild/memory.events /tmp/kb.events
		echo $BASHPID > /sys/fs/cgroup/kbuild/cgroup.procs
		kb_make 2 $KB_MEMCG_OBJS; rc=$?
		echo $BASHPID > /sys/fs/cgroup/cgroup.procs
		# memory.events counts since the cgroup was made: this run's share
		awk 'NR == FNR { n[$1] = $2; next } { print "kbuild_" $1 "=" $2 - n[$1] }' \
			/tmp/kb.events /sys/fs/cgroup/kbuild/memory.events
		return $rc ;;
	kbuild-global) kb_make 4 $KB_GLOBAL_OBJS ;;
	esac
}
