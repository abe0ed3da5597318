#!/usr/bin/env bash
# make baseline: the mm suite (+ KUnit) on the unpatched base, in the same
# guest 'make test' uses; writes baseline/mm-base.tsv.
#   CATS='...'  categories (default: all, FULL)
#   RUNS=n      run n times; a test whose results differ is recorded 'flaky'
#   MERGE=1     merge into the existing file the same way (more evidence)
#   --build-only  build the base kernel (for 'make bench KERNEL=base') and stop
# The base is built from build/base/linux into build/base/obj, which has the
# same layout as build/linux + build/obj so ccache hits for unchanged files.
. "$(dirname "$0")/common.sh"
build_only=0
[ "${1:-}" != --build-only ] || build_only=1
. "$TOP/configs/test-categories"

"$TOP/harness/tree.sh"
if [ -z "$(series_files)" ]; then
	say "the series is empty: build/linux is the base; reusing its build"
	FEATURES=none "$TOP/harness/build.sh"
else
	bsrc=$BUILD/base/linux
	if [ -e "$bsrc/.git" ]; then
		git -C "$bsrc" checkout -q --detach base
	else
		gitk worktree add -f --detach "$bsrc" base >&2
	fi
	# The base's tree is needed for its build and its selftests' build (in
	# the suite), then goes: a second kernel tree at the base would look
	# like unexported work.
	trap 'git -C "$BUILD/linux" worktree remove --force "$bsrc"; git -C "$BUILD/linux" worktree prune' EXIT
	export SRC=$bsrc OBJ=$BUILD/base/obj
	FEATURES=none "$TOP/harness/build.sh"
fi
[ "$build_only" = 0 ] || exit 0
cats=${CATS:-$FULL}
dest=$TOP/baseline/mm-base.tsv
merged=$BUILD/baseline-merged.tsv
: > "$merged"
[ "${MERGE:-0}" != 1 ] || grep -v '^#' "$dest" > "$merged"
for ((i = 1; i <= ${RUNS:-1}; i++)); do
	out=$BUILD/baseline-run-$i
	rm -rf "$out"
	"$TOP/harness/suite.sh" "$out" $cats
	if [ -s "$merged" ]; then
		"$TOP/harness/tap.py" merge "$merged" "$out/results.tsv" > "$merged.new" && mv "$merged.new" "$merged"
	else
		cp "$out/results.tsv" "$merged"
	fi
done
{
	echo "# Per-test results of the unpatched base ($BASE_PKG $BASE_VERSION), made by 'make baseline'."
	echo "# Guest: $(grep -m1 '^accel:' "$out/console.log" | tr -d '\r'); cpus=$SUITE_CPUS mem=$SUITE_MEM numa=$SUITE_NUMA swap=$SUITE_SWAP"
	echo "# Categories: $cats; runs: ${RUNS:-1}$([ "${MERGE:-0}" = 1 ] && echo ', merged into the previous file')"
	echo "# $(date -u +%Y-%m-%d) on $(nproc) host cores. 'flaky': results differed between runs."
	cat "$merged"
} > "$dest"
say "wrote ${dest#"$TOP"/}: $(grep -vc '^#' "$dest") results ($(grep -c $'\tfail$' "$dest") fail, $(grep -c $'\tflaky$' "$dest") flaky, $(grep -c $'\tskip$' "$dest") skip)"
