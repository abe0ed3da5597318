#!/usr/bin/env python3
"""Resolve the conflicts of a patch taken alone out of the series.

  series-resolve.py FILE...   (files with diff3 conflict markers, in place)

make series FEATURE=n cherry-picks one feature's commits onto the base. A
commit's context then often holds lines another feature added before it
(its vmstat items, its Kconfig entry): git sees a conflict where there is
none. In diff3 terms, the base of the conflict ('|||||||') is the file as
the whole series had it, ours ('<<<<<<<') the feature-only tree, theirs
('>>>>>>>') the commit's result. The resolution is safe only when ours is
the base with other features' lines taken out, and the commit changes none
of those lines: then it is the commit's change applied to ours. Anything
else is a real conflict: the file is left as it is and the exit status is 1.
"""
import difflib
import sys


def resolve(ours, base, theirs):
    """The commit's change (base -> theirs) applied to ours, or None."""
    foreign = [False] * len(base)
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, base, ours, autojunk=False).get_opcodes():
        if tag == "delete":
            foreign[i1:i2] = [True] * (i2 - i1)
        elif tag != "equal":
            return None  # ours has lines the base has not: not a subset
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, base, theirs, autojunk=False).get_opcodes():
        if tag == "equal":
            out += [line for k, line in enumerate(base[i1:i2]) if not foreign[i1 + k]]
        elif any(foreign[i1:i2]):
            return None  # the commit changes another feature's line
        else:
            out += theirs[j1:j2]  # insert, or delete/replace of shared lines
    return out


def resolve_file(path):
    lines = open(path).read().splitlines(keepends=True)
    out, i, ok = [], 0, True
    while i < len(lines):
        if not lines[i].startswith("<<<<<<< "):
            out.append(lines[i])
            i += 1
            continue
        part = {"ours": [], "base": [], "theirs": []}
        cur, i = "ours", i + 1
        while i < len(lines) and not lines[i].startswith(">>>>>>> "):
            if lines[i].startswith("||||||| "):
                cur = "base"
            elif lines[i].startswith("=======") and cur == "base":
                cur = "theirs"
            else:
                part[cur].append(lines[i])
            i += 1
        i += 1
        got = resolve(part["ours"], part["base"], part["theirs"]) if cur == "theirs" else None
        if got is None:
            sys.stderr.write("%s: a real conflict (the commit changes another feature's lines)\n" % path)
            return False
        out += got
    if ok:
        open(path, "w").write("".join(out))
    return ok


def self_test():
    a = ["x\n", "f1\n", "y\n"]
    assert resolve(["x\n", "y\n"], a, ["x\n", "f1\n", "f5\n", "y\n"]) == ["x\n", "f5\n", "y\n"]
    assert resolve(["x\n", "y\n"], a, ["x\n", "f5\n", "y\n"]) is None      # drops f1's line
    assert resolve(["x\n", "z\n", "y\n"], a, a + ["f5\n"]) is None         # ours not a subset
    assert resolve(["x\n", "y\n"], a, ["X\n", "f1\n", "y\n"]) == ["X\n", "y\n"]
    print("series-resolve: self-test ok")


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        sys.exit(0)
    sys.exit(0 if all([resolve_file(p) for p in sys.argv[1:]]) else 1)
