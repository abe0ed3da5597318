#!/usr/bin/env python3
"""The cover letter of one feature's series (make series FEATURE=n).

  series-cover.py N PATCH...   PATCHes: full-series numbers of the feature's
                               patches, in order (the MAINTAINERS entry last,
                               as 'maintainers'); prints subject, blank line,
                               body

Taken from patches/cover.txt, the whole series' letter, so the two cannot
say different things: its paragraphs from 'Patch <the feature's first>' up
to the next feature's (or the goals table), with every 'patch N' renumbered
for this series; the feature's block of the generated goals table; and the
closing paragraph on how it was built and tested.
"""
import os
import re
import sys
import textwrap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import features  # noqa: E402

TOP = features.TOP


def paragraphs(text):
    return [p for p in re.split(r"\n\s*\n", text.strip("\n"))]


def main(argv):
    n, nums = argv[0], argv[1:]
    feat = {f["n"]: f for f in features.load()}[n]
    own = [int(x) for x in nums if x != "maintainers"]
    renum = {full: i + 1 for i, full in enumerate(own)}
    total = len(nums)
    subject, _, body = open(os.path.join(TOP, "patches", "cover.txt")).read().partition("\n\n")
    paras = paragraphs(body)

    def starts(p):
        m = re.match(r"Patch (\d+)\b", p)
        return int(m.group(1)) if m else None

    section, inside = [], False
    for p in paras:
        if starts(p) is not None:
            inside = starts(p) in renum
        elif p.startswith("Goals ("):
            inside = False
        if inside:
            section.append(p)
    if not section:
        sys.exit("patches/cover.txt: no paragraph starts with 'Patch %d'" % own[0])

    def fix(m):
        full = int(m.group(2))
        if full not in renum:
            sys.exit("patches/cover.txt: feature %s's text names patch %d, not in its series"
                     % (n, full))
        return "%s %d" % (m.group(1), renum[full])
    section = [re.sub(r"\b([Pp]atch) (\d+)\b", fix, p) for p in section]

    # The feature's block of the generated table, with the table's header
    goals = re.search(r"^Goals \(generated.*?(?=\n\n)", body, re.M | re.S)
    block = re.search(r"^%s\. .*?(?=\n\n|\n\(end of generated goals\))" % re.escape(n),
                      body, re.M | re.S)
    wrap = lambda t: textwrap.fill(t, 72, break_on_hyphens=False)  # noqa: E731
    version = re.search(r"^version=(.*)$", open(os.path.join(TOP, "BASE_VERSION")).read(), re.M)

    out = ["mm: %s" % feat["name"], ""]
    out.append(wrap(
        "This is feature %s of the five of the memory-pressure series, "
        "posted on its own for its reviewers: it applies to the base without "
        "the others. It sits behind %s (default n) and the sysctl %s (%s: off, "
        "%s: on)." % (n, feat["kconfig"], feat["sysctl"], feat["off"], feat["on"])))
    out += [""] + ["\n\n".join(section)]
    if "maintainers" in nums:
        out += ["", "Patch %d adds a MAINTAINERS entry for the files this series adds." % total]
    if goals and block:
        out += ["", goals.group(0), "", block.group(0)]
    out += ["", wrap(
        "The harness in the series' repository checks it with "
        "'make series FEATURE=%s CHECK=1' (checkpatch --strict, this series "
        "alone built with only %s and its KUnit suite booted) and 'make test' "
        "on the whole series (KUnit and the mm selftests against the "
        "unpatched base), and measures it with 'make bench B=%s'." % (n, feat["kconfig"], feat["bench"]))]
    out += ["", wrap("Base: Debian 12's %s %s (upstream %s with Debian's patches), as "
                     "'make tree' unpacks it." % ("linux-source-6.12", version.group(1),
                                                  version.group(1).split("-")[0]))]
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
