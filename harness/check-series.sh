#!/usr/bin/env bash
# make check-series: is every patch of the series good on its own?
#
# Cheap checks (seconds; make test runs them, as does QUICK=1):
#   - every prefix of the series applies with git am, no fuzz;
#   - checkpatch --strict (harness/checkpatch.sh);
#   - every patch has a changelog that says why (a body of 3 lines or more),
#     a Signed-off-by, a subject 'area: text' of 75 characters at most, its
#     trailers one block at the end (known keys, no repeats, Fixes: with its
#     id and subject, the author's sign-off among them); a patch that changes kernel
#     code outside its tests (mm/, include/) names numbers in its changelog;
#   - every file the series adds has a MAINTAINERS entry in the series;
#   - each feature's patches apply alone on the base (make series CHECK=0).
# Build checks (hours cold, about an hour with a warm ccache):
#   - every prefix builds with every feature option it defines on, and boots
#     to a smoke test (sysctls switched on and back, memory pressure, KUnit
#     without failures);
#   - each feature option alone, all off, all on: builds and boots; all off
#     is also compared object by object with the base (make check-off);
#   - no new sparse (C=1) or W=1 warnings in the C files the series touches,
#     compared with the same files in the base (diffed, not counted);
#   - coccicheck MODE=report on those files: no new reports (needs spatch,
#     apt-get install coccinelle; reported as skipped without it).
# One reused build directory per configuration under build/series/, ccache.
# Output: 'ok ...' / 'not ok ...' lines, then 'N passed, N failed, N skipped'.
# STEPS='cheap prefixes options warnings cocci' picks parts (default: all;
# QUICK=1: cheap). PREFIXES='3 6' picks prefixes (default: every one),
# OPTIONS='alone off on' the option builds, ALONE='MIGRATE_MT_COPY ...' the
# options built alone (default: each of configs/feature-sysctls).
. "$(dirname "$0")/common.sh"
set +e

out=$BUILD/series
mkdir -p "$out"
steps=${STEPS:-cheap prefixes options warnings cocci}
[ "${QUICK:-0}" != 1 ] || steps=cheap
pass=0 fail=0 skip=0 t0=$(date +%s)
ok() { echo "ok $*"; pass=$((pass + 1)); }
nok() { echo "not ok $*"; fail=$((fail + 1)); }
skp() { echo "ok $* # SKIP"; skip=$((skip + 1)); }
section() { printf '# --- %s [%ds]\n' "$*" $(( $(date +%s) - t0 )); }
want() { case " $steps " in *" $1 "*) return 0 ;; esac; return 1; }

changelog() { # message, changed files[, author]: does it say why, with numbers?
	local subj body why=1
	subj=$(head -n 1 <<< "$1")
	body=$(tail -n +2 <<< "$1" | grep -v -e '^[A-Za-z-]*-by:' -e '^$')
	[[ $subj =~ ^[A-Za-z0-9/_.,-]+(\ [A-Za-z0-9/_.-]+)*:\ .+ ]] || { why=0; echo "#   subject is not 'area: text': $subj"; }
	[ "$(printf '%s\n' "$body" | grep -c .)" -ge 3 ] || { why=0; echo "#   changelog body under 3 lines"; }
	grep -q '^Signed-off-by: .* <.*@.*>' <<< "$1" || { why=0; echo "#   no Signed-off-by"; }
	# b4-style: a subject that fits a mail subject, the trailers one block at
	# the end with known keys and no repeats, the author's sign-off among them
	[ "${#subj}" -le 75 ] || { why=0; echo "#   subject of ${#subj} characters (75 at most)"; }
	local trailers bad
	trailers=$(printf '%s\n' "$1" | awk '{l[NR] = $0} NF {last = NR}
		END {i = last; while (i > 1 && l[i] != "") i--; for (j = i + 1; j <= last; j++) print l[j]}')
	bad=$(grep -v -E '^(Signed-off-by|Co-developed-by|Reviewed-by|Acked-by|Tested-by|Reported-by|Suggested-by|Link|Closes|Fixes|Cc): [^ ].*' <<< "$trailers" || true)
	[ -z "$bad" ] || { why=0; echo "#   the last paragraph holds more than trailers: $(head -n 1 <<< "$bad")"; }
	[ "$(grep -c -E '^[A-Za-z-]+-by: ' <<< "$1")" = "$(grep -c -E '^[A-Za-z-]+-by: ' <<< "$trailers")" ] ||
		{ why=0; echo "#   a trailer outside the last paragraph"; }
	[ -z "$(sort <<< "$trailers" | uniq -d)" ] || { why=0; echo "#   a trailer repeated: $(sort <<< "$trailers" | uniq -d | head -n 1)"; }
	bad=$(grep '^Fixes:' <<< "$trailers" | grep -v -E '^Fixes: [0-9a-f]{12,40} \(".+"\)$' || true)
	[ -z "$bad" ] || { why=0; echo "#   not 'Fixes: <12+ hex digits> (\"subject\")': $bad"; }
	[ -z "${3:-}" ] || grep -q -x -F "Signed-off-by: $3" <<< "$trailers" ||
		{ why=0; echo "#   no Signed-off-by from the author ($3)"; }
	# Tests, KUnit, documentation and MAINTAINERS claim no effect; kernel
	# changes name their numbers, or say there is no functional change.
	if ! [[ $subj =~ ^(selftests/|MAINTAINERS|Documentation)|KUnit ]] &&
		grep -q -E '^(mm|include|kernel|lib)/' <<< "$2" &&
		! grep -q -i 'no functional change' <<< "$body" &&
		! grep -q -E '[0-9]+(\.[0-9]+)? ?(%|x|s|ms|MB|GB|kB|pages|walks|tasks)\b|[0-9]+/[0-9]+|[0-9]+ -> [0-9]+' <<< "$body"; then
		why=0; echo "#   changes kernel code but its changelog names no measured numbers"
	fi
	[ "$why" = 1 ]
}
if [ "${1:-}" = --changelog ]; then	# for the harness's own tests: MSGFILE FILE... (AUTHOR=)
	msg=$(cat "$2"); shift 2
	changelog "$msg" "$(printf '%s\n' "$@")" "${AUTHOR:-}"
	exit
fi

messages() { # src: build output -> compiler, sparse and coccinelle messages
	# Coccinelle reports file:line:col-col: text (shown only without make
	# -s). Positions are dropped so that moved lines do not count as new.
	# spatch's notes on the rules themselves ("warning: line 12: should
	# noop_llseek be a metavariable?") name no file: one per file checked.
	grep -E 'warning:|error:|WARNING|ERROR|^[^ ]+\.[ch]:[0-9]+:[0-9]+-[0-9]+: |coccicheck failed' |
		grep -v -E '^warning: line [0-9]+: should .* be a metavariable\?' |
		sed -E 's/:[0-9]+:[0-9]+(-[0-9]+)?:/:/; s/:[0-9]+:/:/
			s/(line|lines) [0-9]+((,| and) [0-9]+)*/\1 N/g; s/ +/ /g; s|'"$1"'/||g' || true
}
if [ "${1:-}" = --messages ]; then	# for the harness's own tests: SRC < build output
	messages "$2"
	exit
fi

"$TOP/harness/tree.sh" >&2 || { nok "the series applies"; echo "$pass passed, $fail failed"; exit 1; }
mapfile -t patches < <(series_files)
mapfile -t commits < <(gitk rev-list --reverse refs/tags/base..HEAD)
[ "${#patches[@]}" = "${#commits[@]}" ] ||
	{ nok "patches/ and build/linux agree (run make export)"; echo "$pass passed, $fail failed"; exit 1; }
n=${#commits[@]}

# A worktree of build/linux at one commit; removed at the end so that it is
# not taken for unexported work.
wt=$BUILD/series/linux
mine=0
cleanup() { [ "$mine" = 0 ] || [ ! -e "$wt/.git" ] || { git -C "$BUILD/linux" worktree remove --force "$wt"; git -C "$BUILD/linux" worktree prune; }; }
trap cleanup EXIT
at() { # commit: the worktree at that commit (only changed files get new mtimes)
	if [ "$mine" = 0 ]; then
		# One build run at a time: they share the worktree and build dirs
		exec 9> "$out/.lock"
		flock -n 9 || { echo "another make check-series is running (build/series/.lock)"; exit 2; }
		mine=1
	fi
	if [ -e "$wt/.git" ]; then git -C "$wt" checkout -q --detach "$1"
	else gitk worktree add -q -f --detach "$wt" "$1" >&2; fi
}

smoke() { # obj dir, label: boot it and run the smoke test
	local log=$out/boot-$2
	rm -rf "$log"; mkdir -p "$log"
	if RESULTS=$log QUIET=1 TIMEOUT=600 KERNEL=$1/arch/x86/boot/bzImage MODROOT=$1/mod \
		CMD="bash $TOP/harness/guest/smoke.sh" "$TOP/harness/boot.sh" > "$log/host.log" 2>&1 &&
		! grep -a -q -E '^ *not ok [0-9]+ ' "$log/console.log"; then
		return 0
	fi
	tail -n 5 "$log/output.log" 2>/dev/null | sed 's/^/#   /'
	return 1
}
build_boot() { # src, obj name, features, label
	local obj=$out/obj-$2 s
	s=$(date +%s)
	if ! SRC=$1 OBJ=$obj FEATURES=$3 "$TOP/harness/build.sh" > "$out/build-$4.log" 2>&1; then
		nok "$4: builds (log: ${out#"$TOP"/}/build-$4.log)"
		tail -n 5 "$out/build-$4.log" | sed 's/^/#   /'
		return 1
	fi
	ok "$4: builds ($(( $(date +%s) - s )) s)"
	s=$(date +%s)
	if smoke "$obj" "$4"; then ok "$4: boots, smoke test passes ($(( $(date +%s) - s )) s)"
	else nok "$4: boots, smoke test passes (log: ${out#"$TOP"/}/boot-$4)"; fi
}

if want cheap; then
	section "cheap checks"
	for ((i = 0; i < n; i++)); do
		p=${patches[i]##*/} c=${commits[i]}
		ok "$p: applies with git am after the $i before it, no fuzz"
		if changelog "$(gitk log -1 --format=%B "$c")" "$(gitk diff-tree --no-commit-id --name-only -r "$c")" \
			"$(gitk log -1 --format='%an <%ae>' "$c")"; then
			ok "$p: changelog (why, numbers, subject, trailers, the author's Signed-off-by)"
		else
			nok "$p: changelog (why, numbers, subject, trailers, the author's Signed-off-by)"
		fi
	done
	if [ "${CHECKPATCH:-1}" = 1 ]; then	# make test runs it itself
		"$TOP/harness/checkpatch.sh" 2>&1 | grep -E '^(ok|not ok) ' > "$out/checkpatch.txt"
		while read -r line; do
			case $line in "ok "*) ok "${line#ok }" ;; *) nok "${line#not ok }" ;; esac
		done < "$out/checkpatch.txt"
	fi
	added=$(gitk diff --name-only --diff-filter=A refs/tags/base..HEAD)
	miss=
	for f in $added; do
		grep -q -x -F "F:	$f" "$SRC/MAINTAINERS" || miss+=" $f"
	done
	if [ -z "$miss" ]; then ok "MAINTAINERS: every file the series adds has an entry"
	else nok "MAINTAINERS: every file the series adds has an entry (missing:$miss)"; fi
	# Each feature can be posted alone (make series; its CHECK=1 builds too)
	for f in $(awk -F'|' '$1 ~ /^[0-9]/ {print $1 + 0}' "$TOP/configs/features"); do
		if FEATURE=$f CHECK=0 KEEP_TREE=1 "$TOP/harness/series.sh" > "$out/split-$f.log" 2>&1; then
			ok "feature $f's patches apply alone on the base (make series FEATURE=$f)"
		else
			nok "feature $f's patches apply alone on the base (log: ${out#"$TOP"/}/split-$f.log)"
			tail -n 3 "$out/split-$f.log" | sed 's/^/#   /'
		fi
	done
	if [ -e "$BUILD/split/linux/.git" ]; then
		gitk worktree remove --force "$BUILD/split/linux" 2>/dev/null || rm -rf "$BUILD/split/linux"
		gitk worktree prune
	fi
fi

if want prefixes; then
	section "every prefix builds with its features on and boots"
	for ((i = 1; i <= n; i++)); do
		case " ${PREFIXES:-$(seq -s ' ' 1 "$n")} " in *" $i "*) ;; *) continue ;; esac
		at "${commits[i - 1]}"
		build_boot "$wt" prefix all "$(printf 'prefix-%02d' "$i")"
	done
fi

if want options; then
	section "each feature option alone, all off, all on (full series)"
	at "${commits[n - 1]}"
	opts=" ${OPTIONS:-alone off on} "
	while read -r name off on kc; do
		case $name in "" | \#*) continue ;; esac
		[[ $opts == *" alone "* ]] || break
		case " ${ALONE:-$kc} " in *" $kc "* | *" ${kc#CONFIG_} "*) ;; *) continue ;; esac
		# The option and its KUnit suite
		build_boot "$wt" "${kc#CONFIG_}" "$kc ${kc}_KUNIT_TEST" "only-${kc#CONFIG_}"
	done < "$TOP/configs/feature-sysctls"
	if [[ $opts == *" off "* ]]; then
		build_boot "$wt" none none all-off
		if SRC=$wt "$TOP/harness/check-off.sh" > "$out/check-off.log" 2>&1; then
			ok "all-off: changed objects identical to the base (make check-off)"
		else
			nok "all-off: changed objects identical to the base (log: ${out#"$TOP"/}/check-off.log)"
		fi
	fi
	[[ $opts != *" on "* ]] || build_boot "$wt" all all all-on
fi

# The C files the series touches that a kernel build compiles
touched=$(gitk diff --name-only refs/tags/base..HEAD -- '*.c' | grep -v '^tools/' | grep -v '^Documentation/')
warnings() { # src, obj, tool args -> normalised messages of the touched files
	SRC=$1 OBJ=$2 FEATURES=${3} "$TOP/harness/configure.sh" >&2 || return 1
	local f objs=
	for f in $touched; do
		[ -e "$1/$f" ] || continue
		rm -f "$2/${f%.c}.o"	# C=1 and W=1 only see what is compiled
		objs="$objs ${f%.c}.o"
	done
	{
		# One make for all the files: C=2 also checks what the prepare
		# stage visits (scripts/mod/empty.c, 35 s of coccinelle), once.
		# Serial, so that no two tools' output interleaves mid-line.
		make -C "$1" O="$2" CC="ccache gcc" -k $4 $objs 2>&1 | messages "$1"
		# A file that did not compile says nothing: that must not pass
		for f in $touched; do
			[ ! -e "$1/$f" ] || [ -e "$2/${f%.c}.o" ] || echo "NOT-BUILT $f"
		done
	} | sort
}
against_base() { # name, tool, apt package, make args, file prefix, what
	# The touched files' messages in the base and with the series, diffed
	local b=$out/$5-base.txt a=$out/$5-series.txt nb new
	if ! command -v "$2" > /dev/null; then
		skp "$1: $2 missing (apt-get install $3)"
		return
	fi
	at refs/tags/base
	warnings "$wt" "$out/obj-warn-base" none "$4" > "$b"
	at "${commits[n - 1]}"
	warnings "$wt" "$out/obj-warn-all" all "$4" > "$a"
	new=$(comm -13 "$b" "$a")
	nb=$(grep -h '^NOT-BUILT ' "$b" "$a" | cut -d' ' -f2 | sort -u | paste -sd' ')
	if [ -n "$nb" ]; then nok "$1: files that did not compile: $nb"
	elif [ -z "$new" ]; then ok "$1: no new $6 in $(echo $touched | wc -w) files ($(wc -l < "$b") in the base)"
	else nok "$1: new $6"; printf '%s\n' "$new" | sed 's/^/#   /'; fi
}
if want warnings; then
	section "sparse (C=1) and W=1 on the touched files, against the base"
	against_base "sparse and W=1" sparse sparse "-s C=1 W=1" warnings warnings
fi
if want cocci; then
	section "coccicheck on the touched files, against the base"
	against_base coccicheck spatch coccinelle "C=2 CHECK=$wt/scripts/coccicheck MODE=report" cocci reports
fi

section "done"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
