#!/usr/bin/env python3
"""Ratio statistics for A/B benchmark runs, with scipy (Debian's python3-scipy).

  stats.py --self-test     check the functions against known values

ratio(on, off) compares two samples of one metric: the ratio of their
geometric means (on / off) with its 95% confidence interval and a two-sided
p-value. When both samples come from the same repetitions, run interleaved
(rep 1 of every variant, then rep 2, ...), the repetitions are paired: the
interval is the t interval of the mean log ratio of the pairs and the test
is the paired t-test. Otherwise Welch's t interval and test on the logs.
A metric with a zero or negative value has no log: the ratio of the
arithmetic means is used, with Welch's interval on the difference of the
means divided by the off mean (the off mean's own error ignored: say so).
"""
import math
import os
import sys

try:
    from scipy import stats as st
except ImportError:
    # A python3 ahead of Debian's on PATH (pyenv) lacks Debian's packages:
    # take them if it is the same version, else run the script with Debian's
    DEBIAN = "/usr/lib/python3/dist-packages"
    try:
        sys.path.append(DEBIAN)
        from scipy import stats as st
    except ImportError:
        sys.path.remove(DEBIAN)
        if (os.path.exists("/usr/bin/python3") and sys.executable != "/usr/bin/python3"
                and not os.environ.get("BENCH_STATS_REEXEC") and sys.argv[0].endswith(".py")):
            os.environ["BENCH_STATS_REEXEC"] = "1"
            os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
        sys.exit("scipy is missing: apt-get install python3-scipy (harness/packages.txt)")

LEVEL = 0.95


def _mean(xs):
    return sum(xs) / len(xs)


def _var(xs):
    m = _mean(xs)
    return sum((x - m) ** 2 for x in xs) / (len(xs) - 1)


def _welch(xs, ys):
    """Difference of the means of xs and ys: (diff, half-width, p)."""
    vx, vy = _var(xs) / len(xs), _var(ys) / len(ys)
    diff = _mean(xs) - _mean(ys)
    if vx + vy == 0:
        return diff, 0.0, (0.0 if diff else 1.0)
    df = (vx + vy) ** 2 / (vx ** 2 / (len(xs) - 1) + vy ** 2 / (len(ys) - 1))
    se = math.sqrt(vx + vy)
    half = st.t.ppf(0.5 + LEVEL / 2, df) * se
    return diff, half, float(2 * st.t.sf(abs(diff) / se, df))


def welch_p(xs, ys):
    """Two-sided p-value of Welch's t-test on the raw values; None if a side
    has fewer than 2"""
    if len(xs) < 2 or len(ys) < 2:
        return None
    return _welch(list(xs), list(ys))[2]


def ratio(on, off):
    """on, off: {rep: value}. Returns a dict: ratio, lo, hi, p, n_on, n_off,
    method ('paired', 'welch', 'means'); None if a side has fewer than 2."""
    if len(on) < 2 or len(off) < 2:
        return None
    res = {"n_on": len(on), "n_off": len(off)}
    xs, ys = list(on.values()), list(off.values())
    if min(xs + ys) <= 0:
        if _mean(ys) <= 0:
            return None
        diff, half, p = _welch(xs, ys)
        m = _mean(ys)
        res.update(ratio=_mean(xs) / m, lo=(diff - half) / m + 1, hi=(diff + half) / m + 1,
                   p=p, method="means")
        return res
    if set(on) == set(off) and len(on) >= 2:
        d = [math.log(on[r] / off[r]) for r in sorted(on)]
        m, n = _mean(d), len(d)
        sd = math.sqrt(_var(d))
        if sd == 0:
            res.update(ratio=math.exp(m), lo=math.exp(m), hi=math.exp(m),
                       p=0.0 if m else 1.0, method="paired")
            return res
        se = sd / math.sqrt(n)
        half = st.t.ppf(0.5 + LEVEL / 2, n - 1) * se
        p = float(2 * st.t.sf(abs(m) / se, n - 1))
        res.update(ratio=math.exp(m), lo=math.exp(m - half), hi=math.exp(m + half),
                   p=p, method="paired")
        return res
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    diff, half, p = _welch(lx, ly)
    res.update(ratio=math.exp(diff), lo=math.exp(diff - half), hi=math.exp(diff + half),
               p=p, method="welch")
    return res


def self_test():
    """Known values: Student's t quantiles from printed tables, and
    intervals worked by hand from them."""
    ok = True

    def check(what, got, want, tol):
        nonlocal ok
        good = abs(got - want) <= tol
        ok &= good
        print("%s %s: %.6g (want %.6g)" % ("ok" if good else "FAIL", what, got, want))

    for df, q in ((2, 4.303), (4, 2.776), (9, 2.262), (29, 2.045)):
        check("t(0.975, %d)" % df, st.t.ppf(0.975, df), q, 0.0005)
    # Paired: log ratios 0.1, 0.2, 0.3: mean 0.2, sd 0.1, t = 3.4641 on 2 df
    # (p = 0.0742), interval 0.2 -+ 4.303 * 0.1 / sqrt(3) = 0.2 -+ 0.24843
    on = {r: 10 * math.exp(d) for r, d in ((1, 0.1), (2, 0.2), (3, 0.3))}
    off = {1: 10.0, 2: 10.0, 3: 10.0}
    r = ratio(on, off)
    check("paired method", r["method"] == "paired", 1, 0)
    check("paired ratio", r["ratio"], math.exp(0.2), 1e-9)
    check("paired lo", r["lo"], math.exp(0.2 - 0.24843), 0.0005)
    check("paired hi", r["hi"], math.exp(0.2 + 0.24843), 0.0005)
    check("paired p", r["p"], 0.0742, 0.0005)
    # Welch on logs, equal sizes and variances: logs {0, 1} vs {0, 1} + 1:
    # diff 1, se sqrt(0.5/2 * 2) = 0.7071, df 2: 1 -+ 4.303 * 0.7071
    xs = {1: math.exp(1), 2: math.exp(2)}
    ys = {3: 1.0, 4: math.exp(1)}
    r = ratio(xs, ys)
    check("welch method", r["method"] == "welch", 1, 0)
    check("welch lo", math.log(r["lo"]), 1 - 4.303 * math.sqrt(0.5), 0.001)
    check("welch hi", math.log(r["hi"]), 1 + 4.303 * math.sqrt(0.5), 0.001)
    # t = 1 / 0.7071 = 1.4142 on 2 df: p = 0.2929
    check("welch p", r["p"], 0.2929, 0.0005)
    # A zero: ratio of means
    r = ratio({1: 0.0, 2: 2.0}, {1: 2.0, 2: 2.0})
    check("means method", r["method"] == "means", 1, 0)
    check("means ratio", r["ratio"], 0.5, 1e-9)
    return ok


if __name__ == "__main__":
    if "--self-test" in sys.argv:
        sys.exit(0 if self_test() else 1)
    sys.exit(__doc__)
