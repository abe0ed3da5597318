#!/usr/bin/env bash
# Boot the built kernel under QEMU with the host's root filesystem (read-only,
# virtio-9p) and run one command in it; its exit status is ours.
#
#   CMD='...'      command for the guest (bash -c); empty + a terminal: shell
#   CPUS=2 MEM=2G  vCPUs and memory          NUMA=N   N NUMA nodes (QEMU -numa)
#   SWAP=1G        swap disk (SWAP=zram:1G for zram instead); SWAP_BPS=bytes/s
#   DISKS='name:size[:bps] ...'  scratch disks, /dev/disk/<name> in the guest
#   APPEND='...'   extra kernel command line   TIMEOUT=s  watchdog (1800)
#   RESULTS=dir    writable share, /run/results in the guest (default: new dir
#                  under build/runs/); console.log and output.log land there
#   KERNEL=bzImage MODROOT=dir (modules_install root)  ACCEL=auto|kvm|tcg
#   PREALLOC=1     allocate all guest RAM on the host at start: no host page
#                  faults on the guest's first touch (benchmarks that time it)
. "$(dirname "$0")/common.sh"

KERNEL=${KERNEL:-$OBJ/arch/x86/boot/bzImage}
MODROOT=${MODROOT:-$OBJ/mod}
CPUS=${CPUS:-2} MEM=${MEM:-2G} NUMA=${NUMA:-0}
TIMEOUT=${TIMEOUT:-1800}
QEMU=${QEMU:-qemu-system-x86_64}
[ -f "$KERNEL" ] || die "no kernel at $KERNEL; run 'make build'"
command -v "$QEMU" >/dev/null || die "$QEMU missing (apt-get install qemu-system-x86)"

RESULTS=${RESULTS:-$BUILD/runs/$(date +%Y%m%d-%H%M%S)-$$}
mkdir -p "$RESULTS/.guest"
RESULTS=$(cd "$RESULTS" && pwd)
rm -f "$RESULTS/.guest/rc" "$RESULTS/console.log"

mib() { # 2G, 512M, 1024 -> MiB
	case $1 in *G | *g) echo $(( ${1%?} * 1024 )) ;; *M | *m) echo "${1%?}" ;; *) echo "$1" ;; esac
}
mem=$(mib "$MEM")
accel=$("$TOP/harness/accel.sh" "$KERNEL")
# With NUMA nodes, one socket per vCPU: QEMU's default (one socket, N cores)
# puts every vCPU in one last-level cache across the nodes, and the kernel
# warns at boot (topology_sane: "llc-sibling CPU #0 is not on the same node").
smp=$CPUS
[ "$NUMA" -le 1 ] || smp="$CPUS,sockets=$CPUS,cores=1,threads=1"
args=(-nodefaults -no-reboot -display none -m "${mem}M" -smp "$smp")
prealloc=
if [ "${PREALLOC:-0}" = 1 ]; then
	prealloc=,prealloc=on
	[ "$NUMA" -gt 1 ] || args+=(-mem-prealloc)
fi
# TCG=single: one host thread runs every vCPU in turn. Slower, but free of
# multi-threaded TCG's text-patching fault (see docs/booting.md), for runs that
# switch static keys under load (make stress).
if [ "$accel" = kvm ]; then args+=(-accel kvm -cpu host); else args+=(-accel "tcg,thread=${TCG:-multi}" -cpu max); fi

if [ "$NUMA" -gt 1 ]; then
	per=$(( mem / NUMA ))
	for ((n = 0; n < NUMA; n++)); do
		lo=$(( n * CPUS / NUMA )) hi=$(( (n + 1) * CPUS / NUMA - 1 ))
		[ "$hi" -ge "$lo" ] || die "NUMA=$NUMA needs at least $NUMA CPUs"
		args+=(-object "memory-backend-ram,id=m$n,size=${per}M$prealloc"
		       -numa "node,nodeid=$n,cpus=$lo-$hi,memdev=m$n")
	done
fi

# Host root, read-only; the results directory, writable.
args+=(-fsdev "local,id=root,path=/,security_model=none,readonly=on,multidevs=remap"
       -device virtio-9p-pci,fsdev=root,mount_tag=/dev/root
       -fsdev "local,id=res,path=$RESULTS,security_model=none,multidevs=remap"
       -device virtio-9p-pci,fsdev=res,mount_tag=results)

# Disks: fresh sparse images under build/disks, one set per boot (guests
# may run side by side: make test DEBUG=1), removed when the guest ends.
disks=() env_disks=""
swap=${SWAP:-}
case $swap in "" | 0 | zram:*) ;; *) disks+=("swap:$swap:${SWAP_BPS:-}") ;; esac
for d in ${DISKS:-}; do disks+=("$d"); done
mkdir -p "$BUILD/disks"
trap 'rm -f "$BUILD/disks/$$-"*.img' EXIT
i=0
for d in "${disks[@]}"; do
	IFS=: read -r name size bps <<< "$d"
	img=$BUILD/disks/$$-$name.img
	rm -f "$img" && truncate -s "$size" "$img"
	thr=""
	[ -z "$bps" ] || thr=",throttling.bps-total=$bps"
	args+=(-drive "file=$img,if=none,id=d$i,format=raw,cache=writeback$thr"
	       -device "virtio-blk-pci,drive=d$i,serial=$name")
	env_disks+="$name=/dev/vd$(printf "\\x$(printf %x $((97 + i)))") "
	i=$((i + 1))
done

# What the guest's init reads.
{
	printf 'ACCEL=%q\nMODROOT=%q\nTOP=%q\nDISKS=%q\nSWAP=%q\nINTERACTIVE=%q\n' \
		"$accel" "$MODROOT" "$TOP" "$env_disks" "$swap" "$([ -z "${CMD:-}" ] && echo 1 || echo 0)"
} > "$RESULTS/.guest/env"
printf '%s\n' "${CMD:-}" > "$RESULTS/.guest/cmd"

append="console=ttyS0 root=/dev/root rootfstype=9p ro init=$TOP/harness/guest/init"
append+=" rootflags=trans=virtio,version=9p2000.L,msize=262144,cache=loose"
append+=" panic=-1"
# Under TCG the clocksource watchdog sometimes finds the emulated TSC skewed
# (a vCPU thread the host did not run) and marks it unstable at any time of
# a run (35 s into one benchmark). That switches the clocksource mid-run and
# disables sched_clock's static key (kernel/sched/clock.c), patching
# sched_clock_cpu() while the other vCPUs call it from interrupts: the
# multi-threaded TCG fault of docs/booting.md. A CI run of the reclaim-storm
# smoke benchmark died of "Fatal exception in interrupt" at 21.5 s. The
# emulated TSC follows the host's clock, so tell the kernel to trust it
# (Documentation/admin-guide/kernel-parameters.txt: "in virtualized
# environment").
[ "$accel" = kvm ] || append+=" tsc=reliable"
# RCU's stall detector at 100 s under TCG (21 s by default): an emulated
# guest runs 3-20x slower than the hardware the default is for, and under
# memory pressure the grace-period kthread, runnable, was starved 21-26 s
# on both kernels, with every feature off too (make stress DEBUG=1 and a
# make test's direct_reclaim_throttle, 2026-12-07). A longer stall is a
# failure (harness/tap.py counts 'rcu: INFO: ... detected stall').
[ "$accel" = kvm ] || append+=" rcupdate.rcu_cpu_stall_timeout=100"
# A KASAN kernel boots with 4-level paging. '-cpu max' offers LA57 and 6.12
# then runs 5-level; identify_cpu() zeroes boot_cpu_data.x86_capability
# (arch/x86/kernel/cpu/common.c) and an interrupt in that window sees
# pgtable_l5_enabled() false, so KASAN's addr_has_metadata() takes the
# 0xff11... direct map for a wild address: "BUG: KASAN: wild-memory-access in
# do_raw_spin_lock" from handle_edge_irq at ~2 s, in the base kernel as well.
kconfig=${KERNEL%/arch/x86/boot/bzImage}/.config
! grep -qx 'CONFIG_KASAN=y' "$kconfig" 2>/dev/null || append+=" no5lvl"
append+=" ${APPEND:-}"
say "booting $(file -b "$KERNEL" | sed -n 's/.*version \([^ ]*\).*/\1/p') accel=$accel${TCG:+ ($TCG-threaded)} cpus=$CPUS mem=${mem}M numa=$NUMA${swap:+ swap=$swap}${DISKS:+ disks=$DISKS}"

if [ -z "${CMD:-}" ]; then
	[ -t 0 ] || die "no CMD and no terminal: nothing to run"
	say "interactive shell; leave with 'exit' (or Ctrl-A X)"
	"$QEMU" "${args[@]}" -serial mon:stdio -kernel "$KERNEL" -append "$append"
	exit 0
fi

# Batch: the console goes to console.log; the terminal sees the guest's
# output from the start marker on. The watchdog kills a hung guest.
#
# One retry, only for a known emulator fault: under multi-threaded TCG a vCPU
# can execute a stale int3 that the kernel's text patching (static keys,
# static calls) has already removed, and the kernel dies with "Oops: int3" at
# a patched site. If that happens during boot, before init has started the
# command, nothing of the command ran, so booting again is safe; the first
# console is kept as console.boot1.log. Any other early death is not retried.
start=$(date +%s)
for attempt in 1 2; do
	set +e
	timeout -s KILL "$TIMEOUT" "$QEMU" "${args[@]}" -serial stdio -kernel "$KERNEL" \
		-append "$append" < /dev/null 2>"$RESULTS/qemu.stderr" |
		tee "$RESULTS/console.log" |
		awk -v quiet="${QUIET:-0}" '/^=== mm-harness: start/{on=1} on && quiet != 1 {sub(/\r$/, ""); print; fflush()}'
	qrc=${PIPESTATUS[0]}
	set -e
	[ "$attempt" = 1 ] && [ "$accel" = tcg ] && [ ! -f "$RESULTS/.guest/rc" ] || break
	grep -q '^=== mm-harness: start' "$RESULTS/console.log" && break
	grep -aq 'Oops: int3' "$RESULTS/console.log" || break
	mv "$RESULTS/console.log" "$RESULTS/console.boot1.log"
	say "guest died in boot with 'Oops: int3' (TCG text-patching fault, see docs/booting.md); booting again (first console: ${RESULTS#"$TOP"/}/console.boot1.log)"
done
secs=$(( $(date +%s) - start ))
if [ -f "$RESULTS/.guest/rc" ]; then
	rc=$(cat "$RESULTS/.guest/rc")
	say "guest command exited $rc after ${secs}s (accel=$accel, log: ${RESULTS#"$TOP"/}/console.log)"
	exit "$rc"
fi
tail -n 25 "$RESULTS/console.log" | sed 's/^/  | /' >&2
if [ "$qrc" = 137 ]; then
	die "watchdog: guest did not finish within ${TIMEOUT}s (hung?); killed. Console: $RESULTS/console.log"
elif grep -q 'Kernel panic' "$RESULTS/console.log"; then
	die "guest kernel panicked after ${secs}s: $(grep -m1 'Kernel panic' "$RESULTS/console.log" | tr -d '\r'). Console: $RESULTS/console.log"
fi
die "guest ended without an exit status after ${secs}s (qemu rc=$qrc: $(tail -n 3 "$RESULTS/qemu.stderr" | tr '\n' ' ')). Console: $RESULTS/console.log"
