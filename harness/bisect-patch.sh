#!/usr/bin/env bash
# Which patch of a feature makes a test fail? make bisect-feature PATCH=1
# calls this once the feature is known: git bisect run over the feature's
# patches, in a worktree of build/linux. Each step builds that prefix of the
# series (every option it defines on, one reused build directory, ccache)
# and boots it to run the test with every feature off but the guilty one's
# sysctl (harness/guest/bisect-feature.sh, ONLY=). A prefix that lacks the
# sysctl is the base's behaviour: good. A step that does not build or boot
# is skipped (125).
# Usage: bisect-patch.sh SYSCTL=VALUE FIRST LAST OUTDIR   (patch numbers)
. "$(dirname "$0")/common.sh"

if [ "${1:-}" = --step ]; then	# git bisect run: one step, in the worktree
	spec=$2 out=$3
	n=$(git rev-list --count refs/tags/base..HEAD)
	step=$out/step-$(printf '%02d' "$n")
	mkdir -p "$step"
	cp "$out/test.sh" "$step/test.sh"
	s=$(date +%s)
	if ! SRC=$PWD OBJ=$BUILD/bisect/obj FEATURES=all "$TOP/harness/build.sh" > "$step/build.log" 2>&1; then
		say "prefix $n: does not build, skipped (log: ${step#"$TOP"/}/build.log)"
		exit 125
	fi
	b=$(( $(date +%s) - s ))
	if ! RESULTS=$step QUIET=1 KERNEL=$BUILD/bisect/obj/arch/x86/boot/bzImage \
		MODROOT=$BUILD/bisect/obj/mod CMD="ONLY=$spec bash $TOP/harness/guest/bisect-feature.sh" \
		"$TOP/harness/boot.sh" > "$step/host.log" 2>&1; then
		say "prefix $n: the guest run failed, skipped (log: ${step#"$TOP"/}/console.log)"
		exit 125
	fi
	r=$(grep -a "^bisect: $spec " "$step/output.log" | tr -d '\r' | awk '{ print $3 }' | tail -n 1 || true)
	say "prefix $n ($(git log -1 --format=%s)): $spec ${r:-?} (build ${b} s, boot $(( $(date +%s) - s - b )) s)"
	case $r in
	pass | absent) exit 0 ;;
	fail) exit 1 ;;
	*) exit 125 ;;
	esac
fi

spec=$1 first=$((10#$2)) last=$((10#$3)) out=$4
mapfile -t commits < <(gitk rev-list --reverse refs/tags/base..HEAD)
[ "$last" -le "${#commits[@]}" ] && [ "$first" -ge 1 ] && [ "$first" -le "$last" ] ||
	die "patches $first-$last are not in the series (${#commits[@]} patches)"
bad=${commits[last - 1]}
if [ "$first" = 1 ]; then good=$(gitk rev-parse refs/tags/base); else good=${commits[first - 2]}; fi
if [ "$first" = "$last" ]; then
	echo "The feature is one patch: $(basename "$(series_files | sed -n "${first}p")")."
	exit 0
fi
wt=$BUILD/bisect/linux
mkdir -p "$BUILD/bisect"
exec 9> "$BUILD/bisect/.lock"
flock -n 9 || die "another bisect runs (build/bisect/.lock)"
# Removed at the end, so that it is not taken for unexported work
cleanup() {
	git -C "$wt" bisect reset > /dev/null 2>&1 || true
	git -C "$SRC" worktree remove --force "$wt" 2> /dev/null || true
	git -C "$SRC" worktree prune
}
trap cleanup EXIT
cleanup
gitk worktree add -q -f --detach "$wt" "$bad" >&2
say "git bisect run over patches $first-$last: a build and a boot per step"
cd "$wt"
git bisect start "$bad" "$good" > /dev/null
git bisect run "$TOP/harness/bisect-patch.sh" --step "$spec" "$out" 2>&1 | tee "$out/bisect-run.log" |
	grep -a --line-buffered '^\[bisect-patch.sh\]' >&2 || true
git bisect log > "$out/bisect.log"
culprit=$(sed -n 's/^# first bad commit: \[\([0-9a-f]*\)\].*/\1/p' "$out/bisect.log")
if [ -z "$culprit" ]; then
	echo "git bisect named no patch (steps skipped?): see ${out#"$TOP"/}/bisect-run.log"
	exit 2
fi
for i in "${!commits[@]}"; do
	[ "${commits[i]}" = "$culprit" ] || continue
	echo "The first patch that fails with $spec: $(basename "$(series_files | sed -n "$((i + 1))p")")."
	exit 0
done
echo "git bisect named $culprit, which is not a patch of the series"
exit 2
