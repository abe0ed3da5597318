#!/bin/bash
# In the guest: run the mm selftests (run_vmtests.sh), one category at a
# time, from a writable copy on tmpfs. Usage: mm-suite.sh KSFT_DIR CAT...
# Each category is introduced by '=== category: NAME' for tap.py.
ksft=$1; shift
[ -x "$ksft/mm/run_vmtests.sh" ] || { echo "no mm selftests in $ksft"; exit 2; }
rm -rf /tmp/ksft && cp -a "$ksft" /tmp/ksft && cd /tmp/ksft/mm || exit 2
# Reserve the huge pages run_vmtests.sh wants (256 MiB) before it starts:
# it reserves them itself, but gives them back after the userfaultfd tests
# whether or not they ran, so with one category per call the later ones
# (migration's hugetlb cases) would find none.
echo 3 > /proc/sys/vm/drop_caches
echo 1 > /proc/sys/vm/compact_memory 2>/dev/null
echo "${HUGEPAGES:-128}" > /proc/sys/vm/nr_hugepages
echo "huge pages reserved: $(cat /proc/sys/vm/nr_hugepages)"
for c in "$@"; do
	echo "=== category: $c"
	t0=$(date +%s)
	# Each test's start goes to the kernel log too, so that a splat on the
	# console names the test that was running (tap.py splats).
	# stdbuf: run_vmtests.sh prefixes each test's output with sed, which
	# would hold it until the test ends; line by line, a slow or stuck test
	# shows how far it got.
	stdbuf -oL ./run_vmtests.sh -t "$c" 2>&1 | while IFS= read -r line; do
		printf '%s\n' "$line"
		case $line in "# running "*) echo "mm-harness: running $c: ${line#\# running }" > /dev/kmsg ;; esac
	done
	echo "=== category $c: exit ${PIPESTATUS[0]} in $(( $(date +%s) - t0 ))s"
done
