#!/bin/bash
# In the guest (make stress): a mixed load under memory pressure while every
# feature sysctl is switched at random every 100 ms, then checks that
# nothing was lost. Usage: stress.sh SECONDS
#
# Load, all in /sys/fs/cgroup/stress (one cgroup.kill ends it):
#   storm    STORM tasks, each a loop of short memhogs (global reclaim)
#   readers  dd readers of sparse files in memory.max at depth 3 (a/b/readers)
#   thrash   qsbench at twice its cgroup's memory.max (swap thrash)
#   writer   dd writes with fdatasync to xfs
#   migrate  move_pages(2) between the nodes with MPOL_MF_MOVE_MT (when the
#            series has it), every page's node and the data verified
#   churn    cgroups created, charged and removed
# Prints 'ok ...' / 'not ok ...' lines; the host adds the console's splats.
dur=${1:-600}
cg=/sys/fs/cgroup
bin=$TOP/build/bench-bin
st=/tmp/stress
mkdir -p $st
# The toggler and the checks must outlive the OOM killer; the load need not.
echo -1000 > /proc/self/oom_score_adj
ncpu=$(nproc)
mem_mb=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 ))
nodes=$(ls -d /sys/devices/system/node/node* | wc -l)
STORM=${STORM:-200}
fails=0
ok() { echo "ok stress: $*"; }
nok() { echo "not ok stress: $*"; fails=$((fails + 1)); }
sysctl_path() { echo "/proc/sys/${1//.//}"; }

# --- set-up ---------------------------------------------------------------
echo +memory > $cg/cgroup.subtree_control
mkdir -p $cg/stress/a/b/readers $cg/stress/thrash $cg/stress/storm $cg/stress/writer \
	$cg/stress/migrate $cg/stress/churn $cg/stress/churner
for d in stress stress/a stress/a/b stress/churn; do echo +memory > $cg/$d/cgroup.subtree_control; done
lim=$(( mem_mb / 8 ))
echo ${lim}M > $cg/stress/a/b/readers/memory.max
echo ${lim}M > $cg/stress/thrash/memory.max
# xfs on the scratch disk (make stress gives one); else on a loop device
# over tmpfs, whose writeback needs memory of the guest to complete
if [ -b /dev/disk/scratch ]; then xdev=/dev/disk/scratch mopt=
else truncate -s 64G /tmp/xfs.img && xdev=/tmp/xfs.img mopt=-oloop; fi
mkfs.xfs -q -f $xdev && mkdir -p /mnt/xfs && mount $mopt $xdev /mnt/xfs || { nok "set-up: xfs"; exit 1; }
for i in 0 1 2 3; do truncate -s $(( mem_mb / 4 ))M /mnt/xfs/r$i; done
# The migration flag, from the series' own UAPI header (absent before
# feature 5: plain MPOL_MF_MOVE).
mt=$(sed -n 's/^#define MPOL_MF_MOVE_MT[[:space:]]*\(([^)]*)\).*/\1/p' "$TOP/build/linux/include/uapi/linux/mempolicy.h")
mflags=$(( (1 << 1) | ${mt:-0} ))
echo "stress: ${dur}s, $ncpu cpus, ${mem_mb} MB, $nodes nodes, storm $STORM tasks, cgroup limits ${lim} MB, move_pages flags $mflags"

# The console names the phase a kernel splat came in (tap.py splats)
mark() { echo "mm-harness: running stress: $*" > /dev/kmsg 2>/dev/null || true; }
mark "load starting"
# A load runs in its cgroup until killed; 'run_in CG CMD...' starts one.
run_in() { local g=$1; shift; ( echo 0 > /proc/self/oom_score_adj; echo $BASHPID > "$cg/stress/$g/cgroup.procs"; exec "$@" ) & }
loop() { while :; do "$@"; done; }
storm_task() { while :; do "$bin/memhog" -m $(( RANDOM % 8 + 2 )) -d 2 > /dev/null; done; }
for ((i = 0; i < STORM; i++)); do run_in storm bash -c "$(declare -f storm_task); bin=$bin; storm_task"; done
for i in 0 1 2 3; do run_in a/b/readers bash -c "while :; do dd if=/mnt/xfs/r$i of=/dev/null bs=64k 2>/dev/null; done"; done
run_in thrash bash -c "while :; do $bin/qsbench -p 2 -m $lim -l 1 > /dev/null; done"
run_in writer bash -c "while :; do dd if=/dev/zero of=/mnt/xfs/w bs=1M count=$lim conv=fdatasync 2>/dev/null; rm -f /mnt/xfs/w; done"
if [ "$nodes" -ge 2 ]; then
	# exit 1 is a verification failure (node or data); a kill is not
	run_in migrate bash -c "while :; do for k in 4k thp; do n=256; [ \$k = 4k ] || n=4
		$bin/migrate_copy -k \$k -n \$n -r 2 -F $mflags > $st/mig.out 2>&1; rc=\$?
		[ \$rc = 0 ] || [ \$rc -gt 128 ] || [ \$rc = 4 ] || { echo \"rc=\$rc \$k\"; tail -n 3 $st/mig.out; } >> $st/mig.fail
		echo \$k >> $st/mig.runs; done; done"
fi
# (the loop itself in a leaf of its own: churn has controllers for its children)
run_in churner bash -c "i=0; while :; do i=\$((i + 1)); d=$cg/stress/churn/c\$i; mkdir \$d || continue
	( echo \$BASHPID > \$d/cgroup.procs; exec $bin/memhog -m 16 -d 1 > /dev/null )
	rmdir \$d 2>/dev/null || echo \$d >> $st/churn.left; done"
disown -a	# their end is cgroup.kill's, not news

# --- the toggler ------------------------------------------------------------
names=() valid=() bad=()
while IFS=$'\t' read -r s v b; do
	case $s in "" | \#*) continue ;; esac
	[ -e "$(sysctl_path "$s")" ] || continue
	names+=("$s") valid+=("$v") bad+=("$b")
done < "$TOP/configs/stress-sysctls"
# Vmstat counters of the series must never go backwards.
vm_snap() { grep -E "^($(grep -v '^#' "$TOP/configs/feature-vmstat" | paste -sd'|')) " /proc/vmstat; }
vm_snap > $st/vm.prev
# The toggler forks nothing (builtins only: a fork under this load can take
# seconds) and runs SCHED_FIFO, so that it keeps its 100 ms pace.
chrt -f -p 10 $$ > /dev/null || echo "# chrt failed: the toggler runs SCHED_OTHER"
mkfifo $st/tick && exec {tick}<> $st/tick	# read -t on it: a sleep without a fork
mark "load with the toggler (${dur}s)"
toggles=0 refused=0 wrong=0 end=$(( SECONDS + dur )) next_vm=$(( SECONDS + 10 ))
while [ $SECONDS -lt $end ] && [ ${#names[@]} -gt 0 ]; do
	k=$(( RANDOM % ${#names[@]} )) p=/proc/sys/${names[$k]//.//}
	if [ $(( RANDOM % 5 )) = 0 ]; then
		read -ra vs <<< "${bad[$k]}"; v=${vs[RANDOM % ${#vs[@]}]}
		read -r before < "$p"
		if echo "$v" 2>/dev/null > "$p"; then
			wrong=$((wrong + 1)); echo "# ${names[$k]}=$v was accepted" >&2
		elif read -r after < "$p" && [ "$after" != "$before" ]; then
			wrong=$((wrong + 1)); echo "# ${names[$k]}=$v was refused but changed $before to $after" >&2
		else refused=$((refused + 1)); fi
	else
		read -ra vs <<< "${valid[$k]}"; v=${vs[RANDOM % ${#vs[@]}]}
		echo "$v" > "$p" && toggles=$((toggles + 1)) || { wrong=$((wrong + 1)); echo "# ${names[$k]}=$v refused" >&2; }
	fi
	if [ $SECONDS -ge $next_vm ]; then
		next_vm=$(( SECONDS + 10 ))
		vm_snap > $st/vm.now
		join $st/vm.prev $st/vm.now | awk '$3 < $2' >> $st/vm.regress
		mv $st/vm.now $st/vm.prev
	fi
	read -r -t 0.1 -u $tick _
done
chrt -o -p 0 $$ > /dev/null
echo "stress: load ran ${dur}s; $toggles sysctl writes, $refused bad values refused, $(wc -l < $st/mig.runs 2>/dev/null || echo 0) migration runs"

# --- teardown and checks ----------------------------------------------------
mark "teardown and checks"
echo 1 > $cg/stress/cgroup.kill
t0=$SECONDS
while [ $(( SECONDS - t0 )) -lt 120 ]; do
	grep -q 'populated 0' $cg/stress/cgroup.events && break
	sleep 1
done
if grep -q 'populated 0' $cg/stress/cgroup.events; then
	ok "every load task exited after the kill ($(( SECONDS - t0 )) s)"
else
	nok "tasks left in the stress cgroups 120 s after cgroup.kill"
	for p in $(cat $(find $cg/stress -name cgroup.procs)); do
		echo "# pid $p $(cat /proc/$p/comm 2>/dev/null) state $(awk '/^State/ {print $2}' /proc/$p/status 2>/dev/null)"
		sed 's/^/#   /' /proc/$p/stack 2>/dev/null
	done
fi
dstate=$(ps -eo stat=,pid=,comm= | awk '$1 ~ /^D/')
[ -z "$dstate" ] && ok "no task in D state once the load is gone" ||
	{ nok "tasks in D state once the load is gone"; echo "$dstate" | sed 's/^/#   /'; }
[ "$wrong" = 0 ] && ok "$toggles valid sysctl writes taken, $refused bad ones refused with nothing changed" ||
	nok "$wrong sysctl writes misbehaved (a bad value taken or changing something, a valid one refused)"
[ "$toggles" -gt $(( dur * 2 )) ] && ok "the toggler kept up (over 2 writes a second)" ||
	nok "only $toggles sysctl writes in ${dur}s"
regress=$(wc -l < $st/vm.regress 2>/dev/null || echo 0)
[ "$regress" = 0 ] && ok "the series' vmstat counters never went backwards" ||
	{ nok "$regress series vmstat counters went backwards"; sed 's/^/#   /' $st/vm.regress; }
if [ "$nodes" -ge 2 ]; then
	runs=$(wc -l < $st/mig.runs 2>/dev/null || echo 0)
	[ ! -s $st/mig.fail ] && [ "$runs" -gt 0 ] && ok "$runs move_pages runs, every page's node and data verified" ||
		{ nok "move_pages: $runs runs, failures:"; sed 's/^/#   /' $st/mig.fail 2>/dev/null; }
fi
[ ! -s $st/churn.left ] && ok "every churned cgroup was removed" ||
	nok "$(wc -l < $st/churn.left) churned cgroups could not be removed"
# Throttle slots: none may stay taken once nobody reclaims.
if grep -q direct_reclaimers /proc/zoneinfo; then
	left=$(awk '$1 == "direct_reclaimers" || $1 == "unslotted" { s += $2 } END { print s + 0 }' /proc/zoneinfo)
	[ "$left" = 0 ] && ok "no throttle slot left taken (zoneinfo)" || { nok "$left throttle slots left taken"; grep -E 'Node|direct_reclaimers|unslotted' /proc/zoneinfo | sed 's/^/#   /'; }
fi
# Charges: with no task and no cache left, a cgroup's memory.current is what
# its memory.stat accounts (anon, file, kernel, sock) plus at most the
# per-CPU charge stocks (64 pages a CPU); no anon or swap left at all.
umount /mnt/xfs
sync; echo 3 > /proc/sys/vm/drop_caches; echo 3 > /proc/sys/vm/drop_caches
slack=$(( ncpu * 64 * 4096 ))
leak=0 worst=0
for d in $(find $cg/stress -mindepth 0 -type d | sort -r); do
	cur=$(cat $d/memory.current) sw=$(cat $d/memory.swap.current)
	acc=$(awk '$1 ~ /^(anon|file|kernel|sock)$/ { s += $2 } END { print s + 0 }' $d/memory.stat)
	anon=$(awk '$1 == "anon" { print $2 }' $d/memory.stat)
	ex=$(( cur - acc ))
	[ $ex -le $worst ] || worst=$ex
	if [ $ex -gt $slack ] || [ "$anon" != 0 ] || [ "$sw" -gt $slack ]; then
		leak=$((leak + 1)); echo "# ${d#$cg/}: memory.current $cur, accounted $acc, anon $anon, swap $sw"
	fi
done
[ "$leak" = 0 ] && ok "every cgroup's memory.current is what it holds (largest excess $worst bytes, slack $slack)" ||
	nok "$leak cgroups hold charges nothing accounts for"
# Removing them: a charge nothing holds would stay in the parent.
for d in $(find $cg/stress -mindepth 1 -type d | sort -r); do rmdir $d || nok "rmdir ${d#$cg/}"; done
echo 3 > /proc/sys/vm/drop_caches
cur=$(cat $cg/stress/memory.current)
acc=$(awk '$1 ~ /^(anon|file|kernel|sock)$/ { s += $2 } END { print s + 0 }' $cg/stress/memory.stat)
[ $(( cur - acc )) -le $slack ] && ok "after the children went, stress holds $cur bytes, $acc accounted" ||
	nok "after the children went, stress holds $cur bytes, only $acc accounted"
echo "stress: $fails failed"
exit $(( fails > 0 ))
