#!/usr/bin/env bash
# Build bzImage + modules (installed into $OBJ/mod) for the configured $OBJ.
# Progress: one line per 200 objects compiled, and the elapsed time.
. "$(dirname "$0")/common.sh"

"$TOP/harness/configure.sh" "$@"
command -v ccache >/dev/null || die "ccache missing (apt-get install ccache)"
# Nothing to do when the sources and .config are those of the last good
# build: a no-op kbuild run costs over a minute on 2 cores. The stamp covers
# committed, modified and untracked sources (all of them: Debian's .gitignore
# ignores everything at the top level); FORCE_BUILD=1 skips the check.
stamp=
if [ -e "$SRC/.git" ]; then
	stamp=$( { gitk rev-parse 'HEAD^{tree}'; gitk diff HEAD; cat "$OBJ/.config"
		gitk ls-files -z -o | (cd "$SRC" && xargs -0 -r sha256sum); } | sha256sum | cut -c1-16)
	if [ "${FORCE_BUILD:-0}" != 1 ] && [ -f "$OBJ/arch/x86/boot/bzImage" ] && [ -d "$OBJ/mod" ] &&
		[ "$(cat "$OBJ/.build-stamp" 2>/dev/null)" = "$stamp" ]; then
		say "$(cat "$OBJ/include/config/kernel.release") in ${OBJ#"$TOP"/} is up to date (sources and .config as at its last build)"
		exit 0
	fi
	rm -f "$OBJ/.build-stamp"	# a build stopped halfway leaves none
fi
log=$OBJ/build.log
start=$(date +%s)
say "building $(make -s -C "$SRC" O="$OBJ" kernelrelease 2>/dev/null) in ${OBJ#"$TOP"/} with -j$JOBS (log: ${log#"$TOP"/})"
set +e
make -C "$SRC" O="$OBJ" CC="ccache gcc" HOSTCC="ccache gcc" -j"$JOBS" bzImage modules 2>&1 |
	tee "$log" | awk '/^  CC /{n++; if (n % 200 == 0) { printf "[build.sh] %d objects compiled\n", n; fflush() } }
		/error:|Error [0-9]/{print; fflush()}' >&2
rc=${PIPESTATUS[0]}
set -e
if [ "$rc" != 0 ]; then
	say "last lines of $log:"; grep -v '^  ' "$log" | tail -n 25 >&2
	die "kernel build failed (rc=$rc)"
fi
rm -rf "$OBJ/mod"
make -s -C "$SRC" O="$OBJ" INSTALL_MOD_PATH="$OBJ/mod" INSTALL_MOD_STRIP=1 modules_install >> "$log" 2>&1 ||
	die "modules_install failed (see $log)"
[ -z "$stamp" ] || echo "$stamp" > "$OBJ/.build-stamp"
say "built $(cat "$OBJ/include/config/kernel.release") in $(( $(date +%s) - start )) s"
