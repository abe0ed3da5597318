#!/usr/bin/env bash
# The series' own tests that a run must report, from the applied tree
# (build/linux, base..HEAD), so that a prefix of the series expects only its
# own: 'CATEGORY<TAB>TEST' for every run_vmtests.sh test the series adds in a
# category that ran, and 'kunit<TAB>SUITE' for every KUnit suite the series
# adds whose object is built in $OBJ. tap.py compare --expect fails a run
# that has no result for one of them (a vanished category, a suite that
# never ran); the baseline cannot, it lists the base's tests only.
# Usage: expected.sh CAT...   (the categories the run asked for)
. "$(dirname "$0")/common.sh"

[ -e "$SRC/.git" ] || die "no kernel tree; run 'make tree'"
ran=" $* "
# run_vmtests.sh lines the series adds: CATEGORY="name" run_test ./prog args
gitk diff base..HEAD -- tools/testing/selftests/mm/run_vmtests.sh |
	sed -n 's/^+[[:space:]]*CATEGORY="\([^"]*\)"[[:space:]]*run_test[[:space:]]\+\(.*\)$/\1\t\2/p' |
	while IFS=$'\t' read -r cat cmd; do
		case $ran in *" $cat "*) ;; *) continue ;; esac
		# run_vmtests.sh's pretty_name(): the command without './' or 'bash ./'
		cmd=$(printf '%s\n' "$cmd" | sed -e 's/[[:space:]]*$//' -e 's/^\(bash \)\?\.\///')
		printf '%s\t%s\n' "$cat" "$cmd"
	done
# KUnit suites in files the series adds or changes, if the option that
# guards their #include (or their file's object) is built in: a suite in
# mm/x_kunit.h counts when the '#ifdef CONFIG_X' before the file's
# '#include "x_kunit.h"' has CONFIG_X=y in $OBJ/.config.
gitk diff --name-only --diff-filter=AM base..HEAD -- '*.c' '*.h' | while read -r f; do
	grep -q 'kunit_test_suite' "$SRC/$f" || continue
	case $f in
	*.c) [ -f "$OBJ/${f%.c}.o" ] || continue ;;
	*.h)
		d=${f%/*} on=
		for inc in $(grep -l "^#include \"${f##*/}\"" "$SRC/$d"/*.c 2>/dev/null); do
			opt=$(awk -v h="${f##*/}" '/^#if/ && match($0, /CONFIG_[A-Za-z0-9_]+/) { o = substr($0, RSTART, RLENGTH) }
				/^#endif/ { o = "" } index($0, "#include \"" h "\"") == 1 { print o; exit }' "$inc")
			if [ -n "$opt" ]; then grep -qx "$opt=y" "$OBJ/.config" && on=1
			else [ -f "$OBJ/${inc%.c}.o" ] && on=1; fi
		done
		[ -n "$on" ] || continue ;;
	esac
	awk '/^static struct kunit_suite [A-Za-z0-9_]+ = \{/ { s = 1 }
		s && match($0, /\.name = "[^"]+"/) { print "kunit\t" substr($0, RSTART + 9, RLENGTH - 10); s = 0 }' "$SRC/$f"
done
