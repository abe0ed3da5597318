#!/usr/bin/env python3
"""Paired ratios of one metric between two variants of a benchmark run.

  paired.py RESULT_DIR METRIC [VARIANT_A VARIANT_B]

The driver interleaves variants (A B, B A, ...), so the runs of one repetition
share the host's state; on a noisy host the ratio B/A per repetition is a
steadier estimate than the ratio of the means. Prints, per case, the ratios
and their geometric mean with the range. Defaults: the run's first two
variants. With scipy (python3-scipy), the 95% t interval of the geometric
mean is printed beside it.
"""
import json
import math
import os
import sys


def main():
    if len(sys.argv) not in (3, 5):
        sys.exit(__doc__)
    d, metric = sys.argv[1], sys.argv[2]
    runs, order = {}, []
    with open(os.path.join(d, "raw.jsonl")) as f:
        for line in f:
            j = json.loads(line)
            if j["variant"] not in order:
                order.append(j["variant"])
            if metric in j["metrics"]:
                runs.setdefault(j["case"], {}).setdefault(j["variant"], {})[j["rep"]] = j["metrics"][metric]
    a, b = (sys.argv[3], sys.argv[4]) if len(sys.argv) == 5 else order[:2]
    print("%s: %s / %s per repetition" % (metric, b, a))
    for case, v in runs.items():
        reps = sorted(set(v.get(a, {})) & set(v.get(b, {})))
        rs = [v[b][r] / v[a][r] for r in reps if v[a][r]]
        if not rs:
            continue
        g = math.exp(sum(math.log(r) for r in rs) / len(rs)) if all(r > 0 for r in rs) else float("nan")
        print("  %-16s n=%d  geomean %.2f%s  min %.2f  max %.2f  [%s]" % (
            case, len(rs), g, interval(rs), min(rs), max(rs), " ".join("%.2f" % r for r in rs)))


def interval(rs):
    """The 95% t interval of the geometric mean (the mean log ratio's), as
    bench/verdicts.py computes it; empty without scipy or with a ratio <= 0."""
    if len(rs) < 2 or not all(r > 0 for r in rs):
        return ""
    try:
        from scipy import stats
    except ImportError:
        return ""
    logs = [math.log(r) for r in rs]
    n = len(logs)
    mu = sum(logs) / n
    sd = math.sqrt(sum((x - mu) ** 2 for x in logs) / (n - 1))
    hw = stats.t.ppf(0.975, n - 1) * sd / math.sqrt(n)
    return " (95%% CI %.3f-%.3f)" % (math.exp(mu - hw), math.exp(mu + hw))


main()
