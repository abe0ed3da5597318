#!/bin/bash
# In the guest: run one benchmark's cases x repetitions x variants,
# interleaved (for each case, for each repetition, every variant in turn,
# the order reversed every other repetition: AB BA AB..., so drift and the
# position within a round hit all variants alike). Writes one JSON object per run
# to /run/results/raw.jsonl.
#   driver.sh NAME       settings in /run/results/.bench: REPS QUICK VARIANTS
set -u
name=$1
. /run/results/.bench
B=$TOP/bench
export BIN=$TOP/build/bench-bin QUICK
. "$B/guest/lib.sh"
. "$B/$name/workload.sh"
cd /tmp || exit 1 # workloads (stress-ng) want a writable working directory

# The driver must outlive OOM kills; the workload gets the default score.
echo -1000 > /proc/self/oom_score_adj
failed=0
# CASES (from 'make bench CASES=...') overrides the workload's case list,
# before the setup, which prepares only what the cases need.
[ -z "${CASES:-}" ] || bench_cases() { echo "$CASES"; }
# No comm recording: enabling the first trace event (or kprobe event) with
# the record-cmd option on (the default) also registers the tracer's probe
# on sched_switch and sched_wakeup (kernel/trace/trace_events.c,
# trace_sched_switch.c), which patches trace_sched_wakeup() inside
# ttwu_do_activate(), the hottest site there is, while interrupts wake
# tasks on the other vCPUs. A CI run's dirty-zones smoke benchmark died of
# that (multi-threaded TCG's int3 fault, docs/booting.md). The parsers read
# the pid, not the comm ("<...>-pid" without it).
# Instances the setup creates inherit the option (trace_array_create()).
rc_opt=/sys/kernel/tracing/options/record-cmd
[ ! -w $rc_opt ] || echo 0 > $rc_opt
bench_setup || { echo "setup of $name failed"; exit 1; }
echo "# cases: $(bench_cases); variants: $VARIANTS; reps: $REPS; warm-up: ${WARMUP:-0}; quick: $QUICK"
setup_run() { # variant: apply it, then sync, drop caches, empty swap, compact
	apply_variant "$1" || { echo "cannot apply variant $1"; exit 1; }
	prepare_run
}
workload() { # case, with the default OOM score (the driver is exempt)
	(echo 0 > /proc/self/oom_score_adj; bench_run "$1")
}
for c in $(bench_cases); do
	# Untimed, unrecorded runs first (the spec's WARMUP_FULL): in
	# swap-thrash the first run of a case took up to 1.9x the next ones,
	# which the first variant, always first, would pay alone.
	for ((w = 1; w <= ${WARMUP:-0}; w++)); do
		setup_run "${VARIANTS%% *}"
		t0=$(date +%s)
		workload "$c" > /tmp/warmup.out 2>&1
		rc=$?
		printf '%-14s %-22s warm-up %d: status %d, %d s, not recorded\n' "$c" "${VARIANTS%% *}" "$w" "$rc" $(( $(date +%s) - t0 ))
	done
	for ((rep = 1; rep <= REPS; rep++)); do
		# Even repetitions run the variants in reverse order, so that
		# the position within a round costs every variant alike
		order=$VARIANTS
		if [ $((rep % 2)) = 0 ]; then
			order=
			for v in $VARIANTS; do order="$v $order"; done
		fi
		for v in $order; do
			setup_run "$v"
			m=/tmp/metrics.$$
			snap_before
			t0=$(date +%s.%N)
			workload "$c" > "$m.out" 2>&1
			rc=$?
			t1=$(date +%s.%N)
			snap_after
			{
				grep -E '^[A-Za-z_0-9]+=[-0-9.e]+$' "$m.out"
				echo "elapsed_s=$(echo "$t1 - $t0" | bc -l)"
				echo "exit_status=$rc"
				snap_delta
			} > "$m.kv"
			python3 "$B/guest/tojson.py" "$name" "$c" "$v" "$rep" "${HEADLINE:-}" < "$m.kv" >> /run/results/raw.jsonl
			printf '%-14s %-22s rep %d: %s\n' "$c" "$v" "$rep" \
				"$(grep -E "^(${HEADLINE// /|})=" "$m.kv" | tr '\n' ' ')"
			tail -n 5 "$m.out" | sed 's/^/    | /' > /run/results/last-output.txt
			if [ "$rc" != 0 ]; then
				echo "    run ended with status $rc:"; cat /run/results/last-output.txt
				# A workload that may legitimately die (OOM kills under
				# pressure are a result) sets ALLOW_FAIL=1.
				[ "${ALLOW_FAIL:-0}" = 1 ] || failed=$((failed + 1))
			fi
		done
	done
done
bench_teardown
[ "$failed" = 0 ] || { echo "$failed run(s) failed"; exit 1; }
