# generic-mm: does the series cost anything outside memory pressure?
# Fixed-time stress-ng runs (bogo_ops_per_s is the result) of the paths the
# series touches or sits next to, in a 2 GB guest that never reclaims:
#   malloc  60 threads (2 workers x 30) malloc/free, mmap above 4 KiB
#           (mmap/munmap heavy: the report that started this benchmark),
#           at most 4096 live allocations a thread (~250 MB a worker).
#           stress-ng's default (65536) grows with the ops done: 1.7 GB a
#           worker in 10 s on the host, so a faster run reclaimed and
#           OOM-killed in a 2 GB guest (run 20261202-210526: 2 kills in 3
#           "on" runs, which also ran 7-11% more ops), and the case
#           measured memory pressure, not the hooks.
#   mmap    mmap/munmap of 64 MiB regions, touched
#   fork    fork/exit
#   fault   minor and major page faults
#   build   a compile loop (bench/src built from scratch, -j2, N times):
#           fork/exec, page cache and anon faults; elapsed_s is the result.
#           The sources are copied to tmpfs first: built from the 9p share
#           after the driver's drop_caches, the loop was bimodal (25 or
#           34 s in either variant: run 20261203-060032, n=6).
# No feature is expected to act here (no reclaim, no migration, no swap):
# a difference is a cost of the hooks themselves.
SECS=20
bench_cases() {
	if [ "$QUICK" = 1 ]; then echo "malloc build"
	else echo "malloc mmap fork fault build"; fi
}
bench_setup() {
	rm -rf /tmp/src && cp -r "$TOP/bench/src" /tmp/src
}
bench_teardown() { rm -rf /tmp/src /tmp/bld; }
sng() { # stressor args...: fixed time, bogo ops/s from the metrics line
	local s=$1
	stress-ng --"$@" --timeout "${SECS}s" --metrics-brief > /tmp/sng.out 2>&1 || { tail -n 5 /tmp/sng.out; return 1; }
	awk -v s="$s" '$4 == s && $5 ~ /^[0-9.]+$/ {print "bogo_ops=" $5; print "bogo_ops_per_s=" $9}' /tmp/sng.out | head -n 2
}
bench_run() {
	case $1 in
	malloc) sng malloc 2 --malloc-pthreads 30 --malloc-thresh 4096 --malloc-max 4096 ;;
	mmap) sng mmap 2 --mmap-bytes 64M ;;
	fork) sng fork 2 ;;
	fault) sng fault 2 ;;
	build)
		local i n=$([ "$QUICK" = 1 ] && echo 1 || echo 3)
		for ((i = 0; i < n; i++)); do
			rm -rf /tmp/bld
			make -s -C /tmp/src O=/tmp/bld -j2 > /tmp/bld.out 2>&1 || { cat /tmp/bld.out; return 1; }
		done
		rm -rf /tmp/bld
		echo "builds=$n" ;;
	esac
}
