# Sourced in the guest: the series' feature switches from configs/feature-sysctls.
# features_read fills feat_name, feat_off, feat_on, feat_kconfig (every line)
# and feat_saved (the current value, empty when this kernel lacks the sysctl).
# shellcheck shell=bash
sysctl_path() { echo "/proc/sys/${1//.//}"; }
features_read() {
	local top=$1 name off on kc
	feat_name=() feat_off=() feat_on=() feat_kconfig=() feat_saved=()
	while read -r name off on kc; do
		case $name in "" | \#*) continue ;; esac
		feat_name+=("$name") feat_off+=("$off") feat_on+=("$on") feat_kconfig+=("$kc")
		feat_saved+=("$(cat "$(sysctl_path "$name")" 2>/dev/null)")
	done < "$top/configs/feature-sysctls"
}
