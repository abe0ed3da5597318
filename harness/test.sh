#!/usr/bin/env bash
# make test / make test-full. Stages, stopping at the first broken one:
#   (a) the series applies with no fuzz; checkpatch --strict is clean;
#       changelogs and MAINTAINERS (make check-series' cheap part)
#   (b) the kernel builds with every feature option on; with every option
#       off, the objects the series changes are the base's (make check-off)
#   (c) the harness's own tests
#   (d) one guest: KUnit (built in) + the mm selftests, the series' included
#   (e) every benchmark at its smoke size (QUICK=1), so they never rot
#   (f) comparison with baseline/mm-base.tsv (the unpatched base, same guest)
# Ends with 'N passed, N failed, N skipped'. Known base failures count as
# skipped (listed); a new failure or a test that went missing fails the run.
. "$(dirname "$0")/common.sh"
. "$TOP/configs/test-categories"

scope=${1:-quick}
case $scope in quick) cats=$QUICK ;; full) cats=$FULL ;; *) die "usage: test.sh quick|full" ;; esac
if [ "${DEBUG:-0}" = 1 ]; then
	# The debug kernel (build/obj-debug): KUnit and DEBUG_CATS, any splat,
	# lockdep or KASAN report, hung task or warning (panic_on_warn) fails.
	# (the harness's boot tests ran on the normal kernel: SKIP_BOOT)
	scope=debug cats=$DEBUG_CATS SKIP_BENCH=1
	export SKIP_BOOT=${SKIP_BOOT:-1}
	export SUITE_APPEND=$DEBUG_APPEND SUITE_TIMEOUT=${SUITE_TIMEOUT:-$DEBUG_TIMEOUT}
	export SUITE_OWN=${SUITE_OWN:-$DEBUG_OWN} SUITE_JOBS=${SUITE_JOBS:-$DEBUG_JOBS}
fi
[ -z "${CATS:-}" ] || cats=$CATS
out=$BUILD/test-$scope
rm -rf "$out" && mkdir -p "$out"
res=$out/all.tsv
ran=""	# the categories a guest ran: only theirs can be missing
: > "$res"
t0=$(date +%s)
# Host CPU steal (USER_HZ ticks, all CPUs): a busy hypervisor host slows
# TCG guests two- or threefold, and the stage times show it.
steal() { awk '$1 == "cpu" { print $9 }' /proc/stat; }
steal0=$(steal)
stage() {
	printf '\n==== %s [%ds, host steal %ds]\n' "$*" $(( $(date +%s) - t0 )) \
		$(( ($(steal) - steal0) / $(getconf CLK_TCK) )) >&2
}
record() { # category, TAP-ish lines on stdin -> results
	awk -v c="$1" -F'\t' '/^ok /{sub(/^ok /, ""); print c "\t" $0 "\tpass"}
		/^not ok /{sub(/^not ok /, ""); print c "\t" $0 "\tfail"}' >> "$res"
}
finish() {
	trap - EXIT
	stage "(f) summary against the base"
	# The series' own tests must report too (the baseline lists the base's).
	touch "$out/expected.tsv"	# written at stage (d)
	local rc=0
	"$TOP/harness/tap.py" compare "$TOP/baseline/mm-base.tsv" "$res" --ran "$ran" \
		--expect "$out/expected.tsv" --flaky "$TOP/baseline/flaky.tsv" > "$out/compare.txt" || rc=$?
	# What each new failure printed before its result: CI keeps only the
	# log's tail. The 'N passed, N failed' line stays last.
	{
		head -n -1 "$out/compare.txt"
		"$TOP/harness/tap.py" why "$out/compare.txt" "$out"/suite/output.log \
			"$out"/suite/*/output.log 2>/dev/null || true
		tail -n 1 "$out/compare.txt"
	} | tee "$out/summary.txt"
	exit "$rc"
}
# A stage that dies unexpectedly (set -e) still ends with the summary.
trap 'rc=$?; echo "not ok test.sh ended early (status $rc, line $LINENO)" | record harness; finish' EXIT
broken() { say "stage '$1' is broken: $2"; finish; }

stage "(a) series applies; checkpatch --strict"
"$TOP/harness/tree.sh" || { echo "not ok series applies" | record series; broken apply "the series does not apply"; }
echo "ok series applies ($(series_files | wc -l) patches)" | record series
"$TOP/harness/checkpatch.sh" | tee "$out/checkpatch.txt" | grep -v '^#   ' >&2 || true
record checkpatch < "$out/checkpatch.txt"
grep -q '^not ok' "$out/checkpatch.txt" && broken checkpatch "see $out/checkpatch.txt"
# make check-series' cheap part: changelogs, MAINTAINERS (the builds of every
# prefix and option are make check-series' own, hours cold)
cs=0
QUICK=1 CHECKPATCH=0 "$TOP/harness/check-series.sh" > "$out/check-series.txt" 2>&1 || cs=$?
grep -E '^(ok|not ok) ' "$out/check-series.txt" | grep -v ': applies with git am' | record series
[ "$cs" = 0 ] || grep -q '^not ok' "$out/check-series.txt" ||
	echo "not ok check-series.sh ended with status $cs" | record series
grep -q '^not ok' "$out/check-series.txt" && broken series "see $out/check-series.txt"

stage "(b) build with every feature on$([ "$scope" != debug ] || echo ', the debug kernel')"
if FEATURES=all "$TOP/harness/build.sh"; then echo "ok build all features" | record build
else echo "not ok build all features" | record build; broken build "the kernel does not build"; fi

if [ "$scope" != debug ]; then
	# A feature compiled out leaves nothing: the objects the series changes,
	# built with every option off, are the base's (seconds warm, a few
	# minutes cold: the base's objects only)
	stage "(b2) every feature compiled out: the changed objects are the base's (make check-off)"
	co=0
	"$TOP/harness/check-off.sh" > "$out/check-off.txt" 2>&1 || co=$?
	grep -E '^(ok|not ok) ' "$out/check-off.txt" | record check-off || true
	[ "$co" = 0 ] || grep -q '^not ok' "$out/check-off.txt" ||
		echo "not ok check-off.sh ended with status $co (see $out/check-off.txt)" | record check-off
fi

stage "(c) harness self-tests"
"$TOP/tests/harness/run.sh" | tee "$out/harness.txt" >&2 || true
record harness < "$out/harness.txt"
grep -q '^not ok' "$out/harness.txt" && broken harness "see $out/harness.txt"

stage "(d) guest: KUnit + mm selftests ($cats)"
ran="$cats kunit"
"$TOP/harness/expected.sh" $cats > "$out/expected.tsv"
say "the series' own tests expected: $(cut -f2 "$out/expected.tsv" | tr '\n' ' ')"
"$TOP/harness/suite.sh" "$out/suite" $cats
cat "$out/suite/results.tsv" >> "$res"
say "$(wc -l < "$out/suite/results.tsv") results from the guest; console: $out/suite/console.log"

if [ "${SKIP_BENCH:-0}" != 1 ]; then
	stage "(e) benchmarks, smoke size"
	for b in $(cd "$TOP/bench" && ls -d */ | tr -d / ); do
		[ -f "$TOP/bench/$b/spec" ] || continue
		if B=$b QUICK=1 TCG=${TCG:-$SMOKE_TCG} "$TOP/bench/run.sh" > "$out/bench-$b.log" 2>&1; then
			echo "ok bench $b (smoke)" | record bench
		else
			echo "not ok bench $b (smoke)" | record bench
			tail -n 15 "$out/bench-$b.log" | sed 's/^/#   /' >&2
			# What the guest said about it (driver messages, OOM, hung tasks).
			con=$(ls -t "$BUILD"/bench-quick/"$b"/*/console.log 2>/dev/null | head -n 1)
			[ -z "$con" ] || {
				# The first kernel splat (its cause), then the end.
				tr -d '\r' < "$con" | grep -a -m1 -A 14 -E 'Oops|BUG:|WARNING:|invoked oom-killer' | sed 's/^/#   guest (first splat): /'
				tr -d '\r' < "$con" | grep -a -E -v '^(#|\|)' | tail -n 25 | sed 's/^/#   guest: /'
			} >&2
		fi
	done
fi
finish
