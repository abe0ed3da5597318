# Shared settings for the host-side harness. Sourced, not run.
# shellcheck shell=bash
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$(realpath -m "${BUILD:-$TOP/build}")
SRC=$(realpath -m "${SRC:-$BUILD/linux}")   # git tree: base commit + series
# O= build directory (one per config); the debug kernel (DEBUG=1) has its
# own, so that switching between the two is not a full rebuild each time.
OBJ=$(realpath -m "${OBJ:-$BUILD/obj$([ "${DEBUG:-0}" != 1 ] || echo -debug)}")
PIN_FILE=$TOP/BASE_VERSION
BASE_PKG=linux-source-6.12
BASE_VERSION=$(sed -n 's/^version=//p' "$PIN_FILE")
BASE_TARBALL=/usr/src/linux-source-6.12.tar.xz
JOBS=${JOBS:-$(nproc)}

export KBUILD_BUILD_TIMESTAMP=${KBUILD_BUILD_TIMESTAMP:-2024-01-01}
export KBUILD_BUILD_USER=mm-series KBUILD_BUILD_HOST=harness
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
# The O= directory is part of every path the compiler sees; let ccache hit
# across trees and build directories anyway.
# -fmacro-prefix-map=<abs srctree>/= only maps paths away, so it need not be
# hashed; without this a clone in another folder would miss every object.
export CCACHE_BASEDIR=$BUILD CCACHE_NOHASHDIR=1 CCACHE_COMPILERCHECK=content
export CCACHE_IGNOREOPTIONS="-fmacro-prefix-map=*"

say() { printf '[%s] %s\n' "${0##*/}" "$*" >&2; }
die() { printf '[%s] ERROR: %s\n' "${0##*/}" "$*" >&2; exit 1; }

# The series' patch files, in order, without the cover letter.
series_files() {
	local p
	for p in "$TOP"/patches/[0-9]*.patch; do
		[ -e "$p" ] || return 0
		case ${p##*/} in 0000-*) ;; *) echo "$p" ;; esac
	done
}
series_sum() { series_files | xargs -r cat | sha1sum | cut -c1-40; }
gitk() { git -C "$SRC" -c user.name="mm series" -c user.email="mm-series@localhost" "$@"; }
