#!/usr/bin/env bash
# build/linux: the pinned base as one git commit, the series applied on top
# with 'git am' (one commit per patch). Refuses to replace a tree that holds
# work not exported to patches/ (FORCE=1 replaces it anyway). A tree that is
# merely older than patches/ (HEAD is what the last 'make tree' or 'make
# export' left) is replaced without asking.
. "$(dirname "$0")/common.sh"

if [ -d "$SRC/.git" ]; then
	if [ "${FORCE:-0}" != 1 ] && { [ -n "$(gitk status --porcelain -uno)" ] ||
		[ "$(gitk rev-parse 'HEAD^{tree}')" != "$(cat "$BUILD/.tree-head" 2>/dev/null)" ]; } &&
		! "$TOP/harness/check-export.sh" >&2; then
		die "build/linux has work that is not in patches/: run 'make export' first,
    or FORCE=1 to throw it away and start again from patches/"
	fi
	if [ "${FORCE:-0}" != 1 ] && [ "$(gitk log -1 --format=%s "$(gitk rev-list --max-parents=0 HEAD)")" = "base: $BASE_PKG $BASE_VERSION" ]; then
		# Re-apply only if patches/ changed since the tree was made.
		if [ -f "$BUILD/.series-sum" ] && [ "$(cat "$BUILD/.series-sum")" = "$(series_sum)" ]; then
			say "build/linux is up to date with patches/"
			exit 0
		fi
	fi
	rm -rf "$SRC"
fi

tarball=$("$TOP/harness/base.sh")
mkdir -p "$BUILD"
say "unpacking $tarball"
tmp=$BUILD/.unpack.$$
rm -rf "$tmp" && mkdir -p "$tmp"
tar -C "$tmp" -xaf "$tarball"
mv "$tmp"/linux-source-6.12 "$SRC" && rmdir "$tmp"
gitk init -q -b pristine
gitk add -A -f .
# Fixed dates: the same base and series give the same commit ids, hence the
# same kernel release string (6.12.117-g<id>) on every machine.
GIT_COMMITTER_DATE=2024-01-01T00:00:00Z gitk commit -q -m "base: $BASE_PKG $BASE_VERSION" --date=2024-01-01T00:00:00Z
gitk tag -f base >/dev/null
gitk checkout -q -b series
n=0
for p in $(series_files); do
	# --3way off, no fuzz: a patch that does not apply exactly fails here.
	gitk am -q --committer-date-is-author-date --whitespace=nowarn "$p" || {
		gitk am --abort || true
		die "patch ${p##*/} does not apply cleanly"
	}
	n=$((n + 1))
done
series_sum > "$BUILD/.series-sum"
gitk rev-parse 'HEAD^{tree}' > "$BUILD/.tree-head"
say "build/linux: base $BASE_VERSION + $n patch(es)"
