# migrate-copy: fill on node 0, move_pages() to node 1, verify statuses and
# checksums (migrate_copy exits non-zero otherwise), report GB/s of the
# move_pages() call. The ceiling: a user-space memcpy node 0 -> 1 with 1 and
# 2 threads in the same guest.
bench_cases() {
	if [ "$QUICK" = 1 ]; then echo "4k-x4000 thp-x8 memcpy-2t"
	else echo "4k-x100000 thp-x195 thp-x512 memcpy-1t memcpy-2t"; fi
}
bench_run() {
	local out
	case $1 in
	4k-x*) out=$("$BIN/migrate_copy" -k 4k -n "${1#4k-x}" -r 2) ;;
	thp-x*) out=$("$BIN/migrate_copy" -k thp -n "${1#thp-x}" -r 2) ;;
	memcpy-*t) local t=${1#memcpy-}; out=$("$BIN/migrate_copy" -C "${t%t}" -b "$([ "$QUICK" = 1 ] && echo 128 || echo 512)" -r 3) ;;
	esac
	local rc=$?
	echo "$out" | grep -v '^result'
	echo "$out" | sed -n 's/^result //p' | tr ' ' '\n'
	return $rc
}
