#!/usr/bin/env bash
# check-config.sh .config fragment...: every option a fragment sets (=y, =m,
# =value or "is not set") must have exactly that value in .config.
set -u
cfg=$1; shift
bad=0
for frag in "$@"; do
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*) opt=${line%%=*} want=${line#*=} ;;
		"# CONFIG_"*" is not set") opt=${line#\# } opt=${opt%% *} want=n ;;
		*) continue ;;
		esac
		have=$(sed -n "s/^$opt=//p" "$cfg")
		[ -n "$have" ] || have=n
		if [ "$have" != "$want" ]; then
			printf 'check-config: %s=%s requested by %s, but .config has %s\n' \
				"$opt" "$want" "${frag##*/}" "$have" >&2
			bad=1
		fi
	done < "$frag"
done
exit $bad
