#!/bin/bash
# In the guest (make stress, after the toggling): OOM at scale. NTASKS tasks
# allocate without swap, three passes over their memory each, until they
# are done or OOM-killed: in the root (together 1.5x MemTotal) and inside a
# memory.max cgroup (MemTotal/4, together 1.6x it), every feature sysctl off
# against every one on (configs/feature-sysctls), interleaved, REPS times.
# Per run: seconds to the first OOM kill and to the last task's end, kills,
# and from the tracepoints, per task: its throttle waits in all
# (mm_vmscan_direct_reclaim_throttle's wait_us), the most one allocation
# waited over its rounds (alloc_wait_us), and its stall: those waits plus
# its time inside direct or memcg reclaim (*_reclaim_begin/end). Checks: the
# load reaches the OOM killer with the features off; with them on, both
# times within 1.2x of off (+5 s: TCG's noise), or only the end when on had
# no kill (fewer tasks at once can all finish); the largest stall of a task
# within 1.2x of off (+5 s): the throttle trades a task's own reclaim for a
# wait, it must not add to what the task spends in the allocator; and no
# allocation waiting longer than the throttle's bound (30 s, +5 s for TCG).
# Every run is bounded: END_LIMIT s (600) for the tasks to end, then SIGKILL
# and END_LIMIT s, then sysrq OOM kills for END_LIMIT s; tasks left fail it.
# Usage: oom-scale.sh [NTASKS] [REPS] [END_LIMIT]
n=${1:-400} reps=${2:-1} end_limit=${3:-600}
cg=/sys/fs/cgroup
bin=$TOP/build/bench-bin
T=/sys/kernel/tracing/instances/oom_scale
fails=0
ok() { echo "ok oom-scale: $*"; }
nok() { echo "not ok oom-scale: $*"; fails=$((fails + 1)); }
echo -1000 > /proc/self/oom_score_adj
mem_mb=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 ))
# Each kill would print every task (400 lines) on the serial console: under
# TCG that, not the kernel, would set the pace.
read -r dump < /proc/sys/vm/oom_dump_tasks
echo 0 > /proc/sys/vm/oom_dump_tasks
swaps=$(awk 'NR > 1 { print $1 }' /proc/swaps)
for d in $swaps; do swapoff "$d" || nok "swapoff $d"; done
[ "$(awk 'NR > 1' /proc/swaps)" = "" ] || nok "swap still on: $(awk 'NR > 1 { print $1 }' /proc/swaps)"
echo +memory > $cg/cgroup.subtree_control
# The tasks live in oom-root (no limit: global OOM) or oom (memory.max):
# cgroup.events says when the last is gone, memory.events counts the kills.
mkdir -p $cg/oom-root $cg/oom && echo $(( mem_mb / 4 ))M > $cg/oom/memory.max
mkfifo /tmp/oom-tick && exec {tick}<> /tmp/oom-tick	# read -t: a sleep without a fork
# Pids, not comms, are read below: no cmdline recorder on sched_wakeup
# (its registration patches ttwu_do_activate(), bench/guest/driver.sh).
# record-cmd is the top level's option only; a new instance inherits it.
echo 0 > /sys/kernel/tracing/options/record-cmd
mkdir -p $T && echo 16384 > $T/buffer_size_kb
ev=$T/events/vmscan/mm_vmscan_direct_reclaim_throttle
[ -d "$ev" ] && echo 1 > $ev/enable
reclaim_ev="mm_vmscan_direct_reclaim_begin mm_vmscan_direct_reclaim_end
	mm_vmscan_memcg_reclaim_begin mm_vmscan_memcg_reclaim_end"
for e in $reclaim_ev; do
	echo 'comm == "memhog"' > $T/events/vmscan/$e/filter
	echo 1 > $T/events/vmscan/$e/enable
done
# Times come from the trace clock, not from this script: under the OOM storm
# a shell's own pages are reclaimed too and it sees the first kill late.
echo 1 > $T/events/oom/mark_victim/enable
echo 'comm == "memhog"' > $T/events/sched/sched_process_exit/filter
echo 1 > $T/events/sched/sched_process_exit/enable
echo 1 > $T/tracing_on

set_features() { # 2 = the off column, 3 = the on column
	local s off on opt
	while read -r s off on opt; do
		case $s in "" | \#*) continue ;; esac
		[ ! -e "/proc/sys/${s//.//}" ] || echo "$( [ "$1" = 3 ] && echo "$on" || echo "$off")" > "/proc/sys/${s//.//}"
	done < "$TOP/configs/feature-sysctls"
}
# Builtins only in the polling loop: a fork under OOM can take seconds.
event() { # file key -> REPLY
	local k v
	REPLY=
	while read -r k v; do [ "$k" != "$2" ] || { REPLY=$v; return; }; done < "$1"
}
now() { date +%s.%N; }

run() { # where mode -> prints "first_s end_s kills wait_s alloc_s stall_s lost"
	local where=$1 mode=$2 mib target k0 t0 first end i pids=() k
	if [ "$where" = root ]; then mib=$(( mem_mb * 3 / 2 / n + 1 )) target=$cg/oom-root
	else mib=$(( mem_mb / 4 * 8 / 5 / n + 1 )) target=$cg/oom; fi
	set_features "$mode"
	# The console names the run a kernel splat came in (tap.py splats)
	echo "mm-harness: running oom-scale: $where $([ "$mode" = 2 ] && echo off || echo on) rep ${r:-0}" > /dev/kmsg 2>/dev/null
	sync; echo 3 > /proc/sys/vm/drop_caches; sleep 1
	echo > $T/trace
	local p stat
	event $target/memory.events oom_kill
	k0=$REPLY t0=$(now)
	# Every task stops itself once mapped, before its first touch (memhog
	# -S); all start together.
	for ((i = 0; i < n; i++)); do
		( echo 0 > /proc/self/oom_score_adj; echo $BASHPID > $target/cgroup.procs
		  exec "$bin/memhog" -S -m $mib -p 3 > /dev/null 2>&1 ) &
		pids+=($!)
	done
	for p in "${pids[@]}"; do
		until read -r -a stat < /proc/$p/stat && [ "${stat[2]}" = T ]; do sleep 0.1; done
	done
	echo "oom-scale: $n tasks of $mib MiB stopped at the start line after $(echo "$(now) - $t0" | bc)s;" \
		"MemAvailable $(awk '/MemAvailable/ { print int($2 / 1024) }' /proc/meminfo) MB, swap $(awk 'NR > 1 { s += $3 } END { print s + 0 }' /proc/swaps) kB used" >&2
	echo oom-scale-start > $T/trace_marker
	kill -CONT "${pids[@]}"
	# Bounded: END_LIMIT s for the tasks to end by themselves, then SIGKILL
	# (END_LIMIT s more), then one sysrq OOM kill a second (END_LIMIT s);
	# tasks still there are a livelock, reported, never waited for.
	local phase=end sysrq=0
	SECONDS=0
	while event $target/cgroup.events populated && [ "$REPLY" = 1 ]; do
		if [ $SECONDS -ge "$end_limit" ]; then
			case $phase in
			end) phase=kill; kill -KILL "${pids[@]}" 2> /dev/null ;;
			kill) phase=sysrq ;;
			sysrq) phase=left; break ;;
			esac
			SECONDS=0
		fi
		[ $phase != sysrq ] || { echo f > /proc/sysrq-trigger; sysrq=$((sysrq + 1)); }
		read -r -t $([ $phase = sysrq ] && echo 1 || echo 0.5) -u $tick _
	done
	if [ $phase = left ]; then
		echo "oom-scale: $where: $(cat $target/cgroup.procs | wc -l) tasks left after SIGKILL and $sysrq sysrq OOM kills" >&2
	else
		wait
	fi
	[ $phase = end ] || echo "oom-scale: $where: tasks not done ${end_limit}s after the start: $phase" >&2
	local end waits lost
	# seconds from the start marker to the first mark_victim and to the last
	# hog's exit, by the trace clock
	read -r first end <<< "$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = $i + 0; break } }
		/oom-scale-start/ { t0 = t } / mark_victim:/ && !f { f = t } / sched_process_exit:/ { e = t }
		END { printf "%.2f %.2f", (f ? f - t0 : 0), e - t0 }' $T/trace)"
	event $target/memory.events oom_kill
	k=$(( REPLY - k0 ))
	# per task (the pid after the comm): the throttle's waits summed, the
	# longest wait of one allocation, and waits plus time inside reclaim
	waits=$(awk '{ split($1, a, "-"); pid = a[length(a)]
			for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = $i + 0; break } }
		/_reclaim_begin:/ { b[pid] = t }
		/_reclaim_end:/ && (pid in b) { s[pid] += t - b[pid]; delete b[pid] }
		/mm_vmscan_direct_reclaim_throttle:/ { for (i = 1; i <= NF; i++) {
			if ($i ~ /^wait_us=/) { sub(/wait_us=/, "", $i); w[pid] += $i / 1e6; s[pid] += $i / 1e6 }
			if ($i ~ /^alloc_wait_us=/) { sub(/alloc_wait_us=/, "", $i); if ($i / 1e6 > al) al = $i / 1e6 } } }
		END { for (p in w) if (w[p] > mw) mw = w[p]; for (p in s) if (s[p] > ms) ms = s[p]
			printf "%.2f %.2f %.2f", mw, al, ms }' $T/trace)
	# events the ring buffer dropped: the sums above would be short
	lost=$(cat $T/per_cpu/cpu*/stats 2>/dev/null | awk '/^overrun:/ { n += $2 } END { print n + 0 }')
	echo "${first:-0} $end $k $waits $lost $phase"
}

for where in root memcg; do
	: > /tmp/oom-$where
	for ((r = 0; r < reps; r++)); do
		for mode in 2 3; do
			read -r first end k w al st lost phase <<< "$(run $where $mode)"
			label=$([ $mode = 2 ] && echo off || echo on)
			[ "$phase" = end ] || nok "$where $label rep $r: tasks not done within ${end_limit}s ($phase)"
			echo "oom-scale: $where $label rep $r: first kill ${first}s, end ${end}s, $k kills;" \
				"a task's most: throttle waits ${w}s, stall (waits + reclaim) ${st}s;" \
				"longest wait of one allocation ${al}s; trace events lost $lost"
			echo "$label $first $end $k $al $st $lost" >> /tmp/oom-$where
		done
	done
	read -r foff fon eoff eon koff kon amax soff son lost <<< "$(awk '{ f[$1] += $2; e[$1] += $3; k[$1] += $4; if ($5 > a) a = $5
			s[$1] += $6; l += $7; c[$1]++ }
		END { printf "%.1f %.1f %.1f %.1f %.1f %.1f %.2f %.1f %.1f %d", f["off"] / c["off"], f["on"] / c["on"], e["off"] / c["off"],
			e["on"] / c["on"], k["off"] / c["off"], k["on"] / c["on"], a, s["off"] / c["off"], s["on"] / c["on"], l }' /tmp/oom-$where)"
	msg="$where, $n tasks, mean of $reps: first kill ${foff}s off / ${fon}s on, end ${eoff}s / ${eon}s, kills $koff / $kon"
	# The load must reach the OOM killer with the features off; with them
	# on, fewer tasks allocating at once may all finish without a kill,
	# and then only the end is compared.
	if awk -v a="$fon" -v b="$foff" -v c="$eon" -v d="$eoff" -v k="$kon" -v ko="$koff" \
		'BEGIN { exit !(ko > 0 && (k == 0 || a <= 1.2 * b + 5) && c <= 1.2 * d + 5) }'; then
		ok "$msg (on within 1.2x of off, +5 s$( [ "$kon" != 0.0 ] || echo '; no OOM kill with the features on'))"
	else nok "$msg (on not within 1.2x of off, +5 s, or no kill with the features off)"; fi
	msg="$where: the largest stall of a task (throttle waits + reclaim) ${soff}s off / ${son}s on"
	if [ "$lost" != 0 ]; then echo "ok oom-scale: $msg # SKIP the trace lost $lost events"
	elif awk -v a="$son" -v b="$soff" 'BEGIN { exit !(a <= 1.2 * b + 5) }'; then ok "$msg (on within 1.2x of off, +5 s)"
	else nok "$msg (on not within 1.2x of off, +5 s)"; fi
	awk -v a="$amax" 'BEGIN { exit !(a <= 35) }' && ok "$where: no allocation waited over 30 s in the throttle (+5 s; longest ${amax}s)" ||
		nok "$where: an allocation waited ${amax}s in the throttle (bound 30 s, +5 s)"
done
set_features 2
echo 0 > $T/tracing_on
echo 0 > $T/events/oom/mark_victim/enable
echo 0 > $T/events/sched/sched_process_exit/enable
[ ! -d "$ev" ] || echo 0 > $ev/enable
for e in $reclaim_ev; do echo 0 > $T/events/vmscan/$e/enable; done
rmdir $T $cg/oom $cg/oom-root 2>/dev/null
for d in $swaps; do swapon "$d"; done
echo "$dump" > /proc/sys/vm/oom_dump_tasks
echo "oom-scale: $fails failed"
exit $(( fails > 0 ))
