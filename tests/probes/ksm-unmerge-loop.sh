#!/bin/bash
# Why ksm_tests -U ("KSM unmerging") fails now and then, on the base as on
# the series (docs/testing.md, "Known flaky results"). Runs -M -p 10 then
# -U, as run_vmtests.sh orders them, N times, and counts -U's failures.
# -U merges two pages, writes one byte in each, waits for one full KSM
# scan (full_scans + 1) and asserts pages_shared and pages_sharing are 0;
# a pass that was already under way when the pages changed ends the wait,
# and the previous test's exited mm is dropped only when a scan reaches it.
#
#   make run KERNEL=build/base/obj/arch/x86/boot/bzImage CPUS=3 MEM=2G \
#        NUMA=2 CMD='tests/probes/ksm-unmerge-loop.sh 40 DIR'
# DIR holds ksm_tests (a copy: make test rebuilds build/obj/kselftest).
n=${1:-30} dir=${2:-$(dirname "$0")/../../build/obj/kselftest/mm}
cd "$dir" || exit 2
fail=0
for i in $(seq "$n"); do
	./ksm_tests -M -p 10 > /dev/null 2>&1
	if ! ./ksm_tests -U > /tmp/ksm-u.log 2>&1; then
		fail=$((fail + 1))
		echo "run $i: -U failed"
	fi
done
echo "ksm-unmerge-loop: $fail of $n -U runs failed on $(uname -r)"
