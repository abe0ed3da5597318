#!/usr/bin/env bash
# Write $OBJ/.config: x86_64_defconfig + kvm_guest.config + our fragments.
# Usage: configure.sh [fragment...]   (fragments beyond the defaults)
# FEATURES=all (default) turns on configs/features.config; FEATURES=none leaves
# every feature option off; FEATURES="CONFIG_A CONFIG_B" turns on just those.
# DEBUG=1 adds configs/debug.config.
# Fails if a requested option does not survive olddefconfig: merge_config.sh
# only warns when a dependency is missing, and a silently dropped option means
# tests that quietly SKIP.
. "$(dirname "$0")/common.sh"

[ -d "$SRC" ] || die "no kernel tree; run 'make tree'"
mkdir -p "$OBJ"
frags=("$TOP/configs/guest.config" "$TOP/configs/trim.config")
required=("$TOP/configs/guest.config")
feat=$OBJ/.features.config
: > "$feat"
features=${FEATURES:-all}
# An option is only requested if the applied series defines it.
defined() { grep -rqs --include='Kconfig*' -x "config ${1#CONFIG_}" "$SRC/mm" "$SRC/init" "$SRC/lib" "$SRC/kernel"; }
while read -r line; do
	case $line in CONFIG_*=*) ;; *) continue ;; esac
	opt=${line%%=*}
	defined "$opt" || continue
	case " $features " in
	" all ") echo "$line" ;;
	" none ") echo "# $opt is not set" ;;
	*" $opt "*) echo "$line" ;;
	*) echo "# $opt is not set" ;;
	esac
done < "$TOP/configs/features.config" >> "$feat"
frags+=("$feat"); required+=("$feat")
if [ "${DEBUG:-0}" = 1 ]; then frags+=("$TOP/configs/debug.config"); required+=("$TOP/configs/debug.config"); fi
for f in "$@"; do frags+=("$f"); required+=("$f"); done

stamp=$(cat "${frags[@]}" | sha1sum | cut -c1-12)-$(series_sum | cut -c1-12)
if [ -f "$OBJ/.config" ] && [ "$(cat "$OBJ/.config-stamp" 2>/dev/null)" = "$stamp" ]; then
	exit 0
fi
say "configuring $OBJ (${frags[*]##*/})"
log=$OBJ/configure.log
{
	make -C "$SRC" O="$OBJ" x86_64_defconfig &&
	make -C "$SRC" O="$OBJ" kvm_guest.config &&
	"$SRC/scripts/kconfig/merge_config.sh" -m -O "$OBJ" "$OBJ/.config" "${frags[@]}" &&
	make -C "$SRC" O="$OBJ" olddefconfig
} > "$log" 2>&1 || { tail -n 30 "$log" >&2; die "configuration failed (log: $log)"; }

"$TOP/harness/check-config.sh" "$OBJ/.config" "${required[@]}" ||
	die "requested options were dropped (their dependencies are missing); fix the fragment"
echo "$stamp" > "$OBJ/.config-stamp"
