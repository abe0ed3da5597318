#!/usr/bin/env python3
"""The cover letter's results table: the goals' verdicts, from the same
source as results/README.md (bench/goals.spec through bench/verdicts.py), so
that the two cannot disagree.

  cover-table.py          rewrite the table in patches/cover.txt
  cover-table.py --check  exit 1 if patches/cover.txt's table is not what the
                          results give (CI runs this)
  cover-table.py --print  print the table
"""
import os
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, "bench"))
import verdicts  # noqa: E402

BEGIN = verdicts.TEXT_BEGIN
END = verdicts.TEXT_END


def table():
    return verdicts.text(verdicts.evaluate())


def main():
    path = os.path.join(TOP, "patches", "cover.txt")
    text = open(path).read()
    t = table()
    if "--print" in sys.argv:
        sys.stdout.write(t)
        return 0
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        tail = rest.split(END, 1)[1]
        new = head + t.rstrip("\n") + tail
    else:
        new = None
    if "--check" in sys.argv:
        if new is None or new != text:
            print("patches/cover.txt: the results table is missing or stale; run 'make cover-table'")
            return 1
        print("patches/cover.txt: results table matches results/")
        return 0
    if new is None:
        sys.exit("patches/cover.txt has no table markers: put a line '%s' and a line '%s'"
                 % (BEGIN, END))
    open(path, "w").write(new)
    print("patches/cover.txt: results table regenerated")
    return 0


sys.exit(main())
