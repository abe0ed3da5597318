#!/usr/bin/env bash
# Planted defects: does a feature's test set notice when the feature breaks?
# Usage: check-mutants.sh [NAME-or-GLOB...]   (default: tests/mutants/f*.patch)
#        make check-mutants [MUTANTS='f2-* f3-handoff*']
#
# Each tests/mutants/fN-*.patch is a small diff against the applied series
# (build/linux's HEAD) with a header saying the bug it stands for (and
# 'Check: check-off' for a defect in the code compiled without the feature,
# which make check-off judges instead of a boot). For each:
# apply it to a scratch worktree (build/mutants/linux, same commit), build it
# there (build/mutants/obj: ccache, one object and the link), boot it and run
# what `make test` runs for feature N: every KUnit suite (they all run at
# boot) and the feature's selftest categories, in the guests `make test` uses.
# The results are judged as `make test` judges them (tap.py compare against
# the baseline, the series' own tests expected): a failure, a missing result,
# a kernel splat or a hung guest catches the defect; a clean run means it
# survived. A control run of the unmodified tree, once per feature and series
# commit, must be clean first; its duration sets the guest timeout (3x, at
# least MUTANT_MIN_TIMEOUT seconds, 300 by default), so that a defect that
# hangs is caught by the timeout and does not stall the run.
#
# Results: one row per defect in results/mutants/mutants.tsv (kept across
# runs, with the kernel tree each ran on: git's tree id of build/linux's
# HEAD) and the table results/mutants/README.md.
. "$(dirname "$0")/common.sh"
. "$TOP/configs/test-categories"

[ -e "$SRC/.git" ] || die "no kernel tree; run 'make tree'"
MDIR=$BUILD/mutants
MSRC=$MDIR/linux
MOBJ=$MDIR/obj
TSV=$TOP/results/mutants/mutants.tsv
TABLE=$TOP/results/mutants/README.md
head=$(gitk rev-parse HEAD)
short=${head:0:12}
# The rows name the kernel tree they ran on (changelogs do not count)
tree=$(gitk rev-parse 'HEAD^{tree}' | cut -c1-12)
min_timeout=${MUTANT_MIN_TIMEOUT:-300}

# What `make test` runs for each feature, besides KUnit
feature_cats() {
	python3 "$TOP/harness/features.py" cats "$1" || die "unknown feature '$1'"
}
field() { sed -n "s/^$2: *//p" "$1" | head -n 1; }

# make check-mutants MUTANTS='f2-* f3-handoff*': the patterns, unexpanded
if [ $# = 0 ] && [ -n "${MUTANTS:-}" ]; then
	set -f
	# shellcheck disable=SC2086
	set -- $MUTANTS
	set +f
fi
mutants=()
if [ $# = 0 ]; then
	mutants=("$TOP"/tests/mutants/f[0-9]-*.patch)
else
	for a in "$@"; do
		for m in "$TOP"/tests/mutants/${a%.patch}.patch "$TOP"/tests/mutants/${a%.patch}*.patch; do
			[ -f "$m" ] && mutants+=("$m")
		done
	done
	mapfile -t mutants < <(printf '%s\n' "${mutants[@]}" | sort -u)
fi
[ ${#mutants[@]} -gt 0 ] && [ -f "${mutants[0]}" ] || die "no mutant matches: $*"
for m in "${mutants[@]}"; do
	[ -n "$(field "$m" Feature)" ] && [ -n "$(field "$m" Bug)" ] ||
		die "${m#"$TOP"/}: needs 'Feature: N' and 'Bug: ...' header lines"
done

# One run at a time: they share the scratch tree and its build
mkdir -p "$MDIR"
exec 9> "$MDIR/.lock"
flock -n 9 || die "another check-mutants run holds ${MDIR#"$TOP"/}/.lock"

# The scratch tree: a worktree of build/linux at its HEAD, reset before each use
if [ ! -e "$MSRC/.git" ]; then
	gitk worktree add -q --detach "$MSRC" HEAD
fi
reset_tree() {
	git -C "$MSRC" checkout -q -f --detach "$head"
	git -C "$MSRC" reset -q --hard "$head"
}

# Build the scratch tree and run feature $1's tests into $2 (guest timeout
# $3); $4=control: the whole set, no KUnit-only boot first
build_and_run() {
	local f=$1 out=$2 timeout=$3 mode=${4:-} cats
	cats=$(feature_cats "$f")
	SRC=$MSRC OBJ=$MOBJ DEBUG=0 "$TOP/harness/build.sh" > "$out.build.log" 2>&1 || return 2
	rm -rf "$out"
	mkdir -p "$out"
	# KUnit first, in a boot of its own (half a minute): a defect it
	# catches needs no selftest run. The control runs everything.
	if [ "$mode" != control ]; then
		SRC=$MSRC OBJ=$MOBJ DEBUG=0 RESULTS=$out/kunit CMD=true QUIET=1 TIMEOUT=$timeout \
			CPUS=$SUITE_CPUS MEM=$SUITE_MEM NUMA=$SUITE_NUMA SWAP=$SUITE_SWAP \
			TCG=$SUITE_TCG "$TOP/harness/boot.sh" > "$out.kunit.log" 2>&1 || true
		{
			"$TOP/harness/tap.py" ktap "$out/kunit/console.log"
			"$TOP/harness/tap.py" splats "$out/kunit/console.log" guest
		} > "$out/results.tsv" 2>/dev/null || true
		if grep -q $'\tfail$' "$out/results.tsv"; then
			SRC=$MSRC OBJ=$MOBJ DEBUG=0 "$TOP/harness/expected.sh" |
				grep '^kunit' > "$out/expected.tsv" || return 3
			"$TOP/harness/tap.py" compare "$TOP/baseline/mm-base.tsv" "$out/results.tsv" \
				--ran kunit --expect "$out/expected.tsv" > "$out/compare.txt" || true
			return 0
		fi
	fi
	suite_t0=$(date +%s)
	SRC=$MSRC OBJ=$MOBJ DEBUG=0 SUITE_TIMEOUT=$timeout QUIET=1 \
		"$TOP/harness/suite.sh" "$out" $cats > "$out.suite.log" 2>&1 || return 3
	suite_secs=$(( $(date +%s) - suite_t0 ))
	SRC=$MSRC OBJ=$MOBJ DEBUG=0 "$TOP/harness/expected.sh" $cats > "$out/expected.tsv" || return 3
	[ -s "$out/expected.tsv" ] || return 3
	# tap.py exits 1 when something failed: that is the verdict, not an error
	"$TOP/harness/tap.py" compare "$TOP/baseline/mm-base.tsv" "$out/results.tsv" \
		--ran "kunit $cats" --expect "$out/expected.tsv" --flaky "$TOP/baseline/flaky.tsv" \
		> "$out/compare.txt" || true
}

# A control run per feature and series commit: the unmodified tree passes
declare -A ctl_secs
control() {
	local f=$1 dir=$MDIR/control/f$1-$short
	if [ -f "$dir/secs" ]; then ctl_secs[$f]=$(cat "$dir/secs"); return 0; fi
	say "feature $f: control run of the unmodified tree ($short)"
	reset_tree
	mkdir -p "$MDIR/control"
	build_and_run "$f" "$dir" 3600 control || die "feature $f: the control run did not complete (logs: $dir.*.log)"
	grep -q ' 0 failed, ' "$dir/compare.txt" ||
		die "feature $f: the unmodified tree fails its tests (see $dir/compare.txt); fix that first"
	echo "$suite_secs" > "$dir/secs"	# the guests' time, the build's not
	ctl_secs[$f]=$(cat "$dir/secs")
}

mkdir -p "$(dirname "$TSV")"
[ -f "$TSV" ] || printf 'mutant\tfeature\tverdict\tcaught by\tminutes\ttree\tdate\tview\n' > "$TSV"
# A header from before the view column gets it (old rows leave it empty)
sed -i '1s/\tdate$/\tdate\tview/' "$TSV"
run=$MDIR/runs/$(date +%Y%m%d-%H%M%S)
mkdir -p "$run"
say "${#mutants[@]} planted defects; scratch tree ${MSRC#"$TOP"/} at $short; logs in ${run#"$TOP"/}"
for m in "${mutants[@]}"; do
	name=$(basename "$m" .patch)
	f=$(field "$m" Feature)
	control "$f"
	timeout=$(( ctl_secs[$f] * 3 ))
	[ "$timeout" -ge "$min_timeout" ] || timeout=$min_timeout
	reset_tree
	t0=$(date +%s)
	out=$run/$name
	by=
	if ! git -C "$MSRC" apply "$m" 2> "$out.apply.log"; then
		verdict="does not apply"
	elif [ "$(field "$m" Check)" = check-off ]; then
		# A defect in the compiled-out code: make check-off's comparison
		# with the base, in an object directory of the scratch tree's own
		if SRC=$MSRC NONE_OBJ=$MDIR/none-obj "$TOP/harness/check-off.sh" > "$out.check-off.log" 2>&1; then
			verdict=survived
		elif grep -q '^not ok' "$out.check-off.log"; then
			verdict=caught
			by="make check-off: $(grep '^not ok' "$out.check-off.log" | head -n 2 | sed 's/^not ok //' | paste -sd ';' | sed 's/;/; /g')"
		else
			verdict="run error"
		fi
	else
		set +e
		build_and_run "$f" "$out" "$timeout"
		rc=$?
		set -e
		case $rc in
		0)
			if grep -q ' 0 failed, ' "$out/compare.txt"; then
				verdict=survived
			else
				verdict=caught
				by=$(grep -E '^(NEW FAIL|MISSING) ' "$out/compare.txt" |
					sed -E 's/^(NEW FAIL|MISSING) +//; s/ \((base|the series).*$//' |
					head -n 4 | paste -sd ';' | sed 's/;/; /g')
			fi ;;
		2) verdict="does not build" ;;
		*) verdict="run error" ;;
		esac
	fi
	mins=$(awk -v s=$(( $(date +%s) - t0 )) 'BEGIN { printf "%.1f", s / 60 }')
	if [ "$verdict" = "run error" ]; then
		# Not a verdict (no base build for check-off, a harness error):
		# keep the defect's previous row
		say "$name: run error in $mins min (logs: ${out#"$TOP"/}*); its row is kept"
		continue
	fi
	say "$name: $verdict${by:+ ($by)} in $mins min"
	# The tree without other features' tests: the row stays current while
	# only those change (harness/mutants-table.py)
	view=$(SRC=$TOP/build/linux python3 "$TOP/harness/mutants-table.py" --view "$f")
	grep -v "^$name	" "$TSV" > "$TSV.new" || true
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$f" "$verdict" "$by" "$mins" \
		"$tree" "$(date +%Y-%m-%d)" "$view" >> "$TSV.new"
	{ head -n 1 "$TSV.new"; tail -n +2 "$TSV.new" | sort; } > "$TSV"
	rm -f "$TSV.new"
done
reset_tree
python3 "$TOP/harness/mutants-table.py" "$TOP/tests/mutants" "$TSV" "$tree" > "$TABLE"
say "table: ${TABLE#"$TOP"/}"
