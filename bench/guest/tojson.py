#!/usr/bin/env python3
"""key=value lines on stdin -> one JSON line: bench, case, variant, rep, metrics."""
import json
import sys

bench, case, variant, rep, headline = sys.argv[1:6]
metrics = {}
for line in sys.stdin:
    k, _, v = line.strip().partition("=")
    try:
        metrics[k] = float(v) if any(ch in v for ch in ".e") else int(v)
    except ValueError:
        continue
print(json.dumps({"bench": bench, "case": case, "variant": variant, "rep": int(rep),
                  "headline": headline.split(), "metrics": metrics}))
