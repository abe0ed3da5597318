#!/bin/bash
# In the guest: does switching the top level's options/record-cmd off keep
# ftrace's comm recorder (and with it the patching of trace_sched_wakeup()
# in ttwu_do_activate(), docs/booting.md) out of an event enabled in a
# trace instance made afterwards? Prints whether the instance has its own
# record-cmd file (it has not: a top-level option), and whether a uniquely
# named program shows up in saved_cmdlines with the option off (expected:
# 0) and on (expected: > 0).
#   make run CPUS=1 TCG=single CMD="bash $PWD/tests/probes/record-cmd.sh"
T=/sys/kernel/tracing
ls $T/instances >/dev/null
echo 0 > $T/options/record-cmd
mkdir $T/instances/probe_i
echo "instance has record-cmd file: $([ -e $T/instances/probe_i/options/record-cmd ] && echo yes || echo no)"
echo 1 > $T/instances/probe_i/events/sched/sched_process_exec/enable
cp /bin/sleep /tmp/zzprobe1; /tmp/zzprobe1 0.2; /tmp/zzprobe1 0.2
echo "record-cmd 0 -> zzprobe1 in saved_cmdlines: $(grep -c zzprobe1 $T/saved_cmdlines)"
echo 0 > $T/instances/probe_i/events/sched/sched_process_exec/enable
rmdir $T/instances/probe_i
echo 1 > $T/options/record-cmd
echo 1 > $T/events/sched/sched_process_exec/enable
cp /bin/sleep /tmp/zzprobe2; /tmp/zzprobe2 0.2; /tmp/zzprobe2 0.2
echo "record-cmd 1 -> zzprobe2 in saved_cmdlines: $(grep -c zzprobe2 $T/saved_cmdlines)"
