#!/usr/bin/env bash
# The harness's own tests, fast ones first. Prints 'ok NAME' / 'not ok NAME'.
# SKIP_BOOT=1 leaves out the ones that boot a guest.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
H=$TOP/harness
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
check() { # name, then a command that must succeed
	local name=$1; shift
	if "$@" > "$tmp/out" 2>&1; then echo "ok $name"
	else echo "not ok $name"; sed 's/^/#   /' "$tmp/out" | tail -n 15; fails=$((fails + 1)); fi
}
expect() { # "text" file: file contains text
	grep -q -e "$1" "$2" || { echo "expected '$1' in:"; cat "$2"; return 1; }
}

# --- TAP parsing and comparison -------------------------------------------
t_fail_then_skip() {
	printf '%s\n' '=== category: cow' 'TAP version 13' '# running ./cow' \
		'not ok 1 cow # exit=1' 'ok 2 ksm_tests -N -m 1 # SKIP' \
		'# SUMMARY: PASS=0 SKIP=1 FAIL=1' '1..2' > "$tmp/log"
	"$H/tap.py" vmtests "$tmp/log" > "$tmp/r.tsv"
	expect $'cow\tcow\tfail' "$tmp/r.tsv" && expect $'cow\tksm_tests -N -m 1\tskip' "$tmp/r.tsv" || return 1
	: > "$tmp/base.tsv"
	if "$H/tap.py" compare "$tmp/base.tsv" "$tmp/r.tsv" > "$tmp/c"; then echo "compare passed a failure"; return 1; fi
	expect '^0 passed, 1 failed, 1 skipped$' "$tmp/c"
}
t_why() { # a new failure's own messages reach the summary; a pass's do not
	printf '%s\n' '=== category: m' '# running ./p' '# # a: fine' '# ok 1 case one' \
		'# # b: still dying; parent 12 kB' '# not ok 2 case 2 (3.0 s)' \
		'# # Totals: pass:1 fail:1' 'not ok 1 p # exit=1' > "$tmp/log"
	"$H/tap.py" vmtests "$tmp/log" > "$tmp/r.tsv"
	"$H/tap.py" compare /dev/null "$tmp/r.tsv" > "$tmp/c" && { cat "$tmp/c"; return 1; }
	"$H/tap.py" why "$tmp/c" "$tmp/log" > "$tmp/w"
	expect '^why        m: p: case N (N.N s)$' "$tmp/w" && expect '^    | # # b: still dying' "$tmp/w" || return 1
	if grep -q 'a: fine\|Totals' "$tmp/w"; then cat "$tmp/w"; return 1; fi
}
t_compare_known_and_new() {
	printf 'm\ta\tfail\nm\tb\tfail\nm\tc\tpass\nm\td\tpass\nother\tz\tpass\n' > "$tmp/base.tsv"
	printf 'm\ta\tfail\nm\tb\tpass\nm\tc\tpass\n' > "$tmp/r.tsv"
	# a: known failure (not fatal), b: new pass, d: missing in a category that ran.
	"$H/tap.py" compare "$tmp/base.tsv" "$tmp/r.tsv" --ran m > "$tmp/c" && { cat "$tmp/c"; return 1; }
	expect 'known fail m: a' "$tmp/c" && expect 'NEW PASS   m: b' "$tmp/c" &&
		expect 'MISSING    m: d' "$tmp/c" && expect '^2 passed, 1 failed, 1 skipped$' "$tmp/c" || return 1
	printf 'm\ta\tfail\nm\tb\tpass\nm\tc\tpass\nm\td\tpass\n' > "$tmp/r.tsv"
	"$H/tap.py" compare "$tmp/base.tsv" "$tmp/r.tsv" --ran m > "$tmp/c" || { cat "$tmp/c"; return 1; }
}
t_ktap() {
	printf '%s\n' '[    1.000000] KTAP version 1' '[    1.000001] 1..1' \
		'[    1.000002]     KTAP version 1' '[    1.000003]     # Subtest: demo' \
		'[    1.000004]     1..3' '[    1.000005]     ok 1 one' \
		'[    1.000006]     not ok 2 two' '[    1.000007]     ok 3 three # SKIP no' \
		'[    1.000008] # demo: pass:1 fail:1 skip:1 total:3' '[    1.000009] not ok 1 demo' \
		'=== mm-harness: start' 'not ok 1 user space TAP is not KUnit' > "$tmp/k"
	"$H/tap.py" ktap "$tmp/k" > "$tmp/r.tsv"
	expect $'kunit\tdemo.one\tpass' "$tmp/r.tsv" && expect $'kunit\tdemo.two\tfail' "$tmp/r.tsv" &&
		expect $'kunit\tdemo.three\tskip' "$tmp/r.tsv" && [ "$(wc -l < "$tmp/r.tsv")" = 3 ]
}
t_case_fail() {
	# A program's own 'not ok' case under a test that exited 0 (hmm-tests do
	# this); digits in case names do not make a new name.
	printf '%s\n' '=== category: hmm' '# ok 1 hmm.anon_read' '# not ok 2 hmm.exclusive' \
		'# ok 3 # SKIP no device' '# ok 4 took 12 ms' 'ok 1 test_hmm.sh smoke' > "$tmp/log"
	"$H/tap.py" vmtests "$tmp/log" > "$tmp/r.tsv"
	expect $'hmm\ttest_hmm.sh smoke\tpass' "$tmp/r.tsv" &&
		expect $'hmm\ttest_hmm.sh smoke: hmm.exclusive\tfail' "$tmp/r.tsv" &&
		expect $'hmm\ttest_hmm.sh smoke: SKIP no device\tskip' "$tmp/r.tsv" &&
		expect $'hmm\ttest_hmm.sh smoke: took N ms\tpass' "$tmp/r.tsv" || return 1
	printf 'hmm\ttest_hmm.sh smoke\tpass\nhmm\ttest_hmm.sh smoke: took N ms\tpass\n' > "$tmp/base.tsv"
	if "$H/tap.py" compare "$tmp/base.tsv" "$tmp/r.tsv" --ran hmm > "$tmp/c"; then echo "compare passed a failed case"; return 1; fi
	expect 'NEW FAIL   hmm: test_hmm.sh smoke: hmm.exclusive' "$tmp/c"
}
check "tap: a FAIL followed by a SKIP counts as a failure" t_fail_then_skip
check "tap: a program's failed case under a passing test counts as a failure" t_case_fail
check "tap: known failures, new passes and missing tests" t_compare_known_and_new
check "tap: a new failure's own messages reach the summary (why)" t_why
check "tap: KTAP test cases from a console log" t_ktap
t_ktap_truncated() {
	# A suite that promised 3 cases and reported 1, a suite the kernel died
	# in, and fewer suites than the top-level plan: each is a failure.
	printf '%s\n' 'KTAP version 1' '1..3' '    # Subtest: short' '    1..3' '    ok 1 one' \
		'ok 1 short' '    # Subtest: dies' '    1..2' '    ok 1 first' > "$tmp/k"
	"$H/tap.py" ktap "$tmp/k" > "$tmp/r.tsv"
	expect $'kunit\tshort: plan 1..3, 1 cases reported\tfail' "$tmp/r.tsv" &&
		expect $'kunit\tdies: the suite did not finish (1 of 2 cases reported)\tfail' "$tmp/r.tsv" &&
		expect $'kunit\tplan 1..3, 1 suites reported\tfail' "$tmp/r.tsv" || return 1
	: > "$tmp/base.tsv"
	if "$H/tap.py" compare "$tmp/base.tsv" "$tmp/r.tsv" --ran kunit > "$tmp/c"; then echo "compare passed a truncated suite"; return 1; fi
}
check "tap: a truncated KTAP suite (plan not met, no end) fails" t_ktap_truncated
t_expect_missing() {
	# The series' own category and KUnit suite gave no result at all: the
	# baseline (the base's tests) cannot notice, the expected manifest must.
	printf 'cow\tcow\tpass\n' > "$tmp/base.tsv"
	printf 'cow\tcow\tpass\nkunit\tother.case\tpass\n' > "$tmp/r.tsv"
	printf 'swap_token\tswap_token\nkunit\tswap_token\n' > "$tmp/exp.tsv"
	if "$H/tap.py" compare "$tmp/base.tsv" "$tmp/r.tsv" --ran 'cow swap_token kunit' --expect "$tmp/exp.tsv" > "$tmp/c"; then
		cat "$tmp/c"; echo "compare passed a run without the series' tests"; return 1
	fi
	expect 'MISSING    swap_token: swap_token' "$tmp/c" && expect 'MISSING    kunit: swap_token' "$tmp/c" &&
		expect '^2 passed, 2 failed, 0 skipped$' "$tmp/c" || return 1
	printf 'swap_token\tswap_token\tpass\nkunit\tswap_token.token_held\tpass\n' >> "$tmp/r.tsv"
	"$H/tap.py" compare "$tmp/base.tsv" "$tmp/r.tsv" --ran 'cow swap_token kunit' --expect "$tmp/exp.tsv" > "$tmp/c" || { cat "$tmp/c"; return 1; }
}
check "tap: a vanished series category or KUnit suite fails (expected manifest)" t_expect_missing
t_expected_tree() { # the manifest follows the applied series
	[ -d "$TOP/build/linux/.git" ] || { echo "no tree"; return 1; }
	"$H/expected.sh" cow reclaim_throttle swap_token > "$tmp/exp.tsv" || return 1
	local n
	n=$(git -C "$TOP/build/linux" diff base..HEAD -- tools/testing/selftests/mm/run_vmtests.sh | grep -c '^+.*CATEGORY="\(reclaim_throttle\|swap_token\)"')
	[ "$(grep -vc '^kunit' "$tmp/exp.tsv")" = "$n" ] || { cat "$tmp/exp.tsv"; echo "want $n selftests"; return 1; }
	! grep -q '^cow' "$tmp/exp.tsv" || { echo "a base category is not the series'"; return 1; }
}
check "expected: the manifest lists the applied series' own categories that run" t_expected_tree
t_splats() {
	printf '%s\n' '[    0.5] smpboot: ok' '# WARNING: user space output is not the kernel' \
		'[    9.1] mm-harness: running cow: ./cow' \
		'[    9.2] WARNING: CPU: 1 PID: 77 at mm/vmscan.c:123 shrink_folio_list+0x1f/0x30' \
		'[   10.0] BUG: KASAN: slab-use-after-free in foo+0x10/0x20' \
		'[   11.0] mm-harness: running oom-scale: root off rep 0' \
		'[   12.0] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:' > "$tmp/con"
	"$H/tap.py" splats "$tmp/con" guest > "$tmp/r.tsv"
	expect $'console\tguest: WARNING: CPU: N PID: N at mm/vmscan.c:N shrink_folio_list+N/N (during running cow: ./cow)\tfail' "$tmp/r.tsv" &&
		expect 'BUG: KASAN: slab-use-after-free in foo+N/N (during running cow' "$tmp/r.tsv" &&
		expect 'rcu: INFO: rcu_preempt detected stalls on CPUs/tasks: (during running oom-scale: root off rep 0)' "$tmp/r.tsv" &&
		[ "$(wc -l < "$tmp/r.tsv")" = 3 ] || { cat "$tmp/r.tsv"; return 1; }
	printf '[    0.5] ok\n# WARNING: not the kernel\n' > "$tmp/con"
	"$H/tap.py" splats "$tmp/con" guest > "$tmp/r.tsv"
	expect $'console\tguest: no kernel warning\tpass' "$tmp/r.tsv"
}
check "tap: a kernel splat (an RCU stall too) on the console fails, naming the running test" t_splats
t_summary_on_check_failure() {
	# A failing changelog check (check-series.sh exits 1) must still end
	# make test with its summary line, not kill test.sh under set -e.
	local top=$tmp/top
	mkdir -p "$top/build/linux" && cp -a "$TOP/harness" "$TOP/configs" "$TOP/baseline" "$TOP/BASE_VERSION" "$top/"
	printf '#!/bin/sh\nexit 0\n' > "$top/harness/tree.sh"
	printf '#!/bin/sh\necho "ok 0001 checkpatch"\n' > "$top/harness/checkpatch.sh"
	printf '#!/bin/sh\necho "not ok 0001: changelog names no numbers"\nexit 1\n' > "$top/harness/check-series.sh"
	if DEBUG=0 "$top/harness/test.sh" quick > "$tmp/o" 2>&1; then echo "test.sh passed"; return 1; fi
	expect 'is broken' "$tmp/o" && [ "$(tail -n 1 "$top/build/test-quick/summary.txt")" = "2 passed, 1 failed, 0 skipped" ] ||
		{ tail "$tmp/o"; return 1; }
}
check "test: a failing changelog check still ends with the summary" t_summary_on_check_failure
t_make_settings() {
	# make passes CMD through untouched ($s, $?, $(...)), and refuses a
	# guest setting the target does not read.
	make -s -C "$TOP" env CMD='for s in a b; do echo $s $? $(x); done' > "$tmp/o" &&
		expect '^CMD=for s in a b; do echo \$s \$? \$(x); done$' "$tmp/o" || return 1
	# -n: were the check ever gone, nothing would run
	if make -s -n -C "$TOP" test CPUS=8 > "$tmp/o" 2>&1; then echo "make test CPUS=8 was accepted"; return 1; fi
	expect 'make test does not read CPUS' "$tmp/o"
}
check "make: CMD reaches the scripts untouched; an ignored CPUS= is an error" t_make_settings
t_flaky() {
	# Two base runs that disagree make the test flaky; its failure is known.
	printf 'm\ta\tpass\nm\tb\tfail\n' > "$tmp/b1.tsv"
	printf 'm\ta\tfail\nm\tb\tfail\n' > "$tmp/b2.tsv"
	"$H/tap.py" merge "$tmp/b1.tsv" "$tmp/b2.tsv" > "$tmp/base.tsv"
	expect $'m\ta\tflaky' "$tmp/base.tsv" || return 1
	printf 'm\ta\tfail\nm\tb\tfail\n' > "$tmp/r.tsv"
	"$H/tap.py" compare "$tmp/base.tsv" "$tmp/r.tsv" --ran m > "$tmp/c" || { cat "$tmp/c"; return 1; }
	expect 'known fail m: a (flaky on the base too)' "$tmp/c" || return 1
	# A case of a flaky test may fail although the base's one run passed it.
	printf 'm\ta\tflaky\nm\ta: x\tpass\n' > "$tmp/base.tsv"
	printf 'm\ta\tpass\nm\ta: x\tfail\n' > "$tmp/r.tsv"
	"$H/tap.py" compare "$tmp/base.tsv" "$tmp/r.tsv" --ran m > "$tmp/c" || { cat "$tmp/c"; return 1; }
	expect 'known fail m: a: x (flaky on the base too)' "$tmp/c" || return 1
	# A case listed in baseline/flaky.tsv is known, and so is its test when it
	# is the test's only failed case; another failed case still fails the run.
	printf 'm\ta\tpass\nm\ta: x\tpass\nm\ta: y\tpass\n' > "$tmp/base.tsv"
	printf 'm\ta: x\tthe test maps over its own heap\n' > "$tmp/flaky.tsv"
	printf 'm\ta\tfail\nm\ta: x\tfail\nm\ta: y\tpass\n' > "$tmp/r.tsv"
	"$H/tap.py" compare "$tmp/base.tsv" "$tmp/r.tsv" --ran m --flaky "$tmp/flaky.tsv" > "$tmp/c" ||
		{ cat "$tmp/c"; return 1; }
	expect 'known fail m: a: x (flaky on the base too: the test maps over its own heap)' "$tmp/c" || return 1
	expect 'known fail m: a (flaky on the base too: its failed cases are known flaky)' "$tmp/c" || return 1
	printf 'm\ta\tfail\nm\ta: x\tfail\nm\ta: y\tfail\n' > "$tmp/r.tsv"
	if "$H/tap.py" compare "$tmp/base.tsv" "$tmp/r.tsv" --ran m --flaky "$tmp/flaky.tsv" > "$tmp/c"; then
		cat "$tmp/c"; echo "compare passed a failure beside a flaky one"; return 1
	fi
	expect 'NEW FAIL   m: a (base: pass)' "$tmp/c"
}
check "tap: a test that is flaky on the base (or listed in baseline/flaky.tsv) does not fail the run" t_flaky

# --- benchmark statistics ----------------------------------------------------
t_welch() {
	# Reference values from scipy.stats.ttest_ind(equal_var=False).
	python3 - "$TOP/bench" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import report
p = report.welch_p([1, 2, 3, 4, 5], [3, 4, 5, 6, 7])
assert abs(p - 0.0805) < 0.001, p
p = report.welch_p([10, 11, 12], [20, 21, 19])
assert p < 0.001, p
assert abs(report.mean([1.0, 2.0, 4.0], True) - 12.0 / 7) < 1e-9  # harmonic for rates
rows = [{"case": "c", "variant": v, "metrics": {"elapsed_s": x}}
        for v, xs in (("A", [10, 10.2, 9.9]), ("B", [12, 12.1, 11.8])) for x in xs]
t = report.table(rows)
assert "(*+" in t, t                    # significant difference marked
PY
}
check "bench: Welch's t-test, harmonic mean, significance marks" t_welch
t_reclaim_trace() { # who reclaimed beside the slot holders, and why
	cat > "$tmp/trace" <<-'EOF'
	 hackbench-101 [000] ..... 10.000000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
	 hackbench-102 [001] ..... 10.000100: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
	 <...>-103 [000] ..... 10.000200: mm_vmscan_direct_reclaim_throttle: nid=0 zone=Normal nr_slots=2 wait_us=0 outcome=bypass wakeups=0 alloc_wait_us=0
	 <...>-103 [000] ..... 10.000300: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL|__GFP_COMP
	 kworker/1-104 [001] ..... 10.000400: mm_vmscan_direct_reclaim_throttle: nid=0 zone=Normal nr_slots=2 wait_us=0 outcome=bypass wakeups=0 alloc_wait_us=0
	 kworker/1-104 [001] ..... 10.000500: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_NOFS|__GFP_NOWARN
	 hackbench-105 [000] ..... 11.000000: mm_vmscan_direct_reclaim_throttle: nid=0 zone=Normal nr_slots=2 wait_us=1000000 outcome=stalled wakeups=3 alloc_wait_us=1000000
	 hackbench-105 [000] ..... 11.000100: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
	 hackbench-106 [001] ..... 11.000200: mm_vmscan_direct_reclaim_throttle: nid=0 zone=Normal nr_slots=2 wait_us=500 outcome=page wakeups=1 alloc_wait_us=500
	 hackbench-101 [000] ..... 11.100000: mm_vmscan_direct_reclaim_end: nr_reclaimed=32
	 hackbench-103 [000] ..... 11.100100: mm_vmscan_direct_reclaim_end: nr_reclaimed=32
	 hackbench-102 [001] ..... 11.100200: mm_vmscan_direct_reclaim_end: nr_reclaimed=32
	 hackbench-107 [001] ..... 11.100300: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
	 hackbench-104 [001] ..... 11.100400: mm_vmscan_direct_reclaim_end: nr_reclaimed=32
	 hackbench-105 [000] ..... 11.100500: mm_vmscan_direct_reclaim_end: nr_reclaimed=32
	 hackbench-107 [001] ..... 11.100600: mm_vmscan_direct_reclaim_end: nr_reclaimed=32
	EOF
	python3 "$TOP/bench/guest/reclaim-trace.py" < "$tmp/trace" > "$tmp/out.kv" || return 1
	# 5 at once: 2 holders (101, 102) and 3 without a slot (103 and 104
	# bypassed, 105 stalled); 107 comes after the others left.
	for kv in dr_events=6 dr_max_concurrent=5 dr_max_unslotted=3 dr_max_slotted=2 \
		bypass_fsio=1 bypass_nofs=1 stall_events=7; do
		expect "^$kv\$" "$tmp/out.kv" || return 1
	done
}
check "bench: reclaim-trace counts the reclaimers without a slot and splits bypasses by gfp mask" t_reclaim_trace
t_promote() { # make promote keeps a run without its scratch, and refuses a half run
	local id=00000000-000000-harnesstest run=$tmp/bench-runs/migrate-copy/00000000-000000-harnesstest
	local dest=$TOP/results/migrate-copy/$id rc=0
	mkdir -p "$run"
	head -n 2 "$TOP"/results/migrate-copy/20261204-044607-patched/raw.jsonl > "$run/raw.jsonl"
	: > "$run/.bench"; : > "$run/last-output.txt"; echo x > "$run/output.log"; : > "$run/x.png"
	RUN=$run "$H/promote.sh" > /dev/null 2>&1 || { echo "promote failed"; rc=1; }
	[ $rc = 1 ] || [ -s "$dest/raw.jsonl" ] && [ -s "$dest/output.log" ] && [ -s "$dest/table.md" ] ||
		{ echo "not copied, or no table"; rc=1; }
	[ ! -e "$dest/.bench" ] && [ ! -e "$dest/last-output.txt" ] || { echo "scratch copied"; rc=1; }
	! ls "$dest"/*.png > /dev/null 2>&1 || { echo "plots in results/ (they belong in build/plots)"; rc=1; }
	RUN=$run "$H/promote.sh" > /dev/null 2>&1 && { echo "promoted over an existing run"; rc=1; }
	rm -rf "$dest"
	mkdir -p "$tmp/bench-runs/migrate-copy/half"
	RUN=$tmp/bench-runs/migrate-copy/half "$H/promote.sh" > /dev/null 2>&1 && { echo "promoted a run without raw.jsonl"; rc=1; }
	# what promote regenerated must be as before
	python3 "$TOP/bench/report.py" --summary "$TOP/results" > /dev/null
	python3 "$TOP/bench/verdicts.py" > /dev/null
	return $rc
}
check "bench: make promote copies a finished run without its scratch" t_promote
t_results_notes() { # every kept run says what it is; only the goals' plots are kept
	local d rc=0
	for d in "$TOP"/results/*/*/; do
		[ -f "$d/raw.jsonl" ] || continue
		[ -s "$d/NOTE.md" ] || { echo "no NOTE.md in ${d#"$TOP"/}"; rc=1; }
		! ls "$d"*.png > /dev/null 2>&1 || { echo "plots in ${d#"$TOP"/}"; rc=1; }
	done
	return $rc
}
check "results: every kept run has its NOTE.md and no plots of its own" t_results_notes
t_base_table() { # BASE.md: each case from the newest base run that has it
	mkdir -p "$tmp/res/b/1-patched" "$tmp/res/b/2-base" "$tmp/res/b/3-base"
	row() { printf '{"case": "%s", "variant": "%s", "headline": ["elapsed_s"], "metrics": {"elapsed_s": %s, "x": 1}}\n' "$@"; }
	{ row old classic 50; row old mglru 40; row c classic 99; } > "$tmp/res/b/2-base/raw.jsonl"
	{ row c classic 10; row c mglru 12; row c classic 10.2; row c mglru 12.2; } > "$tmp/res/b/3-base/raw.jsonl"
	row c classic 7 > "$tmp/res/b/1-patched/raw.jsonl"
	for r in 1-patched 2-base 3-base; do echo "# b" > "$tmp/res/b/$r/table.md"; done
	python3 "$TOP/bench/report.py" --summary "$tmp/res" || return 1
	grep -q '^| c (\[3-base\].*| elapsed_s | 10.1 ±0.141 (2) | 12.1 ±0.141 (2) \*+20%\* |$' "$tmp/res/BASE.md" &&
		grep -q '^| old (\[2-base\].*| 50.0 ±0 (1) | 40.0 ±0 (1) -20% |$' "$tmp/res/BASE.md" &&
		! grep -q '99\|7.0\|| x |' "$tmp/res/BASE.md" || { cat "$tmp/res/BASE.md"; return 1; }
}
check "bench: the base table takes each case from its newest base run" t_base_table

# --- accelerator probe ------------------------------------------------------
t_accel_no_kvm() {
	[ "$(KVM_DEV=/nonexistent ACCEL=auto "$H/accel.sh" /dev/null)" = tcg ]
}
t_accel_hang() {
	# Hardware KVM modules "present", but the test boot hangs (as a normal
	# kernel does under kvm_pvm): the probe must give up and pick TCG.
	mkdir -p "$tmp/sys/kvm_intel"; : > "$tmp/kvm"
	printf '#!/bin/sh\nexec sleep 600\n' > "$tmp/qemu"; chmod +x "$tmp/qemu"
	printf 'x%.0s' $(seq 64) > "$tmp/kernel"
	local t0=$SECONDS a
	a=$(BUILD=$tmp KVM_DEV=$tmp/kvm SYSMOD=$tmp/sys QEMU=$tmp/qemu PROBE_TIMEOUT=3 ACCEL=auto "$H/accel.sh" "$tmp/kernel")
	[ "$a" = tcg ] && [ $((SECONDS - t0)) -lt 15 ] || { echo "got '$a' after $((SECONDS - t0))s"; return 1; }
}
# --- the cover letter and the feature registry -----------------------------
check "cover: the cover letter's results table matches results/" \
	python3 "$H/cover-table.py" --check
check "results: results/README.md matches bench/goals.spec and results/" \
	python3 "$TOP/bench/verdicts.py" --check
check "stats: ratio intervals and tests against known values (scipy)" \
	python3 "$TOP/bench/stats.py" --self-test
t_cover_export() { # the exported letter carries cover.txt's table
	local t
	# a series of one patch has no cover letter
	[ -e "$TOP/patches/0000-cover-letter.patch" ] || return 0
	t=$(python3 "$H/cover-table.py" --print | sed -n 7p)
	grep -qF -- "$t" "$TOP/patches/0000-cover-letter.patch" ||
		{ echo "patches/0000-cover-letter.patch lacks: $t (run make export)"; return 1; }
}
check "cover: the exported cover letter has the table" t_cover_export
t_feature_registry() { # every feature's Kconfig option is in features.config
	local name off on kc
	while read -r name off on kc; do
		case $name in "" | \#*) continue ;; esac
		[ -n "$kc" ] || { echo "$name: no Kconfig option"; return 1; }
		grep -q "^$kc=y" "$TOP/configs/features.config" || { echo "$kc not in features.config"; return 1; }
		[ "$off" != "$on" ] || { echo "$name: on = off"; return 1; }
	done < "$TOP/configs/feature-sysctls"
}
check "bisect-feature: configs/feature-sysctls names each feature's switch" t_feature_registry
check "features: configs/features and the places that name the features agree" \
	python3 "$H/features.py" --check
t_series_resolve() { # make series: a patch taken alone keeps its own change, no other feature's
	local g="git -C $tmp/sr -c user.name=t -c user.email=t@t -c merge.conflictstyle=diff3"
	python3 "$H/series-resolve.py" --self-test || return 1
	rm -rf "$tmp/sr" && mkdir -p "$tmp/sr" && $g init -q && printf 'a\nz\n' > "$tmp/sr/f"
	$g add f && $g commit -qm base && $g tag b
	printf 'a\nf1\nz\n' > "$tmp/sr/f" && $g commit -qam f1
	printf 'a\nf1\nf2\nz\n' > "$tmp/sr/f" && $g commit -qam f2 && $g tag f2
	printf 'a\nF1\nf2\nz\n' > "$tmp/sr/f" && $g commit -qam 'f3 changes f1' && $g tag f3
	$g checkout -q b && { $g cherry-pick -n f2 > /dev/null 2>&1 || true; }
	(cd "$tmp/sr" && python3 "$H/series-resolve.py" f) || return 1
	[ "$(cat "$tmp/sr/f")" = "$(printf 'a\nf2\nz')" ] || { echo "resolved to:"; cat "$tmp/sr/f"; return 1; }
	$g reset -q --hard b && { $g cherry-pick -n f3 > /dev/null 2>&1 || true; }
	if (cd "$tmp/sr" && python3 "$H/series-resolve.py" f 2> /dev/null); then
		echo "resolved a patch that changes another feature's line:"; cat "$tmp/sr/f"; return 1
	fi
	grep -q '^<<<<<<<' "$tmp/sr/f" || { echo "a refused conflict was not left as it was"; return 1; }
}
check "series: a feature's patch alone keeps its change, drops other features' lines, refuses to change them" t_series_resolve
t_bisect_only() { # ONLY= (a git bisect step) runs that one feature and no all-off run
	local out
	[ ! -e /proc/sys/vm/zone_dirty_limits ] || return 0	# a patched host: not testable
	out=$(ONLY=vm.zone_dirty_limits=1 bash "$TOP/harness/guest/bisect-feature.sh")
	[ "$out" = "bisect: vm.zone_dirty_limits=1 absent" ] || { echo "got: $out"; return 1; }
}
check "bisect-feature: a bisect step (ONLY=) runs one feature alone" t_bisect_only

t_changelog() { # check-series' changelog rule accepts a good one, refuses bad ones
	local cs=$H/check-series.sh sob='Signed-off-by: A Developer <a@example.org>'
	printf 'mm: do a thing\n\nWhy it is needed, in a line.\nWhat it does.\nIt cuts walks 32 -> 1 per 1000 pages.\n\n%s\n' "$sob" > "$tmp/good"
	"$cs" --changelog "$tmp/good" mm/vmscan.c || { echo "refused a good changelog"; return 1; }
	sed '/Signed-off-by/d' "$tmp/good" > "$tmp/nosob"
	"$cs" --changelog "$tmp/nosob" mm/vmscan.c && { echo "took a changelog without Signed-off-by"; return 1; }
	printf 'mm: do a thing\n\nWhy it is needed, in a line.\nWhat it does.\nIt is faster.\n\n%s\n' "$sob" > "$tmp/nonum"
	"$cs" --changelog "$tmp/nonum" mm/vmscan.c && { echo "took a kernel change without numbers"; return 1; }
	"$cs" --changelog "$tmp/nonum" tools/testing/selftests/mm/x.c > /dev/null && \
		sed -i '1s/.*/selftests\/mm: test a thing/' "$tmp/nonum" && "$cs" --changelog "$tmp/nonum" tools/testing/selftests/mm/x.c ||
		{ echo "refused a test patch without numbers"; return 1; }
	printf 'do a thing\n\n%s\n' "$sob" > "$tmp/short"
	"$cs" --changelog "$tmp/short" MAINTAINERS && { echo "took a one-line changelog"; return 1; }
	# b4-style: subject length, trailers at the end only, no repeats, Fixes: form
	sed '1s/.*/mm: do a thing with a subject that goes on and on past what a mail subject holds/' "$tmp/good" > "$tmp/long"
	"$cs" --changelog "$tmp/long" mm/vmscan.c && { echo "took an 80-character subject"; return 1; }
	sed 's/^What it does.$/Reviewed-by: R <r@example.org>/' "$tmp/good" > "$tmp/mid"
	"$cs" --changelog "$tmp/mid" mm/vmscan.c && { echo "took a trailer in the body"; return 1; }
	printf '%s\n' "$sob" >> "$tmp/good" && cp "$tmp/good" "$tmp/twice" && sed -i '$d' "$tmp/good"
	"$cs" --changelog "$tmp/twice" mm/vmscan.c && { echo "took a repeated Signed-off-by"; return 1; }
	sed "s/^$sob/Fixes: abc123 (\"mm: x\")\n$sob/" "$tmp/good" > "$tmp/fixes"
	"$cs" --changelog "$tmp/fixes" mm/vmscan.c && { echo "took a Fixes: with a short id"; return 1; }
	AUTHOR='A Developer <a@example.org>' "$cs" --changelog "$tmp/good" mm/vmscan.c ||
		{ echo "refused a changelog signed off by its author"; return 1; }
	AUTHOR='Someone Else <s@example.org>' "$cs" --changelog "$tmp/good" mm/vmscan.c &&
		{ echo "took a changelog without its author's Signed-off-by"; return 1; }
	return 0
}
check "check-series: the changelog rule (why, numbers, subject length, trailers, the author's Signed-off-by)" t_changelog
t_messages() { # warnings diffed base vs series: positions dropped, reports kept
	local src=/w/linux out want
	out=$(printf '%s\n' "  CC      mm/vmscan.o" "/usr/bin/spatch -D report --very-quiet" \
		"$src/mm/vmscan.c:819:1-7: preceding lock on line 735" \
		"$src/mm/rmap.c:12:3-9: WARNING: lines 4, 5 and 6 differ" \
		"$src/mm/a.c:10:5: warning: symbol  'x' was not declared" \
		"warning: line 12: should noop_llseek be a metavariable?" | "$H/check-series.sh" --messages "$src")
	want=$(printf '%s\n' "mm/vmscan.c: preceding lock on line N" "mm/rmap.c: WARNING: lines N differ" \
		"mm/a.c: warning: symbol 'x' was not declared")
	[ "$out" = "$want" ] || { printf 'got:\n%s\n' "$out"; return 1; }
}
check "check-series: sparse/W=1/coccinelle messages lose their positions, keep their text" t_messages

check "accel: no hardware KVM -> tcg" t_accel_no_kvm
check "accel: a hanging KVM probe falls back to tcg, bounded" t_accel_hang

t_mutants() { # each planted defect says what it stands for and applies to the series
	local m n=0 src=$TOP/build/linux
	[ -d "$src/.git" ] || { echo "no tree"; return 1; }
	GIT_INDEX_FILE=$tmp/mutants.idx git -C "$src" read-tree HEAD || return 1
	for m in "$TOP"/tests/mutants/f[0-9]-*.patch; do
		[ -f "$m" ] || continue
		n=$((n + 1))
		grep -q '^Feature: [1-5]$' "$m" && grep -q '^Bug: ..' "$m" ||
			{ echo "${m##*/}: no 'Feature: N' or 'Bug:' line"; return 1; }
		GIT_INDEX_FILE=$tmp/mutants.idx git -C "$src" apply --check --cached "$m" ||
			{ echo "${m##*/} does not apply to build/linux's HEAD"; return 1; }
	done
	[ "$n" -ge 30 ] || { echo "only $n planted defects"; return 1; }
	python3 "$H/mutants-table.py" "$TOP/tests/mutants" "$tmp/none.tsv" x > "$tmp/table.md" &&
		expect '^| 2 zone dirty limits | - | 0 | ' "$tmp/table.md"
}
check "check-mutants: every planted defect has its header and applies to the series" t_mutants

t_mutants_tree() { # a row stays current when only other features' tests changed
	local src=$TOP/build/linux idx=$tmp/tree.idx blob cur other own
	[ -d "$src/.git" ] || { echo "no tree"; return 1; }
	cur=$(git -C "$src" rev-parse 'HEAD^{tree}' | cut -c1-12)
	GIT_INDEX_FILE=$idx git -C "$src" read-tree HEAD || return 1
	blob=$(echo changed | git -C "$src" hash-object -w --stdin)
	# A tree whose feature 2 test file differs, and one whose mm/vmscan.c does
	GIT_INDEX_FILE=$idx git -C "$src" update-index --cacheinfo \
		"100644,$blob,tools/testing/selftests/mm/zone_dirty_limits.c" || return 1
	other=$(GIT_INDEX_FILE=$idx git -C "$src" write-tree | cut -c1-12)
	GIT_INDEX_FILE=$idx git -C "$src" read-tree HEAD &&
		GIT_INDEX_FILE=$idx git -C "$src" update-index --cacheinfo "100644,$blob,mm/vmscan.c" || return 1
	own=$(GIT_INDEX_FILE=$idx git -C "$src" write-tree | cut -c1-12)
	printf 'mutant\tfeature\tverdict\tcaught by\tminutes\ttree\tdate\n' > "$tmp/rows.tsv"
	printf '%s\t1\tcaught\tx\t1\t%s\t2026-01-01\n' f1-gfp-nofs-waits "$other" \
		f1-head-not-told "$own" f2-node-limit "$other" >> "$tmp/rows.tsv"
	# Rows from a tree whose objects are gone: their view decides
	view=$(SRC=$src python3 "$H/mutants-table.py" --view 1) || return 1
	printf '%s\t1\tcaught\tx\t1\t0123456789ab\t2026-01-01\t%s\n' \
		f1-killed-waiter-stays "$view" f1-limit-read-once 0123456789ab >> "$tmp/rows.tsv"
	SRC=$src python3 "$H/mutants-table.py" "$TOP/tests/mutants" "$tmp/rows.tsv" "$cur" > "$tmp/rows.md" &&
		expect "^| f1-gfp-nofs-waits | .* | \*\*caught\*\* | .*only other features' tests differ" "$tmp/rows.md" &&
		expect "^| f1-head-not-told | .* | \*\*caught (older tree $own)\*\*" "$tmp/rows.md" &&
		expect "^| f2-node-limit | .* | \*\*caught (older tree $other)\*\*" "$tmp/rows.md" &&
		expect "^| f1-killed-waiter-stays | .* | \*\*caught\*\* | .*only other features' tests differ" "$tmp/rows.md" &&
		expect "^| f1-limit-read-once | .* | \*\*caught (older tree 0123456789ab)\*\*" "$tmp/rows.md"
}
check "check-mutants: a row from a tree that differs only in other features' tests stays current (by the trees, or by its view when the old tree is gone)" t_mutants_tree

# --- Kconfig: a dropped option fails the config step -------------------------
t_config_drop() {
	[ -d "$TOP/build/linux" ] || { echo "no tree"; return 1; }
	# merge_config.sh only warns when MEM_SOFT_DIRTY loses CHECKPOINT_RESTORE.
	printf '# CONFIG_CHECKPOINT_RESTORE is not set\nCONFIG_MEM_SOFT_DIRTY=y\n' > "$tmp/drop.config"
	if OBJ=$tmp/obj "$H/configure.sh" "$tmp/drop.config" > "$tmp/log" 2>&1; then
		cat "$tmp/log"; echo "configure accepted a dropped option"; return 1
	fi
	expect 'CONFIG_MEM_SOFT_DIRTY=y requested by drop.config, but .config has n' "$tmp/log"
}
check "config: an option dropped by olddefconfig fails the config step" t_config_drop

# --- booting: exit status, watchdog, panic -----------------------------------
if [ "${SKIP_BOOT:-0}" != 1 ]; then
	boot() { RESULTS=$tmp/run CPUS=1 MEM=512M QUIET=1 "$H/boot.sh"; }
	t_exit0() { CMD='uname -r; true' boot; }
	t_exit3() { CMD='exit 3' boot; local rc=$?; [ "$rc" = 3 ] || { echo "rc=$rc"; return 1; }; }
	t_hang() {
		local t0=$SECONDS
		# 20 s: whether or not the guest has booted by then, the watchdog must end it
		if CMD='sleep 600' TIMEOUT=20 boot 2> "$tmp/err"; then echo "hung guest reported success"; return 1; fi
		expect 'watchdog: guest did not finish within 20s' "$tmp/err" && [ $((SECONDS - t0)) -lt 40 ]
	}
	t_panic() {
		if CMD='echo c > /proc/sysrq-trigger' TIMEOUT=120 boot 2> "$tmp/err"; then echo "panic reported success"; return 1; fi
		expect 'guest kernel panicked' "$tmp/err"
	}
	check "boot: guest exit status 0 comes back" t_exit0
	check "boot: guest exit status 3 comes back" t_exit3
	check "boot: a hung guest is ended by the watchdog" t_hang
	check "boot: a panicked guest ends the run with a clear error" t_panic
	t_make_run_cmd() { # a shell snippet with '$' runs as typed
		make -s -C "$TOP" run RESULTS="$tmp/run" QUIET=0 CMD='for s in a b; do echo "w=$s"; done; exit $((6 / 2))' > "$tmp/o" 2>&1
		local rc=$?	# make turns the guest's 3 into its own 2
		[ "$rc" != 0 ] && expect '^w=a' "$tmp/o" && expect '^w=b' "$tmp/o" &&
			expect 'guest command exited 3' "$tmp/o" || { echo "rc=$rc"; tail "$tmp/o"; return 1; }
	}
	check "boot: make run CMD with \$ variables runs as typed" t_make_run_cmd
	t_dead_suite_guest() { # a suite guest that dies is a failure, with its splat
		# the guest sees the project's tree, not the host's /tmp
		local die=$TOP/build/harness-test/die.sh
		mkdir -p "${die%/*}"
		printf '#!/bin/bash\necho "=== category: $1"\necho c > /proc/sysrq-trigger\n' > "$die"
		chmod +x "$die"
		SUITE_RUNNER="$die" SUITE_TIMEOUT=120 QUIET=1 "$H/suite.sh" "$tmp/suite" cow > "$tmp/o" 2>&1 || { tail "$tmp/o"; return 1; }
		expect $'^guest\tcow: the guest ended with status 1; first splat: Kernel panic' "$tmp/suite/results.tsv" ||
			{ tail "$tmp/o"; return 1; }
		if "$H/tap.py" compare /dev/null "$tmp/suite/results.tsv" > "$tmp/c"; then echo "compare passed a dead guest"; return 1; fi
	}
	check "suite: a guest that dies fails the run, with the console's first splat" t_dead_suite_guest
	t_parallel_suite_guests() { # SUITE_JOBS=2 (make test DEBUG=1): both guests report
		local die=$TOP/build/harness-test/die.sh t0=$SECONDS
		SUITE_RUNNER="$die" SUITE_OWN=ksm SUITE_JOBS=2 SUITE_TIMEOUT=120 QUIET=1 \
			"$H/suite.sh" "$tmp/psuite" cow ksm > "$tmp/o" 2>&1 || { tail "$tmp/o"; return 1; }
		expect $'^guest\tcow: the guest ended with status 1' "$tmp/psuite/results.tsv" &&
			expect $'^guest\tksm: the guest ended with status 1' "$tmp/psuite/results.tsv" &&
			[ -f "$tmp/psuite/ksm/console.log" ] || { tail "$tmp/o"; return 1; }
		echo "# two guests in $((SECONDS - t0)) s"
	}
	check "suite: guests side by side (SUITE_JOBS=2) both report, each in its directory" t_parallel_suite_guests
fi
exit $((fails > 0))
