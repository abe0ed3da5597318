#!/usr/bin/env bash
# Print the accelerator QEMU should use: "kvm" or "tcg".
# KVM only when hardware KVM (kvm_intel/kvm_amd) is loaded and a bounded test
# boot of our kernel gets to init under it. A software hypervisor behind
# /dev/kvm (kvm_pvm here) hangs a normal kernel right after the firmware, so
# presence of /dev/kvm proves nothing. The answer is cached per kernel image.
# ACCEL=kvm|tcg skips the probe.
. "$(dirname "$0")/common.sh"

kernel=${1:-$OBJ/arch/x86/boot/bzImage}
KVM_DEV=${KVM_DEV:-/dev/kvm}
SYSMOD=${SYSMOD:-/sys/module}
QEMU=${QEMU:-qemu-system-x86_64}
PROBE_TIMEOUT=${PROBE_TIMEOUT:-30}

case ${ACCEL:-auto} in kvm | tcg) echo "$ACCEL"; exit 0 ;; esac

if [ ! -w "$KVM_DEV" ] || { [ ! -d "$SYSMOD/kvm_intel" ] && [ ! -d "$SYSMOD/kvm_amd" ]; }; then
	echo tcg; exit 0
fi
cache=$BUILD/.accel-$(cksum < "$kernel" | cut -d' ' -f1)
if [ -f "$cache" ]; then cat "$cache"; exit 0; fi
# rdinit=/nonexistent: the kernel panics right after it would start init,
# which proves firmware, decompression and kernel init all ran under KVM.
log=$(mktemp)
timeout -s KILL "$PROBE_TIMEOUT" "$QEMU" -accel kvm -cpu host -m 256M -smp 1 \
	-nodefaults -display none -no-reboot -serial "file:$log" -kernel "$kernel" \
	-append "console=ttyS0 panic=-1 rdinit=/nonexistent init=/nonexistent" \
	</dev/null >/dev/null 2>&1 || true
if grep -q -e 'Kernel panic' -e 'Run /nonexistent' "$log"; then a=kvm; else a=tcg; fi
rm -f "$log"
mkdir -p "$BUILD" && echo "$a" > "$cache"
echo "$a"
