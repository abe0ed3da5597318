#!/usr/bin/env bash
# make stress [DURATION=600] [DEBUG=1] [TCG=single|multi] [STORM=200]
#             [OOM_TASKS=100] [OOM_REPS=1]:
# the features switched at random every 100 ms under a mixed memory-pressure
# load (harness/guest/stress.sh says what runs and what is checked), then
# OOM at scale, features off vs on (harness/guest/oom-scale.sh), in one
# guest: 3 vCPUs, 2 GiB in 2 NUMA nodes, 1 GiB swap, an 8 GiB disk for xfs. Single-threaded TCG by
# default: the load switches static keys, and multi-threaded TCG can die of
# its text-patching fault under load (docs/booting.md). Any splat on the console
# fails too. Ends with 'N passed, N failed'; logs in build/stress/<time>/.
# The guest runs copies of its scripts: bash reads a script as it goes, and
# an edit to the tree during a run would change the running one.
. "$(dirname "$0")/common.sh"
. "$TOP/configs/test-categories"	# DEBUG_APPEND

dur=${DURATION:-600}
out=$BUILD/stress/$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
"$TOP/harness/build.sh"
make -s -C "$TOP/bench/src" O="$BUILD/bench-bin" >&2 || die "bench programs do not build"
set +e
# xfs on a disk of its own: on a loop device over tmpfs, the writer's
# writeback would need the guest's memory to complete (the loop worker
# allocates the backing file's pages), which the storm takes away.
RESULTS=$out CPUS=${STRESS_CPUS:-3} MEM=${STRESS_MEM:-2G} NUMA=2 SWAP=1G DISKS="scratch:8G" TCG=${TCG:-single} \
	TIMEOUT=$(( dur * 3 + 1800 )) QUIET=0 APPEND="$([ "${DEBUG:-0}" != 1 ] || echo "$DEBUG_APPEND") ${APPEND:-}" \
	CMD="cp $TOP/harness/guest/stress.sh $TOP/harness/guest/oom-scale.sh /tmp/ || exit 2
		STORM=${STORM:-200} /tmp/stress.sh $dur; a=\$?
		/tmp/oom-scale.sh ${OOM_TASKS:-100} ${OOM_REPS:-1}; exit \$(( a | \$? ))" "$TOP/harness/boot.sh"
rc=$?
set -e
{
	grep -E '^(ok|not ok) ' "$out/output.log" 2>/dev/null || true
	"$TOP/harness/tap.py" splats "$out/console.log" stress | awk -F'\t' '{ print ($3 == "pass" ? "ok " : "not ok ") $2 }'
	[ "$rc" = 0 ] || [ "$rc" = 1 ] || echo "not ok stress: the guest ended with status $rc"
	for part in stress oom-scale; do
		grep -q "^$part: [0-9]* failed" "$out/output.log" 2>/dev/null || echo "not ok $part: the guest script did not finish"
	done
} > "$out/results.txt"
cat "$out/results.txt"
p=$(grep -c '^ok ' "$out/results.txt" || true) f=$(grep -c '^not ok ' "$out/results.txt" || true)
say "logs: ${out#"$TOP"/}"
echo "$p passed, $f failed"
[ "$f" = 0 ]
