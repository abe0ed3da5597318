#!/usr/bin/env bash
# Install the host packages in harness/packages.txt that are missing.
. "$(dirname "$0")/common.sh"
mapfile -t pkgs < <(grep -v '^#' "$TOP/harness/packages.txt" | grep .)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} = 0 ] && exit 0
[ "$(id -u)" = 0 ] || die "missing packages: ${missing[*]} (run: sudo apt-get install ${missing[*]})"
say "installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >&2
apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
