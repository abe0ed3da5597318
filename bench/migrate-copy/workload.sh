# migrate-copy: fill on node 0, move_pages() to node 1, verify statuses and
# checksums (migrate_copy exits non-zero otherwise), report GB/s of the
# move_pages() call and the CPU time the machine spent in it. With feature 5
# the call passes MPOL_MF_MOVE_MT and the variants switch vm.migrate_mt_copy;
# its tracepoint gives the time the batch copies took (mt_copy_ms, their
# helpers' share in mt_helper_ms). *-spin: a nice-0 spinner pinned to CPU 1
# runs meanwhile (the caller on CPU 0). The ceiling: a user-space memcpy
# node 0 -> 1 with 1 and 2 threads in the same guest.
MT=/proc/sys/vm/migrate_mt_copy
T=/sys/kernel/tracing/instances/migrate_copy_bench
bench_setup() {
	FLAGS=0
	[ -e $MT ] || return 0
	FLAGS=0x80	# MPOL_MF_MOVE_MT (bit 7)
	mkdir -p $T && echo 4096 > $T/buffer_size_kb &&
		echo 1 > $T/events/migrate_mt_copy/mm_migrate_mt_copy/enable
}
bench_teardown() {
	[ -d $T ] || return 0
	echo 0 > $T/events/migrate_mt_copy/mm_migrate_mt_copy/enable
	rmdir $T
}
bench_cases() {
	if [ "$QUICK" = 1 ]; then echo "4k-x4000 thp-x8 thp-x8-spin memcpy-2t"
	else echo "4k-x100000 thp-x195 thp-x512 thp-x195-spin memcpy-1t memcpy-2t"; fi
}
# Sum the batches traced during the run
trace_summary() {
	[ -d $T ] || return 0
	awk '/mm_migrate_mt_copy:/ {
		for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		n++; ns += v["ns"]; hns += v["helper_ns"]; hp += v["helper_pages"]; p += v["nr_pages"]
	} END {
		printf "mt_batches_traced=%d\nmt_copy_ms=%.3f\nmt_helper_ms=%.3f\nmt_helper_share=%.3f\n",
			n, ns / 1e6, hns / 1e6, p ? hp / p : 0
	}' $T/trace
}
bench_run() {
	local out spin=
	[ ! -d $T ] || : > $T/trace
	case $1 in
	*-spin) spin="-S 1" ;;
	esac
	case $1 in
	4k-x*) out=$("$BIN/migrate_copy" -k 4k -n "${1#4k-x}" -r 2 -F $FLAGS) ;;
	thp-x*) local n=${1#thp-x}; out=$("$BIN/migrate_copy" -k thp -n "${n%-spin}" -r 2 -F $FLAGS $spin) ;;
	memcpy-*t) local t=${1#memcpy-}; out=$("$BIN/migrate_copy" -C "${t%t}" -b "$([ "$QUICK" = 1 ] && echo 128 || echo 512)" -r 3) ;;
	esac
	local rc=$?
	echo "$out" | grep -v '^result'
	echo "$out" | sed -n 's/^result //p' | tr ' ' '\n'
	case $1 in memcpy-*) ;; *) trace_summary ;; esac
	return $rc
}
