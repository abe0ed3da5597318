#!/usr/bin/env bash
# make series FEATURE=n [CHECK=0|1]: feature n's patches alone on the base,
# as a series of its own for that feature's reviewers, with its own cover
# letter -> build/split/<n>/ (the patches); the tree is build/split/linux
# while it runs, and stays there when a step fails.
#
# configs/series says which patch belongs to which feature. The feature's
# commits of build/linux are cherry-picked onto the base in series order.
# Where a commit's context holds another feature's lines (vmstat items,
# Kconfig entries next to each other), harness/series-resolve.py applies the
# commit's own change and nothing else; a commit that changes another
# feature's lines stops the run. MAINTAINERS changes are left out of the
# feature's commits: the series ends with the MAINTAINERS entry, with this
# feature's files only. The cover letter comes from patches/cover.txt
# (harness/series-cover.py).
#
# CHECK=1 (the default) then checks the result: checkpatch --strict on each
# patch, a build with only this feature compiled in (build/split/obj), and a
# boot that runs its KUnit suite, every case of which must pass.
. "$(dirname "$0")/common.sh"

n=${FEATURE:-}
[ -n "$n" ] || die "usage: make series FEATURE=n (1-5; configs/features)"
name=$("$TOP/harness/features.py" name "$n") || exit 2
kconfig=$(awk -F' *[|] *' -v n="$n" '$1 == n {print $3}' "$TOP/configs/features")
mapfile -t want < <("$TOP/harness/features.py" patches "$n")
"$TOP/harness/features.py" --check > /dev/null || die "configs/series or configs/features disagree with patches/: harness/features.py --check"
[ -d "$SRC/.git" ] || die "no tree; run 'make tree'"
[ -z "$(gitk status --porcelain -uno)" ] || die "build/linux has uncommitted changes; commit them first"

# The same relative layout as build/linux and build/obj, so that ccache
# finds the objects of files this series does not change.
sdir=$BUILD/split
wt=$sdir/linux sobj=$sdir/obj out=$sdir/$n
mkdir -p "$sdir"
exec 9> "$sdir/.lock"
flock -n 9 || die "another 'make series' holds ${sdir#"$TOP"/}/.lock"
# The tree goes when the run succeeds (its commits are not the series', and
# must not be taken for unexported work); a run that stops keeps it.
# KEEP_TREE=1 keeps it for the next run (check-series, which removes it).
done_ok=0
cleanup() {
	[ "$done_ok" = 1 ] && [ "${KEEP_TREE:-0}" != 1 ] || return 0
	gitk worktree remove --force "$wt" 2>/dev/null || rm -rf "$wt"
	gitk worktree prune
}
trap cleanup EXIT
if [ -e "$wt/.git" ]; then
	git -C "$wt" cherry-pick --quit 2>/dev/null || true
	git -C "$wt" checkout -q -f --detach refs/tags/base
	git -C "$wt" reset -q --hard refs/tags/base
	git -C "$wt" clean -q -fdx
else
	gitk worktree prune
	gitk worktree add -q -f --detach "$wt" refs/tags/base
fi

# Fixed committer dates: the same series gives the same commit ids.
export GIT_COMMITTER_NAME="mm-pressure developers" GIT_COMMITTER_EMAIL=mm-pressure@example.org
full=() nums=() num=0 maint= moved=()
while read -r c; do
	num=$((num + 1))
	subject=$(gitk log -1 --format=%s "$c")
	if [ "$subject" = "$("$TOP/harness/features.py" patches maintainers)" ]; then
		maint=$c; continue
	fi
	grep -qxF -- "$subject" <<< "$(printf '%s\n' "${want[@]}")" || continue	# no pipe: grep -q exiting early made printf die of SIGPIPE (pipefail)
	say "patch $num: $subject"
	git -C "$wt" -c merge.conflictstyle=diff3 cherry-pick -n "$c" > "$sdir/pick.log" 2>&1 || true
	# The MAINTAINERS entry comes last, with this feature's files only
	if ! git -C "$wt" diff --quiet HEAD -- MAINTAINERS || git -C "$wt" ls-files -u -- MAINTAINERS | grep -q .; then
		git -C "$wt" checkout -q HEAD -- MAINTAINERS
		moved+=($(( ${#full[@]} + 1 )))	# its place in this series
	fi
	mapfile -t conflicted < <(git -C "$wt" diff --name-only --diff-filter=U)
	if [ ${#conflicted[@]} -gt 0 ]; then
		say "  other features' lines in the context of: ${conflicted[*]}"
		( cd "$wt" && "$TOP/harness/series-resolve.py" "${conflicted[@]}" ) ||
			die "patch $num ('$subject') changes lines of another feature; make it not depend on them (build/split/linux has the conflict)"
		git -C "$wt" add -f -- "${conflicted[@]}"	# Debian's .gitignore ignores /*
	fi
	GIT_COMMITTER_DATE=$(gitk log -1 --format=%aI "$c") git -C "$wt" commit -q --no-verify -C "$c"
	git -C "$wt" cherry-pick --quit 2>/dev/null || true
	full+=("$c") nums+=("$num")
done < <(gitk rev-list --reverse refs/tags/base..HEAD)
[ ${#full[@]} = ${#want[@]} ] || die "found ${#full[@]} of the ${#want[@]} patches configs/series gives feature $n"

# The MAINTAINERS entry: the whole series' entry with this feature's files
if [ -n "$maint" ]; then
	title=$(gitk show --format= "$maint" -- MAINTAINERS | sed -n 's/^+\([A-Z][A-Z].*\)$/\1/p' | head -n 1)
	python3 - "$SRC/MAINTAINERS" "$wt/MAINTAINERS" "$wt" "$title" <<'PY' || die "cannot place the MAINTAINERS entry"
import os, sys
full, mine, tree, title = sys.argv[1:]
lines = open(full).read().split("\n")
start = lines.index(title)
end = lines.index("", start)
entry = [l for l in lines[start:end]
         if not l.startswith("F:\t") or os.path.exists(os.path.join(tree, l[3:]))]
if not any(l.startswith("F:\t") for l in entry):
    sys.exit("the entry names no file of this feature")
after = lines[end + 1]            # the next entry's title
text = open(mine).read().split("\n")
i = text.index(after)
open(mine, "w").write("\n".join(text[:i] + entry + [""] + text[i:]))
PY
	author=$(gitk log -1 --format='%an <%ae>' "$maint")
	date=$(gitk log -1 --format=%aI "$maint")
	msg=$(printf 'MAINTAINERS: add an entry for the %s\n\n%s\n\nSigned-off-by: %s\n' "$name" \
		"$(printf 'The %s adds files of its own under mm/ and its selftest; name who looks after them, so get_maintainer.pl finds a person for the feature and not only the whole of mm/. The hooks in existing files stay with their maintainers.' "$name" | fold -s -w 72 | sed 's/ $//')" \
		"$author")
	git -C "$wt" add -f MAINTAINERS
	GIT_COMMITTER_DATE=$date git -C "$wt" commit -q --no-verify --author="$author" --date="$date" -m "$msg"
	nums+=(maintainers)
fi

# The patches and their cover letter
rm -rf "$out"
mkdir -p "$out"
git -C "$wt" format-patch -q -o "$out" --zero-commit --no-signature --subject-prefix=PATCH \
	--cover-letter refs/tags/base..HEAD
"$TOP/harness/series-cover.py" "$n" "${nums[@]}" > "$sdir/cover.txt" || die "no cover letter"
python3 - "$out"/0000-cover-letter.patch "$sdir/cover.txt" "$out"/0001-*.patch <<'PY'
import re, sys
path, src, first = sys.argv[1:4]
subject, _, body = open(src).read().partition("\n\n")
text = open(path).read()
text = text.replace("*** SUBJECT HERE ***", subject.strip())
text = text.replace("*** BLURB HERE ***", body.rstrip())
author = re.search(r"^From: .*$", open(first).read(), re.M)
text = re.sub(r"^From: .*$", author.group(0), text, count=1, flags=re.M)
open(path, "w").write(text)
PY
k=$(git -C "$wt" rev-list --count refs/tags/base..HEAD)
say "feature $n ($name): $k patch(es) and a cover letter in ${out#"$TOP"/}/"

[ "${CHECK:-1}" = 1 ] || { done_ok=1; exit 0; }

# checkpatch --strict, with the exceptions patches/checkpatch.exceptions
# grants the same patch in the whole series (matched without its number)
exc=$TOP/patches/checkpatch.exceptions fails=0
for p in "$out"/[0-9][0-9][0-9][0-9]-*.patch; do
	base=${p##*/}; base=${base#[0-9][0-9][0-9][0-9]-}
	[ "$base" != cover-letter.patch ] || continue
	ignore=$(awk -v n="$base" 'substr($1, 6) == n {printf "%s,", $2}' "$exc")
	# A patch that named its new files in MAINTAINERS in the whole series
	# (after its entry) has that change moved to this series' last patch:
	# checkpatch's "does MAINTAINERS need updating?" is answered there.
	num=${p##*/}; num=$((10#${num%%-*}))
	! grep -qxF "$num" <<< "$(printf '%s\n' "${moved[@]}")" || ignore+=FILE_PATH_CHANGES,
	res=$("$wt/scripts/checkpatch.pl" --strict --no-tree --show-types \
		${ignore:+--ignore "${ignore%,}"} "$p" 2>&1) || true
	if grep -q 'total: 0 errors, 0 warnings, 0 checks' <<< "$res"; then
		echo "ok checkpatch ${p##*/}"
	else
		echo "not ok checkpatch ${p##*/}"; echo "$res" | sed 's/^/#   /'; fails=$((fails + 1))
	fi
done

# Built with this feature alone, and its KUnit suite at boot
if ! SRC=$wt OBJ=$sobj DEBUG=0 FEATURES="$kconfig ${kconfig}_KUNIT_TEST" \
	"$TOP/harness/build.sh" > "$sdir/build.log" 2>&1; then
	tail -n 20 "$sdir/build.log" | sed 's/^/#   /'
	echo "not ok feature $n alone builds (${sdir#"$TOP"/}/build.log)"; exit 1
fi
echo "ok feature $n alone builds with only $kconfig"
. "$TOP/configs/test-categories"
SRC=$wt OBJ=$sobj DEBUG=0 RESULTS=$sdir/kunit CMD=true QUIET=1 TIMEOUT=900 \
	CPUS=$SUITE_CPUS MEM=$SUITE_MEM NUMA=$SUITE_NUMA SWAP=$SUITE_SWAP TCG=$SUITE_TCG \
	"$TOP/harness/boot.sh" > "$sdir/kunit.log" 2>&1 || true
"$TOP/harness/tap.py" ktap "$sdir/kunit/console.log" > "$sdir/kunit.tsv" 2>/dev/null || true
"$TOP/harness/tap.py" splats "$sdir/kunit/console.log" guest >> "$sdir/kunit.tsv" 2>/dev/null || true
# Its suites must report (a missing one fails), each case must pass
SRC=$wt OBJ=$sobj DEBUG=0 "$TOP/harness/expected.sh" | grep '^kunit' > "$sdir/expected.tsv" || true
if [ -s "$sdir/expected.tsv" ] &&
	"$TOP/harness/tap.py" compare /dev/null "$sdir/kunit.tsv" --ran kunit \
		--expect "$sdir/expected.tsv" > "$sdir/kunit-compare.txt"; then
	echo "ok feature $n alone boots; KUnit $(cut -f2 "$sdir/expected.tsv" | paste -sd' '): $(grep -c $'^kunit\t.*\tpass$' "$sdir/kunit.tsv") cases passed, no splat"
else
	grep -v '^NEW PASS' "$sdir/kunit-compare.txt" 2>/dev/null | sed 's/^/#   /'
	[ -s "$sdir/expected.tsv" ] || echo "#   the tree builds no KUnit suite of this feature"
	echo "not ok feature $n alone boots, its KUnit suite passes (${sdir#"$TOP"/}/kunit/console.log)"
	fails=$((fails + 1))
fi
[ "$fails" = 0 ] || exit 1
done_ok=1
