#!/usr/bin/env bash
# Does patches/ reproduce build/linux exactly? Exit 0 if yes (or no tree).
. "$(dirname "$0")/common.sh"

[ -d "$SRC/.git" ] || exit 0
rc=0
dirty=$(gitk status --porcelain -uno | head -n 5)
if [ -n "$dirty" ]; then
	say "build/linux has uncommitted changes:"; printf '  %s\n' "$dirty" >&2; rc=1
fi
# Debian's top-level .gitignore ignores everything ('/*'), so a new file is
# silently left out by 'git add -A'. Nothing is built in the tree (O=
# build/obj), so any untracked file there is work that would be lost.
new=$(gitk status --porcelain --ignored -unormal | grep -E '^(\?\?|!!) ' | head -n 5 || true)
if [ -n "$new" ]; then
	say "build/linux has untracked files (new files need 'git add -f'):"; printf '  %s\n' "$new" >&2; rc=1
fi
idx=$(mktemp)
trap 'rm -f "$idx"' EXIT
if ! GIT_INDEX_FILE=$idx gitk read-tree refs/tags/base ||
   ! for p in $(series_files); do GIT_INDEX_FILE=$idx gitk apply --cached "$p" || exit 1; done; then
	say "patches/ does not apply to build/linux's base commit"; exit 1
fi
want=$(GIT_INDEX_FILE=$idx gitk write-tree)
have=$(gitk rev-parse 'HEAD^{tree}')
if [ "$want" != "$have" ]; then
	say "patches/ does not reproduce build/linux HEAD (git -C build/linux diff --stat $want HEAD)"
	rc=1
fi
exit $rc
