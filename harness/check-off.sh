#!/usr/bin/env bash
# "A feature compiled out leaves no code behind": build the objects the
# series touches with every feature option off (FEATURES=none, in
# build/none/obj) and compare their code and data, section by section, with
# the same objects of the unpatched base (build/base/obj, made by
# 'harness/baseline.sh --build-only'). Only file-name strings may differ.
# patches/check-off.exceptions may name an object whose constants a patch
# changes on purpose (a uapi value), with the reason: that object must then
# have the base's instructions, operands aside (same mnemonics in the same
# order, alignment padding ignored).
# Usage: harness/check-off.sh [obj...]   (default: every mm/*.c the series changes)
. "$(dirname "$0")/common.sh"

base=$BUILD/base/obj
# The base is built here when it is missing or stale (13-15 min cold, a
# few minutes with a warm ccache), in the environment of a plain make: a
# caller's SRC and OBJ (make check-mutants' scratch tree) are not the base's
build_base() {
	say "$1: building it (harness/baseline.sh --build-only)"
	env -u SRC -u OBJ -u NONE_OBJ -u FEATURES "$TOP/harness/baseline.sh" --build-only ||
		die "the base did not build"
}
[ -f "$base/vmlinux" ] || build_base "no base build in ${base#"$TOP"/}"
none=${NONE_OBJ:-$BUILD/none/obj}	# another tree (make check-mutants) needs its own
OBJ=$none FEATURES=none "$TOP/harness/configure.sh"
# Both must come from the same config, the series' options aside
feat=$(sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=.*/\1/p' "$TOP/configs/features.config" | paste -sd'|')
same_config() {
	diff -q <(grep -v -E "^(# )?(${feat:-NONE})[= ]" "$base/.config") \
		<(grep -v -E "^(# )?(${feat:-NONE})[= ]" "$none/.config") > /dev/null
}
if ! same_config; then
	build_base "build/base/obj was built with another config (configs/ changed since)"
	same_config || die "build/base/obj still has another config than build/none/obj"
fi
objs=("$@")
if [ ${#objs[@]} = 0 ]; then
	mapfile -t objs < <(git -C "$SRC" diff --name-only refs/tags/base HEAD -- 'mm/*.c' | sed 's/\.c$/.o/')
	# and the objects that instantiate the trace events of changed headers
	git -C "$SRC" diff --quiet refs/tags/base HEAD -- include/trace/events/vmscan.h || objs+=(mm/vmscan.o)
	git -C "$SRC" diff --quiet refs/tags/base HEAD -- include/trace/events/writeback.h || objs+=(fs/fs-writeback.o)
fi
make -s -C "$SRC" O="$none" CC="ccache gcc" -j"$JOBS" prepare >/dev/null
# The instruction sequence of an object, without operands and padding
mnemonics() {
	objdump -d --no-show-raw-insn "$1" | awk -F'\t' 'NF >= 2 && $2 !~ /nop|xchg +%ax,%ax|^int3/ { split($2, w, " "); print w[1] }'
}
fail=0 n=0
for o in "${objs[@]}"; do
	if [ ! -f "$base/$o" ]; then
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
