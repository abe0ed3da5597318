#!/usr/bin/env bash
# make promote RUN=build/bench-runs/<bench>/<run-id>: keep a benchmark run as
# evidence. Copies it to results/<bench>/<run-id>/ without the scratch
# (.bench, last-output.txt, .guest, qemu.stderr, its plots), then regenerates the
# summaries, results/README.md and the cover letter's table (make
# bench-report does the same). Write the run's NOTE.md (what it shows, the
# command) before committing it; goals a run decides go in bench/goals.spec.
. "$(dirname "$0")/common.sh"

run=${RUN:-${1:-}}
[ -n "$run" ] || die "usage: make promote RUN=build/bench-runs/<bench>/<run-id>"
run=$(realpath -m "$run")
[ -s "$run/raw.jsonl" ] || die "$run: no raw.jsonl (not a finished benchmark run)"
bench=$(basename "$(dirname "$run")") id=$(basename "$run")
[ -d "$TOP/bench/$bench" ] || die "$run: no benchmark '$bench' in bench/"
dest=$TOP/results/$bench/$id
[ ! -e "$dest" ] || die "${dest#"$TOP"/} exists"
mkdir -p "$dest"
rsync -a --exclude=.bench --exclude=last-output.txt --exclude=.guest --exclude=qemu.stderr --exclude="*.png" "$run/" "$dest/"
python3 "$TOP/bench/report.py" "$dest" > /dev/null
python3 "$TOP/bench/report.py" --summary "$TOP/results"
python3 "$TOP/bench/verdicts.py" > /dev/null
say "promoted to ${dest#"$TOP"/}; add its NOTE.md, then git add it (and bench/goals.spec if it decides a goal)"
