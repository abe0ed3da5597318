# Guest-side helpers for the benchmarks (sourced by driver.sh).

# The /proc/vmstat counters every run reports as deltas.
VMSTAT_KEYS="pgmajfault pswpin pswpout allocstall_dma32 allocstall_normal allocstall_movable
pgscan_direct pgscan_kswapd pgsteal_direct pgsteal_kswapd pgscan_direct_throttle
nr_vmscan_write nr_vmscan_immediate_reclaim workingset_refault_anon workingset_refault_file
workingset_activate_anon workingset_activate_file workingset_nodereclaim pgmigrate_success
pgmigrate_fail oom_kill pgrotated compact_stall thp_fault_alloc thp_fault_fallback"
# Counters a patched kernel may add: reported when present.
VMSTAT_KEYS_EXTRA=$(grep -v '^#' "$TOP/configs/feature-vmstat" 2>/dev/null)

# A snapshot: /proc/vmstat and the memory PSI totals (psi_mem_some/full,
# microseconds) as key=value lines.
snapshot() {
	awk '{print $1 "=" $2}' /proc/vmstat
	awk '{for (i = 2; i <= NF; i++) if (sub(/^total=/, "", $i)) print "psi_mem_" $1 "=" $i}' \
		/proc/pressure/memory 2>/dev/null
}
snap_before() { snapshot > /tmp/snap.0; }
snap_after() { snapshot > /tmp/snap.1; }
# The deltas, in one awk (a sed per key cost 18 s a run under TCG)
snap_delta() {
	awk -v keys="$VMSTAT_KEYS $VMSTAT_KEYS_EXTRA psi_mem_some psi_mem_full" -F= '
		NR == FNR { a[$1] = $2; next }
		{ b[$1] = $2 }
		END {
			n = split(keys, k, /[ \t\n]+/)
			for (i = 1; i <= n; i++) {
				if (!(k[i] in a && k[i] in b))
					continue
				if (k[i] ~ /^psi_/)
					printf "%s_ms=%d\n", k[i], (b[k[i]] - a[k[i]]) / 1000
				else
					printf "%s=%.0f\n", k[i], b[k[i]] - a[k[i]]
			}
		}' /tmp/snap.0 /tmp/snap.1
}

# A variant is a comma-separated list of settings:
#   lru=classic|mglru        /sys/kernel/mm/lru_gen/enabled
#   vm.NAME=VALUE            a sysctl
#   features=off|on          every sysctl in configs/feature-sysctls that
#                            the kernel has, at its off or on value
#   base                     no setting (the name documents the intent)
apply_variant() {
	local s
	for s in ${1//,/ }; do
		case $s in
		lru=classic) echo n > /sys/kernel/mm/lru_gen/enabled || return 1 ;;
		lru=mglru) echo y > /sys/kernel/mm/lru_gen/enabled || return 1 ;;
		vm.*=*) s=${s#vm.}; echo "${s#*=}" > "/proc/sys/vm/${s%%=*}" 2>/dev/null ||
			{ echo "sysctl ${s%%=*} not available"; return 1; } ;;
		features=off | features=on) # every feature sysctl the kernel has
			local col=$([ "${s#features=}" = off ] && echo 2 || echo 3) k v
			# (no /dev/fd in the guest: no process substitution)
			awk -v c="$col" '!/^#/ && NF {print $1, $c}' "$TOP/configs/feature-sysctls" > /tmp/features.v
			while read -r k v; do
				[ ! -e "/proc/sys/${k//.//}" ] || echo "$v" > "/proc/sys/${k//.//}" || return 1
			done < /tmp/features.v ;;
		base | off | on) ;;
		*) echo "unknown variant setting $s"; return 1 ;;
		esac
	done
}
# Same starting point for every run: no page cache, compacted, swap emptied.
prepare_run() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
	local d
	for d in $(awk 'NR > 1 {print $1}' /proc/swaps); do
		swapoff "$d" && swapon "$d"
	done
	echo 1 > /proc/sys/vm/compact_memory 2>/dev/null
	sleep 1
}
mem_kb() { awk -v k="$1" '$1 == k ":" {print $2}' /proc/meminfo; }

# Defaults a workload may override.
bench_setup() { :; }
bench_teardown() { :; }
