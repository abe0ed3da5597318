#!/usr/bin/env python3
"""The feature registry, configs/features, and the places that must agree
with it.

  features.py --check          configs/feature-sysctls, configs/features.config,
                               configs/test-categories, configs/stress-sysctls,
                               configs/feature-vmstat (against the applied
                               series' mm/vmstat.c), bench/*/spec and the
                               README's feature table and seeds agree with it
  features.py cats N           feature N's selftest categories
  features.py name N           feature N's name
  features.py patches N        subjects of feature N's patches (configs/series),
                               'maintainers' for the MAINTAINERS entry
"""
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load():
    out = []
    with open(os.path.join(TOP, "configs", "features")) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            c = [x.strip() for x in line.split("|")]
            if len(c) != 9:
                sys.exit("configs/features: want 9 fields: %s" % line)
            out.append(dict(n=c[0], name=c[1], kconfig=c[2], sysctl=c[3], off=c[4], on=c[5],
                            cats=c[6].split(), bench=c[7], seed=c[8]))
    return out


def series():
    """(subject, feature) of each patch, in series order (configs/series)."""
    out = []
    with open(os.path.join(TOP, "configs", "series")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                subject, _, feat = line.rstrip("\n").rpartition("|")
                out.append((subject.strip(), feat.strip()))
    return out


def patch_subjects():
    """The subjects of patches/NNNN-*.patch, in order, without '[PATCH n/m]'."""
    d = os.path.join(TOP, "patches")
    out = []
    for name in sorted(os.listdir(d)):
        if not re.match(r"\d{4}-", name) or name.startswith("0000-"):
            continue
        text = open(os.path.join(d, name)).read()
        m = re.search(r"^Subject: (.*(?:\n .*)*)", text, re.M)
        subject = re.sub(r"\s*\n\s*", " ", m.group(1)) if m else ""
        out.append(re.sub(r"^\[PATCH[^]]*\]\s*", "", subject))
    return out


def names():
    return {f["n"]: f["name"] for f in load()}


def check():
    errs = []
    feats = load()
    sysctls = [line.split() for line in open(os.path.join(TOP, "configs", "feature-sysctls"))
               if line.strip() and not line.startswith("#")]
    want = [[f["sysctl"], f["off"], f["on"], f["kconfig"]] for f in feats]
    if sysctls != want:
        errs.append("configs/feature-sysctls: %s, the registry says %s" % (sysctls, want))
    fc = open(os.path.join(TOP, "configs", "features.config")).read()
    cats = open(os.path.join(TOP, "configs", "test-categories")).read()
    quick = re.search(r'^QUICK="([^"]*)"', cats, re.M)
    debug = re.search(r'^DEBUG_CATS="([^"]*)"', cats, re.M)
    readme = open(os.path.join(TOP, "README.md")).read()
    for f in feats:
        if not re.search(r"^%s=y$" % f["kconfig"], fc, re.M):
            errs.append("configs/features.config lacks %s=y" % f["kconfig"])
        for c in f["cats"]:
            for name, m in (("QUICK", quick), ("DEBUG_CATS", debug)):
                if not m or c not in m.group(1).split():
                    errs.append("configs/test-categories: %s lacks %s (feature %s)" % (name, c, f["n"]))
        spec = os.path.join(TOP, "bench", f["bench"], "spec")
        if not os.path.exists(spec):
            errs.append("no benchmark %s (feature %s)" % (f["bench"], f["n"]))
        elif "seed %s" % f["seed"] not in open(spec).read():
            errs.append("bench/%s/spec: DESC does not name seed %s" % (f["bench"], f["seed"]))
        row = [line for line in readme.splitlines() if line.startswith("| %s |" % f["n"])]
        if not row or ("`%s`" % f["kconfig"][len("CONFIG_"):]) not in row[0] or \
                ("`%s`" % f["sysctl"]) not in row[0]:
            errs.append("README.md: the feature table's row %s lacks `%s` or `%s`"
                        % (f["n"], f["kconfig"][len("CONFIG_"):], f["sysctl"]))
    seeds = [f["seed"] for f in feats]
    said = "seeds %s and %s for features" % (", ".join(seeds[:-1]), seeds[-1])
    if said not in " ".join(readme.split()):
        errs.append("README.md does not say '%s ...' (the seeds in the features' order)" % said)
    # make stress toggles every feature's sysctl through its off and on values
    stress = {}
    for line in open(os.path.join(TOP, "configs", "stress-sysctls")):
        if line.strip() and not line.startswith("#"):
            parts = line.rstrip("\n").split("\t")
            stress[parts[0]] = parts[1].split() if len(parts) > 1 else []
    for f in feats:
        vals = stress.get(f["sysctl"])
        if vals is None or f["off"] not in vals or f["on"] not in vals:
            errs.append("configs/stress-sysctls: %s lacks its off (%s) or on (%s) value"
                        % (f["sysctl"], f["off"], f["on"]))
    # the counters the benchmarks report exist in the applied series
    vmstat = os.path.join(TOP, "build", "linux", "mm", "vmstat.c")
    if os.path.exists(vmstat):
        text = open(vmstat).read()
        for line in open(os.path.join(TOP, "configs", "feature-vmstat")):
            c = line.strip()
            if c and not c.startswith("#") and '"%s"' % c not in text:
                errs.append("configs/feature-vmstat: %s is not a counter of mm/vmstat.c" % c)
    listed = series()
    known = {f["n"] for f in feats} | {"maintainers"}
    if [s for s, _ in listed] != patch_subjects():
        errs.append("configs/series: the subjects are not those of patches/, in order: %s"
                    % sorted(set(patch_subjects()) ^ {s for s, _ in listed}))
    for s, feat in listed:
        if feat not in known:
            errs.append("configs/series: '%s' belongs to no feature ('%s')" % (s, feat))
    for f in feats:
        if not any(feat == f["n"] for _, feat in listed):
            errs.append("configs/series: feature %s has no patch" % f["n"])
    for e in errs:
        print(e)
    return not errs


if __name__ == "__main__":
    a = sys.argv[1:]
    if a == ["--check"]:
        ok = check()
        if ok:
            print("configs/features: feature-sysctls, features.config, test-categories, "
                  "stress-sysctls, feature-vmstat, the benchmark specs, the README and "
                  "configs/series agree with it")
        sys.exit(0 if ok else 1)
    if len(a) == 2 and a[0] in ("cats", "name"):
        for f in load():
            if f["n"] == a[1]:
                print(" ".join(f["cats"]) if a[0] == "cats" else f["name"])
                sys.exit(0)
        sys.exit("no feature %s in configs/features" % a[1])
    if len(a) == 2 and a[0] == "patches":
        got = [s for s, feat in series() if feat == a[1]]
        if not got:
            sys.exit("no patch of feature %s in configs/series" % a[1])
        print("\n".join(got))
        sys.exit(0)
    sys.exit(__doc__)
