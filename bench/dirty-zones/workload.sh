# dirty-zones: write-<fs>: dd of MemTotal/2 (QUICK: 1/32) to a file on the
# throttled disk while memhog keeps 40% of RAM in hot anonymous memory and
# latprobe times pipe (GFP_KERNEL) allocations. zoneinfo is sampled every
# second: for each zone its share of the node's write-pending pages against
# its share of dirtyable memory (free + file LRU), averaged over the samples
# with write-pending pages. Reclaim throttling events from mm_vmscan_throttled.
T=/sys/kernel/tracing
bench_setup() {
	MEM_MB=$(( $(mem_kb MemTotal) / 1024 ))
	mkfs.xfs -q -f /dev/disk/data && mkdir -p /mnt/data && mount /dev/disk/data /mnt/data || return 1
	echo 0 > $T/tracing_on; echo > $T/set_event
	echo 1 > $T/events/vmscan/mm_vmscan_throttled/enable
}
# write-xfs: the hog holds 40% of RAM; write-xfs-hN: N% (a small hog leaves
# the highest zone, Normal, to the writer). burst-xfs: no hog, RAM/5 written
# into free memory, which the allocator takes from the highest zone first:
# where one zone's dirty pages pile up without zone-fair dirty limits (a
# streaming writer spreads once the highest zone is full of its own
# cleaned pages). excess_max_pages: the most write-pending
# pages any zone had above its dirty_limit (kernels that show one).
# full-xfs: the hog's 40% plus clean page cache (a sparse file read, no
# I/O) in 55% of RAM, then the RAM/5 burst: memory is full, so every page
# the writer gets is reclaimed first, where reclaim could meet the dirty
# pages (the other cases never reclaim: writer and hog fit in memory).
bench_cases() {
	if [ "$QUICK" = 1 ]; then echo "burst-xfs"; else echo "write-xfs write-xfs-h10 burst-xfs full-xfs"; fi
}
sample_zones() {
	while :; do
		awk '/^Node/ {z = $4} $1 == "nr_free_pages" {f[z] = $2}
		     $1 == "nr_zone_inactive_file" || $1 == "nr_zone_active_file" {l[z] += $2}
		     $1 == "nr_zone_write_pending" {w[z] = $2} $1 == "dirty_limit" {dl[z] = $2}
		     END {for (z in w) if (f[z] + l[z] > 0) printf "%s %d %d %d\n", z, w[z], f[z] + l[z], (z in dl) ? dl[z] : -1
		          print "--"}' /proc/zoneinfo
		sleep 1
	done
}
bench_run() {
	local mb=$(( MEM_MB / 2 )) hog_pct=40 fill_pct=0 rc hog=
	case $1 in
	burst-*) mb=$(( MEM_MB / 5 )) hog_pct=0 ;;
	full-*) mb=$(( MEM_MB / 5 )) fill_pct=55 ;;
	*-h[0-9]*) hog_pct=${1##*-h} ;;
	esac
	[ "$QUICK" = 1 ] && mb=$(( MEM_MB / 32 ))
	rm -f /mnt/data/big /mnt/data/fill; sync
	echo > $T/trace; echo 1 > $T/tracing_on
	[ "$hog_pct" = 0 ] || { "$BIN/memhog" -m $(( MEM_MB * hog_pct / 100 )) > /dev/null & hog=$!; }
	if [ "$fill_pct" != 0 ]; then
		truncate -s $(( MEM_MB * fill_pct / 100 ))M /mnt/data/fill && cat /mnt/data/fill > /dev/null || return 1
	fi
	"$BIN/latprobe" -d 3600 -k pipe > /tmp/probe.out & local probe=$!
	sample_zones > /tmp/zones.out & local sampler=$!
	sleep 3
	dd if=/dev/zero of=/mnt/data/big bs=1M count=$mb conv=fdatasync 2> /tmp/dd.out; rc=$?
	kill $sampler; kill -TERM $probe; wait $probe
	[ -z "$hog" ] || { kill $hog; wait $hog 2>/dev/null; }
	echo 0 > $T/tracing_on
	awk '/copied/ {for (i = 1; i <= NF; i++) if ($i ~ /^s,?$/) t = $(i - 1); print "writer_mbps=" $1 / t / 1048576}' /tmp/dd.out
	sed -n 's/^result //p' /tmp/probe.out | tr ' ' '\n' | sed -n 's/^\(p[0-9]*_us\|max_us\)=/probe_\1=/p'
	awk '$1 == "--" {if (tw > 1000) {n++; for (z in w) {ws[z] += w[z] / tw; ds[z] += d[z] / td
	                                          if (w[z] / tw > pk[z]) pk[z] = w[z] / tw}}
	                 tw = td = 0; delete w; delete d; next}
	     {w[$1] = $2; d[$1] = $3; tw += $2; td += $3; seen[$1] = 1
	      if ($4 >= 0) {lim = 1; if ($2 - $4 > ex) ex = $2 - $4}}
	     END {for (z in seen) if (n) printf "wp_share_%s=%.3f\ndirtyable_share_%s=%.3f\nwp_peak_share_%s=%.3f\n", z, ws[z] / n, z, ds[z] / n, z, pk[z];
	          print "zone_samples=" n + 0; if (lim) print "excess_max_pages=" ex + 0}' /tmp/zones.out
	grep -o 'reason=[A-Z_]*' $T/trace | sort | uniq -c | awk '{sub("reason=", "", $2); print "throttled_" $2 "=" $1}'
	rm -f /mnt/data/big /mnt/data/fill
	return $rc
}
bench_teardown() { echo 0 > $T/events/enable; umount /mnt/data; }
