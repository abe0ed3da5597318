#!/usr/bin/env bash
# Run mm selftest categories in one guest and write per-test results.
# Usage: suite.sh OUTDIR CAT...   -> OUTDIR/results.tsv (+ logs)
# KUnit results of the same boot (built-in suites, KTAP on the console) are
# included as category 'kunit'. A category that needs another machine than
# the suite guest (GUEST_<category> in configs/test-categories, e.g. a node
# with two large zones) runs in a guest of its own, in OUTDIR/<category>/.
. "$(dirname "$0")/common.sh"
. "$TOP/configs/test-categories"

out=$1; shift
mkdir -p "$out"
# SUITE_RUNNER: another guest command for the categories (the harness's own
# tests use it to kill a guest); the selftests are then not needed.
runner=${SUITE_RUNNER:-}
[ -n "$runner" ] || { "$TOP/harness/selftests.sh"; runner="$TOP/harness/guest/mm-suite.sh $OBJ/kselftest"; }
# SUITE_OWN: categories that get a guest of their own (default settings)
# beyond those configs/test-categories gives one; SUITE_JOBS: how many
# guests run at once (each single-threaded TCG guest keeps one host core
# busy; make test DEBUG=1 runs two).
shared=() own=()
for c in "$@"; do
	v=GUEST_$c
	if [ -n "${!v:-}" ] || [[ " ${SUITE_OWN:-} " == *" $c "* ]]; then own+=("$c"); else shared+=("$c"); fi
done
guest() { # DIR 'VAR=value ...' CAT...: boot a guest that runs CATs
	local dir=$1 settings=$2 rc; shift 2
	mkdir -p "$dir"
	set +e
	(
		CPUS=$SUITE_CPUS MEM=$SUITE_MEM NUMA=$SUITE_NUMA SWAP=$SUITE_SWAP APPEND=
		TCG=${TCG:-$SUITE_TCG}	# a category's own setting wins over both
		for kv in $settings; do
			case ${kv%%=*} in CPUS|MEM|NUMA|SWAP|APPEND|TCG) declare "$kv" ;;
			*) die "configs/test-categories: cannot set '$kv'" ;; esac
		done
		APPEND="$APPEND ${SUITE_APPEND:-}"	# make test DEBUG=1: panic_on_warn=1
		RESULTS=$dir CPUS=$CPUS MEM=$MEM NUMA=$NUMA SWAP=$SWAP APPEND=$APPEND \
			TCG=$TCG TIMEOUT=${SUITE_TIMEOUT:-3600} QUIET=${QUIET:-0} \
			CMD="$runner $*" "$TOP/harness/boot.sh"
	)
	rc=$?
	set -e
	say "guest ($*) ended with status $rc"
	grep -h '^=== category .*: exit' "$dir/output.log" 2>/dev/null | sed 's/^=== /  /' >&2 || true
	# A guest that died still leaves the results it got (the caller's
	# compare reports what is missing), and is a failure of its own, named
	# with the console's first splat.
	if [ "$rc" != 0 ]; then
		say "guest run ($*) ended with status $rc (results so far in $dir)"
		splat=$("$TOP/harness/tap.py" splats "$dir/console.log" x 2>/dev/null |
			awk -F'\t' '$3 == "fail" && !n++ { sub(/^x: /, "", $2); print "; first splat: " $2 }')
		printf 'guest\t%s: the guest ended with status %s%s\tfail\n' "$*" "$rc" "$splat" >> "$out/guests.tsv"
	fi
}
: > "$out/guests.tsv"
jobs=${SUITE_JOBS:-1}
slot() { # wait until fewer than $jobs guests run
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
}
if [ ${#shared[@]} != 0 ]; then
	if [ "$jobs" -gt 1 ]; then guest "$out" "" "${shared[@]}" & else guest "$out" "" "${shared[@]}"; fi
fi
for c in "${own[@]}"; do
	v=GUEST_$c
	say "category $c in a guest of its own: ${!v:-default settings}"
	if [ "$jobs" -gt 1 ]; then slot; guest "$out/$c" "${!v:-}" "$c" & else guest "$out/$c" "${!v:-}" "$c"; fi
done
wait
{
	# KUnit runs at every boot: take it from the first guest's console.
	k=$out/console.log
	[ -f "$k" ] || k=$out/${own[0]:-}/console.log
	[ ! -f "$k" ] || "$TOP/harness/tap.py" ktap "$k"
	for d in "$out" "${own[@]/#/$out/}"; do
		[ ! -f "$d/output.log" ] || "$TOP/harness/tap.py" vmtests "$d/output.log"
		# Any kernel splat on a guest's console fails, boot included.
		where=guest${d#"$out"}
		[ ! -f "$d/console.log" ] || "$TOP/harness/tap.py" splats "$d/console.log" "$where"
	done
	cat "$out/guests.tsv"
} > "$out/results.tsv"
exit 0
