#!/usr/bin/env bash
# Run mm selftest categories in one guest and write per-test results.
# Usage: suite.sh OUTDIR CAT...   -> OUTDIR/results.tsv (+ logs)
# KUnit results of the same boot (built-in suites, KTAP on the console) are
# included as category 'kunit'.
. "$(dirname "$0")/common.sh"
. "$TOP/configs/test-categories"

out=$1; shift
mkdir -p "$out"
"$TOP/harness/selftests.sh"
set +e
RESULTS=$out CPUS=$SUITE_CPUS MEM=$SUITE_MEM NUMA=$SUITE_NUMA SWAP=$SUITE_SWAP \
	TIMEOUT=${SUITE_TIMEOUT:-3600} QUIET=${QUIET:-0} \
	CMD="$TOP/harness/guest/mm-suite.sh $OBJ/kselftest $*" "$TOP/harness/boot.sh"
rc=$?
set -e
{
	"$TOP/harness/tap.py" ktap "$out/console.log"
	[ ! -f "$out/output.log" ] || "$TOP/harness/tap.py" vmtests "$out/output.log"
} > "$out/results.tsv"
grep -h '^=== category .*: exit' "$out/output.log" 2>/dev/null | sed 's/^=== /  /' >&2 || true
# A guest that died still leaves the results it got; the caller's compare
# reports what is missing.
[ "$rc" = 0 ] || say "guest run ended with status $rc (per-test results are in $out/results.tsv)"
exit 0
