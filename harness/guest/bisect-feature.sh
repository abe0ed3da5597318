#!/bin/bash
# In the guest: run the test in /run/results/test.sh with every feature of the
# series switched off, then with each feature on alone (configs/feature-sysctls),
# and print one 'bisect: <run> <status>' line per run for the host to read.
# The sysctls are put back as they were at the end. ONLY=<sysctl>=<value>
# runs just that one (make bisect-feature PATCH=1, a step of git bisect run).
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/harness/guest/features.sh"
features_read "$TOP"
names=("${feat_name[@]}") offs=("${feat_off[@]}") ons=("${feat_on[@]}") saved=("${feat_saved[@]}")
path() { sysctl_path "$1"; }
all_off() {
	local i
	for i in "${!names[@]}"; do
		[ -z "${saved[i]}" ] || echo "${offs[i]}" > "$(path "${names[i]}")" || return 1
	done
}
run() { # label
	local rc
	echo "=== bisect: running '$1'"
	(cd "$TOP" && exec bash /run/results/test.sh) > "/run/results/test-$1.log" 2>&1 </dev/null
	rc=$?
	sed 's/^/    | /' "/run/results/test-$1.log" | tail -n 20
	if [ "$rc" = 0 ]; then echo "bisect: $1 pass"; else echo "bisect: $1 fail $rc"; fi
}
all_off || { echo "bisect: cannot switch the features off"; exit 2; }
[ -n "${ONLY:-}" ] || run all-off
for i in "${!names[@]}"; do
	[ -z "${ONLY:-}" ] || [ "$ONLY" = "${names[i]}=${ons[i]}" ] || continue
	if [ -z "${saved[i]}" ]; then
		echo "bisect: ${names[i]}=${ons[i]} absent"
		continue
	fi
	all_off
	if ! echo "${ons[i]}" > "$(path "${names[i]}")"; then
		echo "bisect: ${names[i]}=${ons[i]} cannot-set"
		continue
	fi
	run "${names[i]}=${ons[i]}"
done
for i in "${!names[@]}"; do
	[ -z "${saved[i]}" ] || echo "${saved[i]}" > "$(path "${names[i]}")"
done
exit 0
