#!/usr/bin/env bash
# make baseline: the full mm suite (+ KUnit) on the unpatched base, in the
# same guest 'make test' uses; writes baseline/mm-base.tsv.
# The base is built from build/base/linux into build/base/obj, which has the
# same layout as build/linux + build/obj so ccache hits for unchanged files.
. "$(dirname "$0")/common.sh"
. "$TOP/configs/test-categories"

"$TOP/harness/tree.sh"
bsrc=$BUILD/base/linux
if [ ! -d "$bsrc/.git" ] && [ ! -f "$bsrc/.git" ]; then
	gitk worktree add -f --detach "$bsrc" base >&2
else
	git -C "$bsrc" checkout -q --detach base
fi
export SRC=$bsrc OBJ=$BUILD/base/obj
FEATURES=none "$TOP/harness/build.sh"
out=$BUILD/baseline-run
rm -rf "$out"
"$TOP/harness/suite.sh" "$out" ${CATS:-$FULL}
dest=$TOP/baseline/mm-base.tsv
{
	echo "# Per-test results of the unpatched base ($BASE_PKG $BASE_VERSION), made by 'make baseline'."
	echo "# Guest: $(grep -m1 '^accel:' "$out/console.log" | tr -d '\r'); cpus=$SUITE_CPUS mem=$SUITE_MEM numa=$SUITE_NUMA swap=$SUITE_SWAP"
	echo "# Categories: ${CATS:-$FULL}"
	echo "# $(date -u +%Y-%m-%d) on $(nproc) host cores"
	cat "$out/results.tsv"
} > "$dest"
say "wrote ${dest#"$TOP"/}: $(grep -vc '^#' "$dest") results ($(grep -c $'\tfail$' "$dest") fail, $(grep -c $'\tskip$' "$dest") skip)"
