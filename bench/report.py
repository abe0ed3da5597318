#!/usr/bin/env python3
"""Summarise benchmark runs: one table per benchmark, mmtests-style.

  report.py RUN_DIR          reads RUN_DIR/raw.jsonl, writes RUN_DIR/table.md
                             and its plots (gnuplot: RUN_DIR/*.png, or
                             build/plots/<bench>/<run>/ for a run in results/),
                             prints the table
  report.py --summary DIR    collects the newest run of every benchmark under
                             DIR (results/) into DIR/SUMMARY.md, and every
                             case the base kernel ran into DIR/BASE.md

raw.jsonl has one object per repetition: {"variant": ..., "rep": n,
"case": ..., "metrics": {name: value}}. A variant that switches a feature
on (vm.X=n) is compared with the same variant with vm.X=0 (same LRU and CPU
count); the others with the first variant.
Rates (names with gbps or mbps, or ending in _per_s or ops) use the harmonic
mean, times and counts the arithmetic mean. Metrics that are zero in every
run are left out. '*' marks a difference that Welch's t-test (scipy)
finds significant at 95% (two-sided). The goals' verdicts, with paired
intervals, are bench/verdicts.py's.
"""
import json
import math
import os
import re
import subprocess
import sys
from collections import OrderedDict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stats  # noqa: E402

SYSCTL = re.compile(r"^vm\.[a-z_]+=")


def is_rate(name):
    return name.endswith(("_per_s", "ops", "throughput")) or "gbps" in name or "mbps" in name


def mean(xs, rate):
    if rate:
        if any(x <= 0 for x in xs):
            return sum(xs) / len(xs)
        return len(xs) / sum(1.0 / x for x in xs)
    return sum(xs) / len(xs)


def stddev(xs):
    if len(xs) < 2:
        return 0.0
    m = sum(xs) / len(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def welch_p(xs, ys):
    """Two-sided p-value of Welch's t-test (scipy, bench/stats.py); None if
    it cannot be computed."""
    return stats.welch_p(xs, ys)


def reference(v, names):
    """The variant @v is compared with: the one that differs from it only in
    one vm.* sysctl, at 0 (the feature off, same LRU, same CPU count); for
    the others the first variant."""
    parts = v.split(",")
    for i, p in enumerate(parts):
        if SYSCTL.match(p) and not p.endswith("=0"):
            off = ",".join(parts[:i] + [p.split("=")[0] + "=0"] + parts[i + 1:])
            if off in names:
                return off
    return names[0]


def load(run_dir):
    rows = []
    with open(os.path.join(run_dir, "raw.jsonl")) as f:
        for line in f:
            if line.strip():
                rows.append(json.loads(line))
    return rows


def group(rows, keys=lambda row: row["metrics"]):
    """case -> variant -> metric -> values, in the order met; keys(row)
    names the metrics of a row to keep."""
    cases = OrderedDict()
    for r in rows:
        v = cases.setdefault(r.get("case", "-"), OrderedDict()).setdefault(r["variant"], OrderedDict())
        for k in keys(r):
            x = r["metrics"].get(k)
            if isinstance(x, (int, float)):
                v.setdefault(k, []).append(float(x))
    return cases


def cells(variants, names, k, pct, show_n=False):
    """One metric's cells, one per variant of names: mean ± stddev, and the
    difference to its reference variant (reference(): the same variant with
    the feature off, else the first) as pct, '*'-marked when Welch's t-test
    finds it significant; None when the metric is zero everywhere."""
    if all(x == 0 for v in names for x in variants[v].get(k, [])):
        return None
    rate = is_rate(k)
    out = []
    for v in names:
        xs = variants[v].get(k, [])
        if not xs:
            out.append("-")
            continue
        ref = reference(v, names)
        bx = variants[ref].get(k, [])
        bm = mean(bx, rate) if bx else 0
        m = mean(xs, rate)
        cell = "%s ±%s" % (fmt(m), fmt(stddev(xs))) + (" (%d)" % len(xs) if show_n else "")
        if v != ref and bm:
            p = welch_p(xs, bx)
            star = "*" if p is not None and p < 0.05 else ""
            diff = star + pct % (100.0 * (m - bm) / abs(bm)) + star
            cell += " " + diff if show_n else " (%s)" % diff
        out.append(cell)
    return out


def table(rows):
    """Markdown: per case, one row per metric, one column per variant."""
    out = ["\nA column that switches a feature on (`vm.X=n`) is compared with the same "
           "column at `vm.X=0`; the others with the first column. `*`: Welch's t-test "
           "finds the difference significant at 95%."]
    for case, variants in group(rows).items():
        names = list(variants)
        metrics = []
        for v in names:
            for k in variants[v]:
                if k not in metrics:
                    metrics.append(k)
        out.append("\n#### %s\n" % case)
        out.append("| metric | " + " | ".join("%s (n=%d)" % (v, max((len(x) for x in variants[v].values()), default=0)) for v in names) + " |")
        out.append("|---|" + "---|" * len(names))
        for k in metrics:
            c = cells(variants, names, k, "%+.1f%%")
            if c:  # None: zero everywhere, nothing to read
                out.append("| %s %s | %s |" % ("Hmean" if is_rate(k) else "Amean", k, " | ".join(c)))
    return "\n".join(out) + "\n"


def fmt(x):
    if x == 0:
        return "0"
    if abs(x) >= 1000:
        return "%.0f" % x
    if abs(x) >= 10:
        return "%.1f" % x
    return "%.3g" % x


def plot_dir(run_dir):
    """Where a run's plots go: build/plots/<benchmark>/<run>/ for a run kept
    in results/ (only the plots results/README.md shows are committed, in
    results/plots/), the run's own directory for a run under build/."""
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    rel = os.path.relpath(os.path.abspath(run_dir), os.path.join(top, "results"))
    if rel.startswith(".."):
        return run_dir
    d = os.path.join(top, "build", "plots", rel)
    os.makedirs(d, exist_ok=True)
    return d


def plot(run_dir, rows, metrics):
    """One PNG per headline metric: per variant and case, mean with stddev bars."""
    run_dir = plot_dir(run_dir)
    for k in metrics:
        data = os.path.join(run_dir, "plot-%s.dat" % k)
        series = OrderedDict()
        for r in rows:
            x = r["metrics"].get(k)
            if isinstance(x, (int, float)):
                series.setdefault((r.get("case", "-"), r["variant"]), []).append(float(x))
        if not series:
            continue
        with open(data, "w") as f:
            for i, ((case, v), xs) in enumerate(series.items()):
                f.write('%d "%s\\n%s" %g %g\n' % (i, case, v, mean(xs, is_rate(k)), stddev(xs)))
        script = ("set terminal pngcairo size 900,500 noenhanced; set output '%s';"
                  "set title '%s (mean, error bar: stddev)'; set style fill solid 0.5; set boxwidth 0.6;"
                  "set xtics rotate by -30; set xrange [-0.6:%f]; set yrange [0:*]; set grid ytics;"
                  "plot '%s' using 1:3:4:xtic(2) with boxerrorbars lc rgb '#4a7ab5' notitle"
                  % (os.path.join(run_dir, "%s.png" % k), k, len(series) - 0.4, data))
        try:
            subprocess.run(["gnuplot", "-e", script], check=True, capture_output=True)
        except (OSError, subprocess.CalledProcessError) as e:
            sys.stderr.write("report.py: gnuplot failed for %s: %s\n" % (k, e))
        os.unlink(data)


def report(run_dir):
    rows = load(run_dir)
    env = ""
    if os.path.exists(os.path.join(run_dir, "env.txt")):
        env = open(os.path.join(run_dir, "env.txt")).read()
    text = "# %s\n\n```\n%s```\n%s" % (os.path.basename(os.path.dirname(os.path.abspath(run_dir))), env, table(rows))
    open(os.path.join(run_dir, "table.md"), "w").write(text)
    headline = []
    for r in rows:
        for k in r.get("headline", []):
            if k not in headline:
                headline.append(k)
    plot(run_dir, rows, headline)
    print(text)


def summary(top):
    parts = ["# Benchmark summary\n", "Newest run of each benchmark with the series, and a newer one of the base if any (regenerate: `make bench-report`).\n"]
    for name in sorted(os.listdir(top)):
        d = os.path.join(top, name)
        if not os.path.isdir(d):
            continue
        runs = sorted(r for r in os.listdir(d) if os.path.exists(os.path.join(d, r, "table.md")))
        # the newest run of the patched kernel, and a newer one of the base
        patched = [r for r in runs if not r.endswith("-base")]
        show = patched[-1:] + [r for r in runs[-1:] if r.endswith("-base")]
        for r in show:
            parts.append("\n## %s (run %s)\n" % (name, r))
            parts.append(open(os.path.join(d, r, "table.md")).read().split("\n", 1)[1])
    open(os.path.join(top, "SUMMARY.md"), "w").write("\n".join(parts))
    base_summary(top)


BASE_ALSO = ("elapsed_s", "oom_kill", "oom_seconds")  # and what an OOM case measures


def base_summary(top):
    """One table per benchmark of the unpatched base: every case it ran,
    from the newest base run that has the case, headline metrics (and
    elapsed time and OOM kills) per variant, the first variant the baseline."""
    parts = ["# The unpatched 6.12 base\n",
             "Every case the base kernel ran, from the newest base run that has it (run ids link to the "
             "full tables); headline metrics only. Mean ± stddev (n); rates (names with mbps, gbps, ops) "
             "harmonic means. `*` marks a difference from the first column that Welch's t-test finds "
             "significant at 95%. Regenerate: `make bench-report`.\n"]
    for name in sorted(os.listdir(top)):
        d = os.path.join(top, name)
        if not os.path.isdir(d):
            continue
        cases = OrderedDict()  # case -> (run, rows of the case)
        for r in sorted(x for x in os.listdir(d) if x.endswith("-base") and os.path.exists(os.path.join(d, x, "table.md"))):
            for row in load(os.path.join(d, r)):
                c = row.get("case", "-")
                if c not in cases or cases[c][0] != r:
                    cases[c] = (r, [])
                cases[c][1].append(row)
        if not cases:
            continue
        variants = []
        for _, rows in cases.values():
            for row in rows:
                if row["variant"] not in variants:
                    variants.append(row["variant"])
        parts.append("\n## %s\n" % name)
        parts.append("| case (run) | metric | " + " | ".join(variants) + " |")
        parts.append("|---|---|" + "---|" * len(variants))
        for c, (r, rows) in sorted(cases.items()):
            vals = group(rows, lambda row: list(row.get("headline", [])) +
                         [k for k in BASE_ALSO if k not in row.get("headline", [])])[c]
            for v in variants:
                vals.setdefault(v, {})
            heads = []
            for v in vals.values():
                heads += [k for k in v if k not in heads]
            first = "%s ([%s](%s/%s/table.md))" % (c, r, name, r)
            for k in heads:
                cl = cells(vals, variants, k, "%+.0f%%", show_n=True)
                if cl:
                    parts.append("| %s | %s | %s |" % (first, k, " | ".join(cl)))
                    first = ""
    open(os.path.join(top, "BASE.md"), "w").write("\n".join(parts) + "\n")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--summary":
        summary(sys.argv[2])
    elif len(sys.argv) == 2:
        report(sys.argv[1])
    else:
        sys.stderr.write(__doc__)
        sys.exit(2)
