# reclaim-storm: many tasks in direct reclaim at once.
# hackbench-gN: 'hackbench -P -g N' where N scales with MemTotal (a case's
# number is groups per 100 MiB of MemTotal, so the same case means the same
# overcommit on another guest). vm-N: stress-ng --vm, N workers, 120% of RAM.
# oom-swap / oom-noswap: three 'tail /dev/zero' at once, time until all are
# OOM-killed. Direct reclaim concurrency and latency come from the
# mm_vmscan_direct_reclaim_begin/end tracepoints.
T=/sys/kernel/tracing
ALLOW_FAIL=1 # hackbench losing a task to the OOM killer is a result (oom_kill)
bench_setup() {
	echo 16384 > $T/buffer_size_kb
	echo 0 > $T/tracing_on
	echo > $T/set_event
	echo 1 > $T/events/vmscan/mm_vmscan_direct_reclaim_begin/enable
	echo 1 > $T/events/vmscan/mm_vmscan_direct_reclaim_end/enable
	echo 30 > /proc/sys/kernel/hung_task_timeout_secs 2>/dev/null
	MEM_MB=$(( $(mem_kb MemTotal) / 1024 ))
}
bench_cases() {
	if [ "$QUICK" = 1 ]; then echo "hackbench-g4 oom-swap"
	else echo "hackbench-g2 hackbench-g4 hackbench-g6 hackbench-g8 vm-4 oom-swap oom-noswap"; fi
}
trace_start() { echo > $T/trace; echo 1 > $T/tracing_on; }
trace_stop() {
	echo 0 > $T/tracing_on
	python3 "$TOP/bench/guest/reclaim-trace.py" < $T/trace
	echo "trace_overruns=$(awk '/overrun:/{s+=$2} END{print s+0}' $T/per_cpu/cpu*/stats)"
}
oom_case() { # $1: with swap or not
	local swapdevs pids t0 t1 n=0
	swapdevs=$(awk 'NR > 1 {print $1}' /proc/swaps)
	[ "$1" = swap ] || for d in $swapdevs; do swapoff "$d"; done
	t0=$(date +%s.%N)
	for i in 1 2 3; do tail /dev/zero & pids+=" $!"; done
	for p in $pids; do wait "$p"; [ $? = 137 ] && n=$((n + 1)); done
	t1=$(date +%s.%N)
	[ "$1" = swap ] || for d in $swapdevs; do swapon "$d"; done
	echo "oom_seconds=$(echo "$t1 - $t0" | bc -l)"
	echo "killed=$n"
}
bench_run() {
	local rc=0 g
	trace_start
	case $1 in
	hackbench-g*)
		g=$(( ${1#hackbench-g} * MEM_MB / 100 ))
		echo "groups=$g"
		hackbench -P -g "$g" -l 200 -s 100 > /tmp/hb.out 2>&1; rc=$?
		sed -n 's/^Time: \([0-9.]*\)/hackbench_s=\1/p' /tmp/hb.out
		[ $rc = 0 ] || tail -n 3 /tmp/hb.out ;;
	vm-*)
		stress-ng --vm "${1#vm-}" --vm-bytes 120% --timeout 30s --metrics-brief > /tmp/sng.out 2>&1; rc=$?
		awk '/vm / && $5 ~ /^[0-9.]+$/ {print "bogo_ops=" $5; print "bogo_ops_per_s=" $9}' /tmp/sng.out | head -n 2 ;;
	oom-swap) oom_case swap ;;
	oom-noswap) oom_case noswap ;;
	esac
	trace_stop
	return $rc
}
bench_teardown() { echo 0 > $T/events/enable; }
