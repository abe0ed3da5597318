#!/usr/bin/env bash
# make bisect-feature TEST='<command>': which feature of the series makes a
# test fail? Boots the patched kernel (every feature built in) once, runs the
# test with all features switched off by sysctl (it must pass: otherwise the
# failure is not any feature's), then with each feature on alone, and names
# the ones it fails with. The test is a shell command run in the guest as
# root, in this repository's directory, with the host's root filesystem
# read-only at the same paths (tmpfs on /tmp); exit status 0 means pass.
# Guest options as for make run (CPUS, MEM, NUMA, SWAP, DISKS, APPEND, TIMEOUT).
#
# PATCH=1: when one feature alone makes the test fail, go on and name its
# first failing patch with git bisect run over the feature's patches
# (harness/bisect-patch.sh: a kernel build and a boot per step).
#
# Exit status: 0 when the test passes with every feature off (the verdict is
# printed), 1 when it fails even then, 2 when the run itself went wrong.
. "$(dirname "$0")/common.sh"

[ -n "${TEST:-}" ] || die "usage: make bisect-feature TEST='<command>' [MEM=...]"
out=$BUILD/bisect/$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
printf '%s\n' "$TEST" > "$out/test.sh"
say "test: $TEST"
say "one boot: every feature off, then each on alone -> ${out#"$TOP"/}"
set +e
RESULTS=$out QUIET=${QUIET:-1} CMD="bash $TOP/harness/guest/bisect-feature.sh" \
	"$TOP/harness/boot.sh"
brc=$?
set -e
[ "$brc" = 0 ] || { say "the guest run failed (status $brc): see $out/console.log"; exit 2; }
lines=$(grep -a '^bisect: ' "$out/output.log" | tr -d '\r')
[ -n "$lines" ] || { say "no results in $out/output.log"; exit 2; }

echo
echo "| run | result |"
echo "|-----|--------|"
echo "$lines" | awk '{ r = $3; if (NF > 3) r = r " (status " $4 ")"; print "| " $2 " | " r " |" }'
echo
if ! grep -q '^bisect: all-off pass' <<< "$lines"; then
	echo "The test fails with every feature of the series off: no feature is to"
	echo "blame. Bisect the series itself (git bisect in build/linux) or the base."
	exit 1
fi
culprits=$(echo "$lines" | awk '$3 == "fail" { print $2 }')
if [ -z "$culprits" ]; then
	echo "The test passes with every feature on alone: no single feature makes it"
	echo "fail (try feature combinations, or a kernel built without the series)."
else
	n=$(echo "$culprits" | wc -l)
	while read -r c; do
		kc=$(awk -v s="${c%%=*}" '$1 == s { print $4 }' "$TOP/configs/feature-sysctls")
		# The feature's patches: from the first to the last that adds a
		# line naming its option (features are consecutive in the series)
		p=$(grep -l -e "^+.*${kc#CONFIG_}" "$TOP"/patches/[0-9]*.patch | grep -v /0000- |
			sed 's|.*/||' | cut -c1-4 | sed -n '1p;$p' | paste -sd-)
		echo "Fails with $c alone: the feature behind $kc (patches ${p:-?})."
		range=$p spec=$c
	done <<< "$culprits"
	[ "$n" = 1 ] || echo "($n features each make it fail on their own.)"
	if [ "${PATCH:-0}" = 1 ] && [ "$n" = 1 ] && [[ $range == [0-9]*-[0-9]* ]]; then
		"$TOP/harness/bisect-patch.sh" "$spec" "${range%-*}" "${range#*-}" "$out" || exit 2
	elif [ "${PATCH:-0}" = 1 ]; then
		echo "PATCH=1 bisects one feature's patches; not done here."
	fi
fi
exit 0
