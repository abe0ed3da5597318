#!/usr/bin/env bash
# Build bzImage + modules (installed into $OBJ/mod) for the configured $OBJ.
# Progress: one line per 200 objects compiled, and the elapsed time.
. "$(dirname "$0")/common.sh"

"$TOP/harness/configure.sh" "$@"
command -v ccache >/dev/null || die "ccache missing (apt-get install ccache)"
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
say "built $(cat "$OBJ/include/config/kernel.release") in $(( $(date +%s) - start )) s"
