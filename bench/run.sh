#!/usr/bin/env bash
# make bench [B=name] [QUICK=1] [REPS=n] [CASES='a b'] [VARIANTS_OVERRIDE='a b'] [KERNEL=base]
# One guest boot per benchmark; inside it, cases x repetitions x variants,
# interleaved. Results: build/bench-runs/<bench>/<run-id>/ (raw.jsonl,
# env.txt, table.md, PNG plots, output.log, console.log); QUICK=1 runs go to
# build/bench-quick/. A run becomes evidence in results/ only when promoted:
# make promote RUN=build/bench-runs/<bench>/<run-id> (harness/promote.sh).
. "$(dirname "$0")/../harness/common.sh"

names=${B:-$(cd "$TOP/bench" && ls */spec | cut -d/ -f1)}
make -s -C "$TOP/bench/src" O="$BUILD/bench-bin" >&2 || die "bench programs do not build"
if [ "${KERNEL:-}" = base ]; then
	export OBJ=$BUILD/base/obj KERNEL=$BUILD/base/obj/arch/x86/boot/bzImage
	[ -f "$KERNEL" ] || die "no base kernel; run 'harness/baseline.sh --build-only' (or 'make baseline') first"
	kname=base
else
	kname=patched
fi
# The guest's shape as the user set it (make bench CPUS=8): it wins over the
# spec's, and the run says so; SWAP=0 turns a spec's swap off.
user_guest=()
for v in CPUS MEM NUMA SWAP SWAP_BPS DISKS APPEND PREALLOC; do
	[ -z "${!v:-}" ] || user_guest+=("$v=${!v}")
done
rc=0
for name in $names; do
	spec=$TOP/bench/$name/spec
	[ -f "$spec" ] || die "no benchmark '$name' (bench/*/spec)"
	(
		# spec sets: DESC CPUS MEM NUMA SWAP SWAP_BPS DISKS APPEND PREALLOC VARIANTS REPS_FULL
		# REPS_QUICK TIMEOUT_FULL TIMEOUT_QUICK HEADLINE, optionally
		# VARIANTS_QUICK and MEM_QUICK (the smoke run's: it checks that the
		# benchmark works, in about a minute), VARIANTS_BASE (KERNEL=base's)
		# and a host_setup function; WARMUP_FULL: untimed runs of each case
		# before its repetitions (full runs only)
		. "$spec"
		for kv in "${user_guest[@]}"; do
			v=${kv%%=*}
			[ "${!v:-}" = "${kv#*=}" ] || say "$name: $kv (yours; the spec says ${v}=${!v:-})"
			declare "$kv"
		done
		q=${QUICK:-0}
		if [ "$q" = 1 ]; then
			reps=${REPS:-$REPS_QUICK} tmo=$TIMEOUT_QUICK warmup=${WARMUP:-0}
		else
			reps=${REPS:-$REPS_FULL} tmo=$TIMEOUT_FULL warmup=${WARMUP:-${WARMUP_FULL:-0}}
			# more repetitions than the spec's: a proportionally longer timeout
			[ "$reps" -le "$REPS_FULL" ] || tmo=$(( TIMEOUT_FULL * reps / REPS_FULL ))
		fi
		variants=$VARIANTS
		[ "$q" != 1 ] || case " ${user_guest[*]} " in *" MEM="*) ;; *) MEM=${MEM_QUICK:-$MEM} ;; esac
		[ "$q" != 1 ] || variants=${VARIANTS_QUICK:-$variants}
		[ "$kname" != base ] || variants=${VARIANTS_BASE:-$variants}
		variants=${VARIANTS_OVERRIDE:-$variants}
		id=$(date -u +%Y%m%d-%H%M%S)-$kname
		if [ "$q" = 1 ]; then out=$BUILD/bench-quick/$name/$id; else out=$BUILD/bench-runs/$name/$id; fi
		mkdir -p "$out"
		printf 'REPS=%q\nWARMUP=%q\nQUICK=%q\nVARIANTS=%q\nHEADLINE=%q\nCASES=%q\n' "$reps" "$warmup" "$q" "$variants" "$HEADLINE" "${CASES:-}" > "$out/.bench"
		# the workloads' own knobs, when set (reclaim-storm's oom-crowd)
		knobs=
		for k in OOM_TASKS OOM_LIMIT OOM_HOLD OOM_EXIT_LIMIT; do
			[ -z "${!k:-}" ] || [[ ${!k} =~ ^[0-9]+$ ]] || die "$k must be a whole number of tasks or seconds"
			[ -z "${!k:-}" ] || knobs+="$k=${!k} "
		done
		[ -z "$knobs" ] || printf '%s\n' $knobs >> "$out/.bench"
		say "$name: $DESC"
		say "$name: variants '$variants', $reps repetition(s), quick=$q -> ${out#"$TOP"/}"
		# Optional host_setup() in the spec: preparation done natively
		# on the host, where it takes seconds instead of TCG minutes
		if declare -F host_setup > /dev/null; then host_setup || die "$name: host_setup failed"; fi
		load0=$(cut -d' ' -f1-3 /proc/loadavg)
		set +e
		RESULTS=$out CPUS=$CPUS MEM=$MEM NUMA=${NUMA:-0} SWAP=${SWAP:-} SWAP_BPS=${SWAP_BPS:-} \
			DISKS=${DISKS:-} APPEND=${APPEND:-} PREALLOC=${PREALLOC:-0} TIMEOUT=$tmo QUIET=0 \
			CMD="$TOP/bench/guest/driver.sh $name" "$TOP/harness/boot.sh"
		brc=$?
		set -e
		{
			echo "benchmark: $name ($DESC)"
			echo "kernel ($kname): $(grep -m1 '^kernel:' "$out/console.log" | tr -d '\r' | sed 's/^kernel: //')"
			grep -m1 '^accel:' "$out/console.log" | tr -d '\r'
			grep -m1 '^lru_gen:' "$out/console.log" | tr -d '\r'
			grep -m1 '^feature sysctls:' "$out/console.log" | tr -d '\r'
			echo "guest: cpus=$CPUS mem=$MEM numa=${NUMA:-0} swap=${SWAP:-none} swap_bps=${SWAP_BPS:-unthrottled} disks=${DISKS:-none} append=${APPEND:-} prealloc=${PREALLOC:-0}"
			echo "repetitions: $reps, interleaved over variants: $variants; untimed warm-up runs per case: $warmup"
			[ -z "$knobs" ] || echo "workload settings: $knobs"
			echo "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(date -u +%Y-%m-%d)"
			echo "host load average: $load0 at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end"
			echo "series: $(series_files | wc -l) patches ($(series_sum | cut -c1-12)); harness $(git -C "$TOP" rev-parse --short HEAD 2>/dev/null || echo '?')"
		} > "$out/env.txt"
		rm -rf "$out/.guest" "$out/qemu.stderr"
		[ -s "$out/raw.jsonl" ] || { say "$name: no results (boot status $brc); see $out/console.log"; exit 1; }
		python3 "$TOP/bench/report.py" "$out" > /dev/null
		sed -n '/^####/,$p' "$out/table.md" >&2
		[ "$q" = 1 ] || say "$name: to keep it as evidence: make promote RUN=${out#"$TOP"/}"
		[ "$brc" = 0 ] || { say "$name: guest ended with status $brc"; exit 1; }
	) || rc=1
done
exit $rc
