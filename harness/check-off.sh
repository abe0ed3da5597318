#!/usr/bin/env bash
# "A feature compiled out leaves no code behind": build the objects the
# series touches with every feature option off (FEATURES=none, in
# build/none/obj) and compare their code and data, section by section, with
# the same objects of the unpatched base (built here in build/base/obj from
# a worktree of the base, the objects only). Only file-name strings may differ.
# patches/check-off.exceptions may name an object whose constants a patch
# changes on purpose (a uapi value), with the reason: that object must then
# have the base's instructions, operands aside (same mnemonics in the same
# order, alignment padding ignored).
# Usage: harness/check-off.sh [obj...]   (default: every mm/*.c the series changes)
. "$(dirname "$0")/common.sh"

base=$BUILD/base/obj
none=${NONE_OBJ:-$BUILD/none/obj}	# another tree (make check-mutants) needs its own
unset DEBUG	# the debug kernel's config is not the base's
OBJ=$none FEATURES=none "$TOP/harness/configure.sh"
# Both must come from the same config, the series' options aside
feat=$(sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=.*/\1/p' "$TOP/configs/features.config" | paste -sd'|')
cfg() { grep -v -E "^(# )?(${feat:-NONE})[= ]" "$1/.config" 2>/dev/null; }
objs=("$@")
if [ ${#objs[@]} = 0 ]; then
	mapfile -t objs < <(git -C "$SRC" diff --name-only refs/tags/base HEAD -- 'mm/*.c' | sed 's/\.c$/.o/')
	# and the objects that instantiate the trace events of changed headers
	git -C "$SRC" diff --quiet refs/tags/base HEAD -- include/trace/events/vmscan.h || objs+=(mm/vmscan.o)
	git -C "$SRC" diff --quiet refs/tags/base HEAD -- include/trace/events/writeback.h || objs+=(fs/fs-writeback.o)
	mapfile -t objs < <(printf '%s\n' "${objs[@]}" | awk '!seen[$0]++')
fi
# Which of them the base has (a file new in the series must not be built
# with its option off)
inbase() { git -C "$SRC" cat-file -e "refs/tags/base:${1%.o}.c" 2>/dev/null; }
want=()
for o in "${objs[@]}"; do inbase "$o" && want+=("$o"); done

# The base's objects: only those compared, built from a worktree of the base
# (about a minute with a warm ccache, a few cold; no need for the whole
# base kernel). They stay until the base, its config or the list changes.
stamp=$(git -C "$SRC" rev-parse 'refs/tags/base^{tree}')-$(cfg "$none" | sha1sum | cut -c1-12)
fresh() {
	local o
	[ "$(head -n 1 "$base/.check-off-stamp" 2>/dev/null)" = "$stamp" ] || return 1
	for o in "${want[@]}"; do [ -f "$base/$o" ] || return 1; done
}
if ! fresh; then
	say "building the base's ${#want[@]} objects in ${base#"$TOP"/}"
	bsrc=$BUILD/base/linux
	git -C "$BUILD/linux" worktree remove --force "$bsrc" 2>/dev/null || rm -rf "$bsrc"
	git -C "$BUILD/linux" worktree prune
	git -C "$BUILD/linux" worktree add -f --detach "$bsrc" refs/tags/base >/dev/null 2>&1 ||
		die "cannot check out the base in $bsrc"
	# Not left behind: a second kernel tree looks like unexported work
	trap 'git -C "$BUILD/linux" worktree remove --force "$bsrc"; git -C "$BUILD/linux" worktree prune' EXIT
	rm -f "$base/.check-off-stamp"
	SRC=$bsrc OBJ=$base FEATURES=none "$TOP/harness/configure.sh"
	[ "$(cfg "$base")" = "$(cfg "$none")" ] ||
		die "the base's config differs from build/none/obj's beyond the series' options"
	make -s -C "$bsrc" O="$base" CC="ccache gcc" -j"$JOBS" prepare >/dev/null ||
		die "the base does not prepare"
	[ ${#want[@]} = 0 ] || make -s -C "$bsrc" O="$base" CC="ccache gcc" -j"$JOBS" "${want[@]}" >/dev/null ||
		die "the base's objects do not build"
	echo "$stamp" > "$base/.check-off-stamp"
	git -C "$BUILD/linux" worktree remove --force "$bsrc"; git -C "$BUILD/linux" worktree prune
	trap - EXIT
fi
make -s -C "$SRC" O="$none" CC="ccache gcc" -j"$JOBS" prepare >/dev/null
# The instruction sequence of an object, without operands and padding
mnemonics() {
	objdump -d --no-show-raw-insn "$1" | awk -F'\t' 'NF >= 2 && $2 !~ /nop|xchg +%ax,%ax|^int3/ { split($2, w, " "); print w[1] }'
}
fail=0 n=0
for o in "${objs[@]}"; do
	if ! inbase "$o"; then
		# New in the series: with its option off it must not be built at all.
		make -s -C "$SRC" O="$none" CC="ccache gcc" "$o" >/dev/null 2>&1 &&
			{ echo "not ok $o is built with every feature off"; fail=1; continue; }
		echo "ok $o (new file, not built with the features off)"; n=$((n + 1)); continue
	fi
	make -s -C "$SRC" O="$none" CC="ccache gcc" "$o" >/dev/null || die "cannot build $o"
	bad=""
	for sec in .text .data .rodata .init.text .init.data .data..read_mostly; do
		a=$(objcopy -O binary -j "$sec" "$base/$o" /dev/stdout 2>/dev/null | sha1sum)
		b=$(objcopy -O binary -j "$sec" "$none/$o" /dev/stdout 2>/dev/null | sha1sum)
		[ "$a" = "$b" ] || bad+=" $sec"
	done
	why=$(awk -v o="$o" '$1 == o { $1 = ""; sub(/^ /, ""); print }' "$TOP/patches/check-off.exceptions" 2>/dev/null)
	if [ -n "$bad" ] && [ -n "$why" ] && [ "$bad" = " .text" ] &&
	   [ "$(mnemonics "$base/$o" | wc -l)" -gt 100 ] &&
	   cmp -s <(mnemonics "$base/$o") <(mnemonics "$none/$o"); then
		echo "ok $o has the base's instructions, constants aside ($why)"
	elif [ -n "$bad" ]; then echo "not ok $o differs from the base in:$bad"; fail=1
	else echo "ok $o identical to the base (code and data)"; fi
	n=$((n + 1))
done
say "$n objects checked"
exit "$fail"
