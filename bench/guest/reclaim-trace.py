#!/usr/bin/env python3
"""Direct-reclaim concurrency and latency from the trace buffer.

Reads ftrace text on stdin: mm_vmscan_direct_reclaim_begin/end and, where
the kernel has it, mm_vmscan_direct_reclaim_throttle. Prints key=value:
dr_events, dr_max_concurrent, dr_p50_us, dr_p99_us, dr_max_us, dr_total_ms
(time inside try_to_free_pages(), between begin and end) and stall_p50_us,
stall_p99_us, stall_max_us, stall_events: what an allocating task lost in
one direct-reclaim episode, its wait at the throttle (if any) plus its
reclaim (if any). Without the throttle the two sets agree. A begin without
its end (buffer overrun) is dropped. With mm_vmscan_direct_reclaim_throttle_look:
look_same_cpu, look_same_cpu_page, look_other_cpu, look_other_cpu_page (a
waiter told to look at the freelists, on its waker's CPU or another, and
whether it got a page) and look_from_<reclaimer|kswapd|waiter>[_page].
With the throttle: alloc_wait_max_us, the most one allocation waited over
its rounds of reclaim (the tracepoint's alloc_wait_us), and
task_stall_max_s, the largest sum of one task's stalls.
With oom:reclaim_retry_zone (should_reclaim_retry(), one event per zone it
looks at, the first zone of the zonelist always): retry_rounds, the
allocator's decisions after a round of direct reclaim that made it that
far (a round past MAX_RECLAIM_RETRIES no-progress rounds emits none);
retry_progress_rounds, those after a round that reclaimed something
(no_progress_loops reset to 0); retry_loops_max, the most consecutive
no-progress rounds one allocation reached; dr_reclaimed, the pages direct
reclaim freed (mm_vmscan_direct_reclaim_end's nr_reclaimed).
With the throttle, who reclaimed beside the slot holders: dr_max_unslotted,
the most tasks in reclaim at once after a turn that ended without a slot
(stalled, timeout, bypass or killed), and dr_max_slotted, the most of the
others; bypass_fsio and bypass_nofs split the bypasses by the gfp mask of
the reclaim that followed: one that may enter the filesystem and start IO
was let through for the node, not for its mask (the node's kswapd had
given up, or an OOM victim, a fatal signal, a kernel thread or
PF_MEMALLOC task), the others for their mask.
Given a file of "pid run_delay_ns" lines (schedstat, taken by the
oom-crowd case before its SIGTERM): run_delay_max_s, the longest any of
those tasks was runnable without a CPU over its life, and
alloc_wait_max_run_delay_s, that of the task whose allocation waited
longest, if it is in the file.
"""
import math
import os
import re
import sys

pat = re.compile(r"-(\d+)\s+\[\d+\].*?\s([\d.]+): mm_vmscan_direct_reclaim_(begin|end|throttle):(.*)")
wait_pat = re.compile(r"wait_us=(\d+) outcome=(\w+)")
alloc_pat = re.compile(r"alloc_wait_us=(\d+)")
retry_pat = re.compile(r"reclaim_retry_zone: .*zone=(\w+) .*no_progress_loops=(\d+)")
reclaimed_pat = re.compile(r"mm_vmscan_direct_reclaim_end: nr_reclaimed=(\d+)")
retry_zone = {}
retry_loops = {}
reclaimed = 0
look_pat = re.compile(r"\[(\d+)\].*mm_vmscan_direct_reclaim_throttle_look: .*"
                      r"from=(\w+) from_cpu=(\d+) page=(\d)")
open_at, lat, stall, events, cur, peak = {}, [], [], [], 0, 0
waited = {}
looks = {}
alloc_max = None
alloc_max_pid = None
task_stall = {}
unslot_next = {}            # pid: the turn's outcome, if it gave no slot
unslotted = set()           # pids reclaiming without a slot now
cur_unslot, peak_unslot, peak_slot = 0, 0, 0
bypass = {"fsio": 0, "nofs": 0}
saw_throttle = False
UNSLOTTED = ("stalled", "timeout", "bypass", "killed")


def may_fs_io(flags):
    """Does a printed gfp mask include both __GFP_FS and __GFP_IO?"""
    names = set(flags.split("|"))
    if names & {"GFP_KERNEL", "GFP_KERNEL_ACCOUNT", "GFP_USER", "GFP_HIGHUSER",
                "GFP_HIGHUSER_MOVABLE", "GFP_TRANSHUGE", "GFP_TRANSHUGE_LIGHT"}:
        return True
    return {"__GFP_FS", "__GFP_IO"} <= names
for line in sys.stdin:
    m = retry_pat.search(line)
    if m:
        z, loops = m.group(1), int(m.group(2))
        retry_zone[z] = retry_zone.get(z, 0) + 1
        retry_loops.setdefault(z, []).append(loops)
        continue
    m = reclaimed_pat.search(line)
    if m:
        reclaimed += int(m.group(1))
    m = pat.search(line)
    if m:
        events.append((float(m.group(2)), m.group(3), m.group(1), m.group(4)))
        continue
    m = look_pat.search(line)
    if m:
        where = "same_cpu" if int(m.group(1)) == int(m.group(3)) else "other_cpu"
        for k in ("look_" + where, "look_from_" + m.group(2)):
            looks[k] = looks.get(k, 0) + 1
            if m.group(4) == "1":
                looks[k + "_page"] = looks.get(k + "_page", 0) + 1
events.sort(key=lambda e: e[0])
for ts, kind, pid, rest in events:
    if kind == "throttle":
        w = wait_pat.search(rest)
        if not w:
            continue
        a = alloc_pat.search(rest)
        if a and int(a.group(1)) > (alloc_max or -1):
            alloc_max, alloc_max_pid = int(a.group(1)), pid
        saw_throttle = True
        if w.group(2) in UNSLOTTED:
            unslot_next[pid] = w.group(2)
        else:
            unslot_next.pop(pid, None)
        if w.group(2) == "page":      # got a page while waiting: no reclaim
            stall.append(float(w.group(1)))
            task_stall[pid] = task_stall.get(pid, 0.0) + float(w.group(1))
        else:                          # reclaims next: add the wait to it
            waited[pid] = float(w.group(1))
    elif kind == "begin":
        open_at[pid] = ts
        cur += 1
        peak = max(peak, cur)
        why = unslot_next.pop(pid, None)
        if why:
            unslotted.add(pid)
            cur_unslot += 1
            peak_unslot = max(peak_unslot, cur_unslot)
            if why == "bypass":
                g = re.search(r"gfp_flags=(\S+)", rest)
                bypass["fsio" if g and may_fs_io(g.group(1)) else "nofs"] += 1
        peak_slot = max(peak_slot, cur - cur_unslot)
    elif pid in open_at:
        if pid in unslotted:
            unslotted.discard(pid)
            cur_unslot -= 1
        us = (ts - open_at.pop(pid)) * 1e6
        lat.append(us)
        stall.append(us + waited.pop(pid, 0.0))
        task_stall[pid] = task_stall.get(pid, 0.0) + stall[-1]
        cur -= 1
lat.sort()
stall.sort()


def pct(v, p):  # nearest rank
    return v[max(0, math.ceil(p / 100.0 * len(v)) - 1)] if v else 0


print("dr_events=%d" % len(lat))
print("dr_max_concurrent=%d" % peak)
print("dr_p50_us=%.0f" % pct(lat, 50))
print("dr_p99_us=%.0f" % pct(lat, 99))
print("dr_max_us=%.0f" % (lat[-1] if lat else 0))
print("dr_total_ms=%.1f" % (sum(lat) / 1000.0))
print("stall_events=%d" % len(stall))
print("stall_p50_us=%.0f" % pct(stall, 50))
print("stall_p99_us=%.0f" % pct(stall, 99))
print("stall_max_us=%.0f" % (stall[-1] if stall else 0))
print("task_stall_max_s=%.2f" % (max(task_stall.values()) / 1e6 if task_stall else 0))
if alloc_max is not None:
    print("alloc_wait_max_us=%d" % alloc_max)
if saw_throttle:
    print("dr_max_unslotted=%d" % peak_unslot)
    print("dr_max_slotted=%d" % peak_slot)
    print("bypass_fsio=%d" % bypass["fsio"])
    print("bypass_nofs=%d" % bypass["nofs"])
if len(sys.argv) > 1 and os.path.exists(sys.argv[1]):
    delay = {}
    with open(sys.argv[1]) as f:
        for row in f:
            p, ns = row.split()
            delay[p] = int(ns) / 1e9
    if delay:
        print("run_delay_max_s=%.2f" % max(delay.values()))
        if alloc_max_pid in delay:
            print("alloc_wait_max_run_delay_s=%.2f" % delay[alloc_max_pid])
print("dr_reclaimed=%d" % reclaimed)
if retry_zone:
    # Every call looks at the zonelist's first zone: the most frequent.
    first = max(retry_zone, key=retry_zone.get)
    loops = retry_loops[first]
    print("retry_rounds=%d" % len(loops))
    print("retry_progress_rounds=%d" % sum(1 for n in loops if n == 0))
    print("retry_loops_max=%d" % max(loops))
if looks:
    for k in ("same_cpu", "other_cpu", "from_reclaimer", "from_kswapd", "from_waiter"):
        print("look_%s=%d" % (k, looks.get("look_" + k, 0)))
        print("look_%s_page=%d" % (k, looks.get("look_" + k + "_page", 0)))
