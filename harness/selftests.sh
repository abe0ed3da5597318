#!/usr/bin/env bash
# Build and install the mm kselftests (with the series' own tests) for $OBJ
# into $OBJ/kselftest. The tests' build writes local_config.{h,mk} into the
# source directory, so it builds from a copy, never from build/linux.
. "$(dirname "$0")/common.sh"

dest=$OBJ/kselftest
# Uncommitted edits of the tests count too (while developing one).
# Untracked files too (a new test before its commit; Debian's .gitignore
# hides every file not yet added, so list them without it).
stamp=$(cd "$SRC" && gitk rev-parse HEAD)-$( { gitk diff HEAD -- tools/testing/selftests
	gitk ls-files -z -o -- tools/testing/selftests | (cd "$SRC" && xargs -0 -r sha1sum); } | sha1sum | cut -c1-12)-$(cat "$OBJ/.config-stamp" 2>/dev/null)
if [ -x "$dest/mm/run_vmtests.sh" ] && [ "$(cat "$dest/.stamp" 2>/dev/null)" = "$stamp" ]; then
	exit 0
fi
# One build per $OBJ at a time (two at once used to share one copy and
# break each other); the copy and objects are per $OBJ, so the normal, the
# debug and a check-mutants kernel's tests can build side by side.
exec {lock}> "$OBJ/.selftests.lock"
flock "$lock"
if [ -x "$dest/mm/run_vmtests.sh" ] && [ "$(cat "$dest/.stamp" 2>/dev/null)" = "$stamp" ]; then
	exit 0	# built by the holder of the lock meanwhile
fi
log=$OBJ/selftests.log
say "building mm selftests (log: ${log#"$TOP"/})"
make -s -C "$SRC" O="$OBJ" headers > "$log" 2>&1 || { tail -n 20 "$log" >&2; die "make headers failed"; }
copy=$OBJ/ksft-src
rm -rf "$copy" && mkdir -p "$copy"
# The selftests' build needs the whole tree (scripts/, mm/gup_test.h, lib/,
# include/vdso); a hard-linked copy costs seconds.
cp -al "$SRC/." "$copy/" && rm -rf "$copy/.git"
rm -rf "$dest" "$OBJ/ksft-obj"
# 6.12.117's khugepaged.c uses KSFT_SKIP without including kselftest.h.
make -C "$copy/tools/testing/selftests" TARGETS=mm O="$OBJ/ksft-obj" \
	KHDR_INCLUDES="-isystem $OBJ/usr/include" EXTRA_CFLAGS=-DKSFT_SKIP=4 \
	-j"$JOBS" install INSTALL_PATH="$dest" >> "$log" 2>&1 ||
	{ grep -E 'error|Error' "$log" | tail -n 20 >&2; die "selftests build failed (log: $log)"; }
[ -x "$dest/mm/run_vmtests.sh" ] || die "selftests install incomplete (log: $log)"
echo "$stamp" > "$dest/.stamp"
say "selftests in ${dest#"$TOP"/}"
