#!/usr/bin/env bash
# checkpatch.pl --strict on every patch of the series: 0 errors, 0 warnings,
# 0 checks. patches/checkpatch.exceptions may list "<patch file> <TYPE>" pairs,
# each with a comment saying why; nothing else is tolerated.
. "$(dirname "$0")/common.sh"

exc=$TOP/patches/checkpatch.exceptions
pass=0 fail=0
for p in $(series_files); do
	name=${p##*/}
	ignore=
	[ ! -f "$exc" ] || ignore=$(awk -v n="$name" '$1 == n {printf "%s,", $2}' "$exc")
	out=$("$SRC/scripts/checkpatch.pl" --strict --no-tree --show-types \
		${ignore:+--ignore "${ignore%,}"} "$p" 2>&1) || true
	if grep -q 'total: 0 errors, 0 warnings, 0 checks' <<< "$out"; then
		echo "ok checkpatch $name"; pass=$((pass + 1))
	else
		echo "not ok checkpatch $name"; echo "$out" | sed 's/^/#   /'; fail=$((fail + 1))
	fi
done
echo "# checkpatch: $pass clean, $fail with findings"
[ "$fail" = 0 ]
