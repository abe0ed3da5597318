#!/usr/bin/env python3
"""Parse test output into one result per test, and compare with a baseline.

  tap.py vmtests LOG      run_vmtests.sh output (our runner marks each category
                          with '=== category: NAME'); prints 'cat<TAB>test<TAB>result',
                          and each kselftest program's cases as 'cat<TAB>test: case<TAB>result'
  tap.py ktap LOG         KUnit KTAP from a console log; prints 'kunit<TAB>suite.case<TAB>result'
  tap.py splats LOG WHERE kernel splats (WARNING, BUG, lockdep, KASAN, hung task...)
                          on a console; prints 'console<TAB>WHERE: splat (during TEST)<TAB>fail'
  tap.py compare BASE RESULTS [--ran CATS] [--expect FILE] [--flaky FILE]
                          a failure not known in BASE fails; a known one is reported;
                          a new pass is reported; a test of FILE (harness/expected.sh:
                          the series' own) without any result fails. FILE of --flaky
                          (baseline/flaky.tsv: 'cat<TAB>test<TAB>why') names results
                          known to fail at random on the base too although the base's
                          runs did not show it; a test whose only failed cases are
                          such is known too. Prints the 'N passed, N failed' line.
  tap.py why SUMMARY LOG...
                          for each NEW FAIL of SUMMARY (compare's output) that
                          a LOG (run_vmtests.sh output) has, the lines its
                          program printed before the result
  tap.py merge OLD NEW    merge two runs of the base: a test that passed in one and
                          failed in the other becomes 'flaky' (its failure is then
                          not fatal); a skip in either gives way to NEW

Results are pass, fail or skip. run_vmtests.sh's exit status is not used:
a FAIL followed by a SKIP exits 4, which would read as a skip. Nor is a
program's own: hmm-tests report failed cases and exit 0.
"""
import re
import sys

TAP = re.compile(r"^(not ok|ok) \d+ (.*?)(?:\s+#\s*(.*))?$")
# A kselftest program's case, one level in: '# ok 3 name', '# ok 4 # SKIP why'
CASE = re.compile(r"^# (not ok|ok) \d+(?: (.*?))??(?:\s+#\s*(.*))?$")


def norm(name):
    # Temporary paths differ from run to run.
    return re.sub(r"/tmp/[\w.-]+", "/tmp/X", name).strip()


def result(status, directive):
    if status == "not ok":
        return "fail"
    if directive and directive.upper().startswith("SKIP"):
        return "skip"
    return "pass"


def vmtests(lines, ctx=None):
    """Each test run_vmtests.sh runs gives one top-level 'ok'/'not ok' line;
    a kselftest program's own results come before it, prefixed '# '. Both
    count: a program can report 'not ok' for a case and still exit 0, which
    the top-level line then reads as a pass. A case is named after its test
    ('test: case'), with digits in the case's name made 'N' (several print
    measured values there); repeated names are numbered in order. With
    @ctx (a dict), each result's key gets the diagnostic lines ('# ...') its
    program printed since the previous result: what a failure says."""
    cat, seen, out, cases, said = "unknown", {}, [], [], []

    def add(name, res, told=()):
        key = (cat, name)
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > 1:
            name = "%s #%d" % (name, seen[key])
        out.append((cat, name, res))
        if ctx is not None:
            ctx[(cat, name)] = list(told)

    def flush(parent):
        for name, res, told in cases:
            add("%s: %s" % (parent, name), res, told)
        del cases[:]

    for line in lines:
        line = line.rstrip("\r\n")
        m = re.match(r"^=== category: (\S+)", line)
        if m:
            flush("(no result line)")
            cat = m.group(1)
            del said[:]
            continue
        m = CASE.match(line)
        if m:
            status, name, directive = m.groups()
            # A case that only says why it was skipped is named by that
            name = name or directive or "(unnamed)"
            cases.append((re.sub(r"\d+", "N", norm(name)), result(status, directive), said[:]))
            del said[:]
            continue
        m = TAP.match(line)
        if not m:
            if line.startswith("# "):
                said.append(line)
            continue
        status, name, directive = m.groups()
        name = norm(name)
        add(name, result(status, directive), said)
        del said[:]
        flush(name)
    flush("(no result line)")
    return out


def why(summary_path, logs, most=12):
    """After a summary: for each NEW FAIL of a selftest (or its case), the
    last @most lines its program printed before the result, so that a log
    that keeps only its tail still says why."""
    ctx = {}
    for path in logs:
        try:
            with open(path, errors="replace") as f:
                vmtests(f, ctx)
        except OSError:
            continue
    with open(summary_path) as f:
        for line in f:
            m = re.match(r"^NEW FAIL   (\S+): (.*) \(base: .*\)$", line.rstrip("\n"))
            if not m or not ctx.get((m.group(1), m.group(2))):
                continue
            told = [t for t in ctx[(m.group(1), m.group(2))]
                    if not re.match(r"^# (# Totals:|\[(PASS|FAIL|SKIP)\])", t)]
            if not told:
                continue
            print("why        %s: %s" % (m.group(1), m.group(2)))
            for t in told[-most:]:
                print("    | %s" % t)


def ktap(lines):
    """A suite's test cases are its subtests at indent 4 (parameterised cases
    nest deeper and are summed up by their case's line); the suite's own line
    at indent 0 counts only if it had no cases. Console lines may carry
    '[  1.2] ' timestamps. Plans are checked: a suite whose '1..M' promised
    more cases than it reported, a suite that never ended (the kernel died
    in it) and fewer suites than the top-level '1..N' are failures."""
    out, suite, cases, plan = [], None, 0, None
    top_plan, suites = None, 0
    for line in lines:
        if line.startswith("=== mm-harness: start"):
            break  # built-in suites run before init; later lines are user space's
        line = re.sub(r"^\[\s*[\d.]+\]\s?", "", line.rstrip("\r\n"))
        m = re.match(r"^(\s*)1\.\.(\d+)\s*$", line)
        if m:
            if len(m.group(1)) == 0 and top_plan is None:
                top_plan = int(m.group(2))
            elif len(m.group(1)) == 4 and suite:
                plan = int(m.group(2))
            continue
        m = re.match(r"^(\s*)# Subtest: (\S+)", line)
        if m and len(m.group(1)) == 4:
            suite, cases, plan = m.group(2), 0, None
            continue
        m = re.match(r"^(\s*)(not ok|ok) \d+ (\S+)(?:.*?#\s*(SKIP.*))?", line)
        if not m:
            continue
        indent, status, name, skip = len(m.group(1)), m.group(2), m.group(3), m.group(4)
        res = "fail" if status == "not ok" else ("skip" if skip else "pass")
        if indent == 4 and suite:
            out.append(("kunit", "%s.%s" % (suite, name), res))
            cases += 1
        elif indent == 0:
            suites += 1
            # The suite's own result: only news if it had no cases.
            if not cases:
                out.append(("kunit", name, res))
            if plan is not None and cases != plan:
                out.append(("kunit", "%s: plan 1..%d, %d cases reported" % (name, plan, cases), "fail"))
            suite, cases, plan = None, 0, None
    if suite:
        out.append(("kunit", "%s: the suite did not finish (%d of %s cases reported)"
                    % (suite, cases, plan if plan is not None else "?"), "fail"))
    if top_plan is not None and suites < top_plan:
        out.append(("kunit", "plan 1..%d, %d suites reported" % (top_plan, suites), "fail"))
    return out


SPLAT = re.compile(r"(WARNING:|BUG:|Oops|Kernel panic|general protection fault|"
                   r"INFO: task .* blocked for more than|possible circular locking|"
                   r"possible recursive locking|inconsistent lock state|"
                   r"suspicious RCU usage|KASAN:|UBSAN:|kernel BUG at|"
                   r"list_add corruption|list_del corruption|watchdog: BUG|"
                   r"rcu: INFO: \S+ (self-)?detected stall)")
MARK = re.compile(r"mm-harness: (running .*)$")


def splats(lines, where):
    """Kernel splats on a console: each distinct one is a failure named by
    its first line (numbers made 'N') and the test that was running (the
    suite runner writes 'mm-harness: running CAT: TEST' to /dev/kmsg before
    each test; before the first one it is the boot or KUnit). Only lines
    with printk's timestamp count. A console with none gives one pass."""
    out, seen, running = [], set(), "boot/KUnit"
    for line in lines:
        # Kernel lines only (printk's timestamp): the guest command's own
        # output shares the console and may say 'WARNING:' too.
        m = re.match(r"^\[\s*[\d.]+\]\s?", line)
        if not m:
            continue
        line = line[m.end():].rstrip("\r\n")
        m = MARK.search(line)
        if m:
            running = m.group(1)
            continue
        m = SPLAT.search(line)
        if not m:
            continue
        text = re.sub(r"\b0x[0-9a-f]+\b|\b[0-9a-f]{8,}\b|\d+", "N", line[m.start():]).strip()
        text = re.sub(r"\s+", " ", text)[:160]
        name = "%s: %s (during %s)" % (where, text, running)
        if name not in seen:
            seen.add(name)
            out.append(("console", name, "fail"))
    if not out:
        out.append(("console", "%s: no kernel warning" % where, "pass"))
    return out


def load(path):
    res = {}
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            cat, name, r = line.rstrip("\n").split("\t")[:3]
            res[(cat, name)] = r
    return res


def parent_flaky(base, key):
    """A case ('test: case') of a test that is flaky on the base: the base's
    record of its cases comes from fewer runs than its flakiness shows."""
    cat, name = key
    i = name.find(": ")
    while i >= 0:
        if base.get((cat, name[:i])) == "flaky":
            return True
        i = name.find(": ", i + 1)
    return False


def expected(path):
    rows = []
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                rows.append(tuple(line.rstrip("\n").split("\t")[:2]))
    return rows


def reported(res, cat, name):
    """A KUnit suite reports as 'suite.case' (or its own line); a selftest as
    its run_vmtests.sh line."""
    if cat == "kunit":
        return any(c == cat and (n == name or n.startswith(name + ".")) for c, n in res)
    return (cat, name) in res


def flaky_list(path):
    """'cat<TAB>test<TAB>why' rows: results that fail at random on the base."""
    why = {}
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                cat, name, reason = (line.rstrip("\n").split("\t") + [""])[:3]
                why[(cat, name)] = reason
    return why


def flaky_parents(res, why):
    """A test that failed only because of cases listed as flaky."""
    cases = {}
    for (cat, name), r in res.items():
        i = name.find(": ")
        if r == "fail" and i > 0:
            cases.setdefault((cat, name[:i]), []).append((cat, name))
    return {parent: "its failed cases are known flaky" for parent, failed in cases.items()
            if res.get(parent) == "fail" and all(c in why for c in failed)}


def compare(base_path, res_path, ran, expect=(), flaky=None):
    base, res = load(base_path), load(res_path)
    why = dict(flaky or {})
    why.update(flaky_parents(res, why))
    for key in why:
        if base.get(key) not in ("fail", "skip"):
            base[key] = "flaky"
    passed = failed = skipped = 0
    for cat, name in expect:
        if not reported(res, cat, name):
            failed += 1
            print("MISSING    %s: %s (the series' own test gave no result; did it run?)" % (cat, name))
    for key in sorted(res):
        r, b = res[key], base.get(key)
        if r == "fail" and b not in ("fail", "flaky") and parent_flaky(base, key):
            b = "flaky"
        label = "%s: %s" % key
        if r == "pass":
            passed += 1
            if b in ("fail", "skip"):
                print("NEW PASS   %s (base: %s)" % (label, b))
        elif r == "skip":
            skipped += 1
            if b == "pass":
                print("NEW SKIP   %s (base: pass)" % label)
        elif b in ("fail", "flaky"):
            skipped += 1
            print("known fail %s (%s on the base too%s)" % (
                label, "fails" if b == "fail" else "flaky",
                ": " + why[key] if why.get(key) else ""))
        else:
            failed += 1
            print("NEW FAIL   %s (base: %s)" % (label, b or "not in baseline"))
    for key in sorted(base):
        if key[0] in ran and key not in res and base[key] != "skip":
            if parent_flaky(base, key):
                print("missing    %s: %s (a case of a test flaky on the base)" % key)
                continue
            failed += 1
            print("MISSING    %s: %s (base: %s; did the run die?)" % (key[0], key[1], base[key]))
    return passed, failed, skipped


def merge(old_path, new_path):
    old, new = load(old_path), load(new_path)
    for key in sorted(set(old) | set(new)):
        a, b = old.get(key), new.get(key)
        if b is None:
            r = a
        elif a is None or a == b or "skip" in (a, b):
            r = b  # a skip depends on the guest set-up: the newer run wins
        else:
            r = "flaky"
        print("%s\t%s\t%s" % (key[0], key[1], r))


def main(argv):
    if len(argv) >= 2 and argv[0] in ("vmtests", "ktap"):
        with open(argv[1], errors="replace") as f:
            rows = (vmtests if argv[0] == "vmtests" else ktap)(f)
        for row in rows:
            print("\t".join(row))
        return 0
    if len(argv) == 3 and argv[0] == "splats":
        with open(argv[1], errors="replace") as f:
            for row in splats(f, argv[2]):
                print("\t".join(row))
        return 0
    if len(argv) >= 3 and argv[0] == "compare":
        ran, expect, flaky, rest = set(), [], {}, argv[3:]
        while len(rest) >= 2 and rest[0] in ("--ran", "--expect", "--flaky"):
            if rest[0] == "--ran":
                ran = set(rest[1].split())
            elif rest[0] == "--expect":
                expect = expected(rest[1])
            else:
                flaky = flaky_list(rest[1])
            rest = rest[2:]
        if rest:
            sys.stderr.write(__doc__)
            return 2
        p, f, s = compare(argv[1], argv[2], ran, expect, flaky)
        print("%d passed, %d failed, %d skipped" % (p, f, s))
        return 1 if f else 0
    if len(argv) >= 2 and argv[0] == "why":
        why(argv[1], argv[2:])
        return 0
    if len(argv) == 3 and argv[0] == "merge":
        merge(argv[1], argv[2])
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
