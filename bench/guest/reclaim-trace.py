#!/usr/bin/env python3
"""Direct-reclaim concurrency and latency from the trace buffer.

Reads ftrace text (mm_vmscan_direct_reclaim_begin/end) on stdin; prints
key=value: dr_events, dr_max_concurrent, dr_p50_us, dr_p99_us, dr_max_us,
dr_total_ms. A begin without its end (buffer overrun) is dropped.
"""
import math
import re
import sys

pat = re.compile(r"-(\d+)\s+\[\d+\].*?\s([\d.]+): mm_vmscan_direct_reclaim_(begin|end)")
open_at, lat, events, cur, peak = {}, [], [], 0, 0
for line in sys.stdin:
    m = pat.search(line)
    if m:
        events.append((float(m.group(2)), m.group(3), m.group(1)))
events.sort()
for ts, kind, pid in events:
    if kind == "begin":
        open_at[pid] = ts
        cur += 1
        peak = max(peak, cur)
    elif pid in open_at:
        lat.append((ts - open_at.pop(pid)) * 1e6)
        cur -= 1
lat.sort()


def pct(p):  # nearest rank
    return lat[max(0, math.ceil(p / 100.0 * len(lat)) - 1)] if lat else 0


print("dr_events=%d" % len(lat))
print("dr_max_concurrent=%d" % peak)
print("dr_p50_us=%.0f" % pct(50))
print("dr_p99_us=%.0f" % pct(99))
print("dr_max_us=%.0f" % (lat[-1] if lat else 0))
print("dr_total_ms=%.1f" % (sum(lat) / 1000.0))
