#!/usr/bin/env bash
# Make sure the pinned base package is installed; print the tarball path.
# BASE_ANY_VERSION=1 accepts whatever linux-source-6.12 is installed.
. "$(dirname "$0")/common.sh"

have=$(dpkg-query -W -f '${Version}' "$BASE_PKG" 2>/dev/null || true)
if [ -z "$have" ]; then
	say "installing $BASE_PKG=$BASE_VERSION"
	[ "$(id -u)" = 0 ] || die "$BASE_PKG missing; run: sudo apt-get install $BASE_PKG=$BASE_VERSION"
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
		"$BASE_PKG=$BASE_VERSION" >&2 ||
		{ apt-get update >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y \
			--no-install-recommends "$BASE_PKG=$BASE_VERSION" >&2; } ||
		die "cannot install $BASE_PKG=$BASE_VERSION"
	have=$(dpkg-query -W -f '${Version}' "$BASE_PKG")
fi
if [ "$have" != "$BASE_VERSION" ] && [ "${BASE_ANY_VERSION:-0}" != 1 ]; then
	die "installed $BASE_PKG is $have but the series is pinned to $BASE_VERSION.
    Install the pin:   apt-get install $BASE_PKG=$BASE_VERSION
    or override once:  make ... BASE_ANY_VERSION=1   (results then are not comparable)"
fi
[ -f "$BASE_TARBALL" ] || die "$BASE_TARBALL missing although $BASE_PKG is installed"
echo "$BASE_TARBALL"
