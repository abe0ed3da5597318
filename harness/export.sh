#!/usr/bin/env bash
# Write build/linux's commits (base..HEAD) back to patches/ with stable
# names and contents: numbered subjects, zero commit ids, no signature. The
# cover letter's subject and text come from patches/cover.txt (first line the
# subject, then a blank line, then the body); its last paragraph names the
# base by its package version (base-commit would name build/linux's local
# base commit, which no one else can resolve).
. "$(dirname "$0")/common.sh"

[ -d "$SRC/.git" ] || die "no tree; run 'make tree'"
[ -z "$(gitk status --porcelain -uno)" ] || die "build/linux has uncommitted changes; commit them first"
n=$(gitk rev-list --count refs/tags/base..HEAD)
rm -f "$TOP"/patches/[0-9][0-9][0-9][0-9]-*.patch
if [ "$n" = 0 ]; then
	say "series is empty"; series_sum > "$BUILD/.series-sum"
	gitk rev-parse 'HEAD^{tree}' > "$BUILD/.tree-head"; exit 0
fi
cover=()
[ "$n" -lt 2 ] || cover=(--cover-letter)
gitk format-patch -q -o "$TOP/patches" --zero-commit --no-signature \
	--subject-prefix=PATCH "${cover[@]}" refs/tags/base..HEAD
c=$(ls "$TOP"/patches/0000-*.patch 2>/dev/null || true)
if [ -n "$c" ] && [ -f "$TOP/patches/cover.txt" ]; then
	python3 - "$c" "$TOP/patches/cover.txt" "$BASE_PKG" "$BASE_VERSION" <<'PY'
import sys, textwrap
path, src, pkg, version = sys.argv[1:]
subject, _, body = open(src).read().partition("\n\n")
base = textwrap.fill("Base: Debian 12's %s %s (upstream %s with Debian's patches), as "
                     "'make tree' unpacks it." % (pkg, version, version.split("-")[0]), 72)
text = open(path).read()
text = text.replace("*** SUBJECT HERE ***", subject.strip())
text = text.replace("*** BLURB HERE ***", body.rstrip() + "\n\n" + base)
# The cover letter is from whoever wrote the patches, not the harness.
import glob, re
first = sorted(glob.glob(path.replace("0000-cover-letter.patch", "0001-*.patch")))
if first:
    author = re.search(r"^From: .*$", open(first[0]).read(), re.M)
    if author:
        text = re.sub(r"^From: .*$", author.group(0), text, count=1, flags=re.M)
open(path, "w").write(text)
PY
fi
series_sum > "$BUILD/.series-sum"
gitk rev-parse 'HEAD^{tree}' > "$BUILD/.tree-head"
say "exported $n patch(es) to patches/"
"$TOP/harness/check-export.sh"
