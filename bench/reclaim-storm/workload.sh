# reclaim-storm: many tasks in direct reclaim at once.
# storm-gN: 'hackbench -P -g N -l 100' (QUICK: -l 30) (N groups of 40 processes) while an
# anonymous hog keeps 1.1x MemTotal hot (2x memhog), so
# every allocation hackbench makes (fork, socket buffers) has to reclaim.
# On x86_64 with 4K pages hackbench alone barely uses memory (1200 tasks:
# ~25 MB), unlike the seed's ia64 with 16K pages; the hog supplies the
# overcommit. N scales with the CPU count (N per vCPU / 2).
# vm-N: stress-ng --vm, N workers, 120% of RAM.
# oom-swap / oom-noswap / oom-memcg: three 'tail /dev/zero' at once (in a
# cgroup with memory.max = RAM/4 for oom-memcg), time until all are
# OOM-killed (bounded: OOM_LIMIT seconds, then oom_timeout=1).
# oom-crowd: OOM_TASKS (400) tasks sharing 1.5x RAM without swap, keeping
# their memory hot, all released at once (oom-crowd-memcg: in a cgroup
# with memory.max = RAM/2, sharing 1.5x that): seconds to the first OOM kill
# (oom_first_s, from oom:mark_victim in the trace); OOM_HOLD (10) s after
# it every survivor gets SIGTERM: seconds until the last is gone
# (oom_exit_s; one still there OOM_EXIT_LIMIT (120) s later gets SIGKILL:
# oom_exit_timeout=1, oom_exit_sigkilled, the time counted on; then sysrq
# OOM kills, oom_exit_sysrq, and oom_livelock = tasks left); kills (oom_kill); the throttle's longest wait of one
# allocation (alloc_wait_max_us) and the largest time one task spent in
# the allocator, waits plus reclaim (task_stall_max_s); of the survivors
# at SIGTERM, the longest time runnable without a CPU (run_delay_max_s)
# and that of the task with the longest allocation wait, if it survived
# (alloc_wait_max_run_delay_s).
# Direct reclaim concurrency and latency come from the
# mm_vmscan_direct_reclaim_begin/end tracepoints; with feature 1 in the
# kernel, mm_vmscan_direct_reclaim_throttle adds each task's wait to its
# reclaim (stall_*: what the allocation lost, waiting included), and
# mm_vmscan_direct_reclaim_throttle_look whether a waiter told to look at
# the freelists found a page, on the waker's CPU or another (look_*).
# oom:reclaim_retry_zone gives should_reclaim_retry()'s decisions
# (retry_rounds, retry_progress_rounds, retry_loops_max) and the end
# events the pages direct reclaim freed (dr_reclaimed).
T=/sys/kernel/tracing
ALLOW_FAIL=1 # hackbench losing a task to the OOM killer is a result (oom_kill)
bench_setup() {
	echo 16384 > $T/buffer_size_kb
	echo 0 > $T/tracing_on
	echo > $T/set_event
	echo 1 > $T/events/vmscan/mm_vmscan_direct_reclaim_begin/enable
	echo 1 > $T/events/vmscan/mm_vmscan_direct_reclaim_end/enable
	# Enabled once, here, while the guest is quiet (see docs/booting.md: TCG int3)
	if [ -e $T/events/vmscan/mm_vmscan_direct_reclaim_throttle/enable ]; then
		echo 1 > $T/events/vmscan/mm_vmscan_direct_reclaim_throttle/enable
	fi
	if [ -e $T/events/vmscan/mm_vmscan_direct_reclaim_throttle_look/enable ]; then
		echo 1 > $T/events/vmscan/mm_vmscan_direct_reclaim_throttle_look/enable
	fi
	[ ! -e $T/events/oom/mark_victim/enable ] || echo 1 > $T/events/oom/mark_victim/enable
	# should_reclaim_retry()'s decisions: why an allocation went on
	# reclaiming or gave up (no_progress_loops), off and on alike.
	echo 1 > $T/events/oom/reclaim_retry_zone/enable
	echo 30 > /proc/sys/kernel/hung_task_timeout_secs 2>/dev/null
	MEM_MB=$(( $(mem_kb MemTotal) / 1024 ))
}
bench_cases() {
	# The smoke run checks the machinery, not the pathology: a small crowd.
	if [ "$QUICK" = 1 ]; then echo "storm-g4"
	else echo "storm-g10 storm-g20 storm-g40 oom-noswap"; fi
}
trace_start() { echo > $T/trace; echo 1 > $T/tracing_on; }
trace_stop() {
	echo 0 > $T/tracing_on
	python3 "$TOP/bench/guest/reclaim-trace.py" /tmp/oom-schedstat < $T/trace
	rm -f /tmp/oom-schedstat
	echo "trace_overruns=$(awk '/overrun:/{s+=$2} END{print s+0}' $T/per_cpu/cpu*/stats)"
}
oom_case() { # $1: swap, noswap, or memcg (memory.max = RAM/4, swap on)
	local swapdevs pids t0 t1 n=0 cg=/sys/fs/cgroup/bench-oom
	swapdevs=$(awk 'NR > 1 {print $1}' /proc/swaps)
	[ "$1" != noswap ] || for d in $swapdevs; do swapoff "$d"; done
	if [ "$1" = memcg ]; then
		echo +memory > /sys/fs/cgroup/cgroup.subtree_control
		mkdir -p $cg && echo $((MEM_MB / 4))M > $cg/memory.max
	fi
	t0=$(date +%s.%N)
	for i in 1 2 3; do
		if [ "$1" = memcg ]; then
			timeout -s KILL "${OOM_LIMIT:-300}" sh -c "echo \$\$ > $cg/cgroup.procs; exec tail /dev/zero" &
		else
			timeout -s KILL "${OOM_LIMIT:-300}" tail /dev/zero &
		fi
		pids+=" $!"
	done
	for p in $pids; do wait "$p"; [ $? = 137 ] && n=$((n + 1)); done
	t1=$(date +%s.%N)
	# A tail killed by timeout also ends with 137: tell them apart.
	echo "oom_timeout=$(echo "$t1 - $t0 >= ${OOM_LIMIT:-300}" | bc)"
	[ "$1" != noswap ] || for d in $swapdevs; do swapon "$d"; done
	[ "$1" != memcg ] || rmdir $cg
	echo "oom_seconds=$(echo "$t1 - $t0" | bc -l)"
	echo "killed=$n"
}
oom_crowd() { # $1: root, or memcg (memory.max = RAM/2)
	local swapdevs n=${OOM_TASKS:-400} mib p i pids=() stat first
	local cg=/sys/fs/cgroup/bench-crowd join=/dev/null limit=$MEM_MB
	rm -f /tmp/oom-schedstat
	swapdevs=$(awk 'NR > 1 {print $1}' /proc/swaps)
	for d in $swapdevs; do swapoff "$d"; done
	if [ "$1" = memcg ]; then
		limit=$((MEM_MB / 2))
		echo +memory > /sys/fs/cgroup/cgroup.subtree_control
		mkdir -p $cg && echo ${limit}M > $cg/memory.max
		join=$cg/cgroup.procs
		echo "oom_memcg_max_mib=$limit"
	fi
	mib=$(( limit * 3 / 2 / n + 1 ))
	# This shell (bench_run's subshell) is larger than a task of 2 MiB:
	# the OOM killer must not pick it. Each task maps its memory and
	# stops itself before the first touch; all start together (forking
	# 400 under TCG takes longer than the storm) and keep their memory
	# hot until killed.
	echo -1000 > /proc/self/oom_score_adj
	for ((i = 0; i < n; i++)); do
		( echo 0 > /proc/self/oom_score_adj; echo "$BASHPID" > $join
		  exec "$BIN/memhog" -S -m $mib -d 3600 > /dev/null 2>&1 ) &
		pids+=($!)
	done
	for p in "${pids[@]}"; do
		until read -r -a stat < /proc/$p/stat 2>/dev/null && [ "${stat[2]}" = T ]; do
			[ -e /proc/$p ] || break
			sleep 0.1
		done
	done
	echo "oom_tasks=$n"
	echo "oom_task_mib=$mib"
	# Each kill would list every task (400 lines) on the serial console:
	# under TCG that, not the kernel, would set the pace.
	local dump
	read -r dump < /proc/sys/vm/oom_dump_tasks
	echo 0 > /proc/sys/vm/oom_dump_tasks
	# The timed part runs in oomcrowd, which locks itself in memory: a
	# shell under this pressure waits on its own page-ins (and forks take
	# seconds). It releases the tasks, waits for the first kill, holds,
	# records run_delay, sends SIGTERM and waits for the last exit; a
	# survivor still there OOM_EXIT_LIMIT s later gets SIGKILL (a service
	# manager's stop), then sysrq OOM kills: a livelock ends the run as a
	# result (oom_exit_timeout, oom_livelock), not as a hang.
	"$BIN/oomcrowd" -l "${OOM_LIMIT:-300}" -H "${OOM_HOLD:-10}" -t "${OOM_EXIT_LIMIT:-120}" \
		-s /tmp/oom-schedstat -m $T/trace_marker "${pids[@]}"
	# (if oomcrowd failed, stopped tasks must not be left for 'wait')
	kill -KILL "${pids[@]}" 2> /dev/null
	wait "${pids[@]}" 2> /dev/null
	for d in $swapdevs; do swapon "$d"; done
	echo "$dump" > /proc/sys/vm/oom_dump_tasks
	[ "$1" != memcg ] || rmdir $cg
	# the first mark_victim after the start marker, by the trace clock
	first=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = $i + 0; break } }
		/oom-crowd-start/ { t0 = t } / mark_victim:/ && t0 && !f { f = t }
		END { if (f) printf "%.2f", f - t0 }' $T/trace)
	[ -z "$first" ] || echo "oom_first_s=$first"
}
bench_run() {
	local rc=0 g
	trace_start
	case $1 in
	storm-g*)
		g=$(( ${1#storm-g} * $(nproc) / 2 ))
		echo "groups=$g"
		rm -f /tmp/hog1 /tmp/hog2
		"$BIN/memhog" -m $(( MEM_MB * 55 / 100 )) -r /tmp/hog1 > /dev/null & local hog1=$!
		"$BIN/memhog" -m $(( MEM_MB * 55 / 100 )) -r /tmp/hog2 > /dev/null & local hog2=$!
		# Start the crowd once the hogs own all of memory (bounded wait).
		local w=0
		while [ ! -e /tmp/hog1 ] || [ ! -e /tmp/hog2 ]; do
			sleep 1; w=$((w + 1)); [ $w -lt 300 ] || break
		done
		echo "hog_ready_s=$w"
		hackbench -P -g "$g" -l "$([ "$QUICK" = 1 ] && echo 30 || echo 100)" > /tmp/hb.out 2>&1; rc=$?
		kill $hog1 $hog2; wait $hog1 $hog2 2>/dev/null
		sed -n 's/^Time: \([0-9.]*\)/hackbench_s=\1/p' /tmp/hb.out
		[ $rc = 0 ] || tail -n 3 /tmp/hb.out ;;
	vm-*)
		stress-ng --vm "${1#vm-}" --vm-bytes 120% --timeout 30s --metrics-brief > /tmp/sng.out 2>&1; rc=$?
		awk '/vm / && $5 ~ /^[0-9.]+$/ {print "bogo_ops=" $5; print "bogo_ops_per_s=" $9}' /tmp/sng.out | head -n 2 ;;
	oom-swap) oom_case swap ;;
	oom-noswap) oom_case noswap ;;
	oom-memcg) oom_case memcg ;;
	oom-crowd) oom_crowd root ;;
	oom-crowd-memcg) oom_crowd memcg ;;
	esac
	trace_stop
	return $rc
}
bench_teardown() { echo 0 > $T/events/enable; }
