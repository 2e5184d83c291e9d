# shellcheck shell=bash
# Boots the arm64 test machine of scoreboardd (the disk Tests/ARM64/image.sh makes) once,
# with a payload: a folder whose `run` program the guest runs as root under systemd,
# after the boot, before it powers off. To be sourced:
#
#   . Tests/ARM64/vm.sh
#   arm64_boot IMAGE_DIR PAYLOAD_DIR OUT_DIR TIMEOUT_SECONDS
#
# IMAGE_DIR holds base.img, vmlinuz and initrd.img (the last line image.sh prints).
# PAYLOAD_DIR becomes an ext4 disk (label payload, modes kept), the guest's /dev/vdb,
# which the guest mounts on /payload; `run` must be executable. The guest's system
# disk is a qcow2 overlay in OUT_DIR over base.img, so base.img stays as it was made and
# every boot starts from the same system. In OUT_DIR afterwards:
#
#   console.log   the guest's console, /dev/hvc0: the kernel, systemd, and the payload's
#                 standard output and error (which also go to the journal)
#   report.txt    the guest's /dev/hvc1: "BOOTED uptime=Ns" when the payload starts,
#                 whatever the payload writes there, "PAYLOAD status=S uptime=Ns" at its end
#   ttyAMA0.bin   the bytes the guest wrote to its PL011 UART, /dev/ttyAMA0, unchanged
#                 (nothing else uses that UART: the console is hvc0, no getty runs on it)
#   qemu.log      what QEMU itself printed
#   payload.img   the payload disk after the run (debugfs -R 'cat /FILE' reads a file)
#
# Returns QEMU's status: 0 when the guest powered off, 124 when TIMEOUT_SECONDS ran out.
# SCOREBOARDD_ARM64_APPEND adds words to the kernel's command line.

# Seconds between two "uptime=Ns" values, from report.txt, or "?".
arm64_seconds_between() { # FILE FIRST_WORD SECOND_WORD
  awk -v first="$2" -v second="$3" '
    function uptime(line) { sub(/.*uptime=/, "", line); sub(/s.*/, "", line); return line + 0 }
    $1 == first && a == "" { a = uptime($0) }
    $1 == second && b == "" { b = uptime($0) }
    END { if (a == "" || b == "") print "?"; else printf "%.1f\n", b - a }
  ' "$1"
}

arm64_boot() { # IMAGE_DIR PAYLOAD_DIR OUT_DIR TIMEOUT_SECONDS
  local image=${1:?arm64_boot: IMAGE_DIR}
  local payload=${2:?arm64_boot: PAYLOAD_DIR} out=${3:?arm64_boot: OUT_DIR}
  local timeout=${4:?arm64_boot: TIMEOUT_SECONDS}
  local file
  for file in base.img vmlinuz initrd.img; do
    [ -f "$image/$file" ] || {
      echo "arm64_boot: $image/$file is missing (make it with Tests/ARM64/image.sh)" >&2
      return 2
    }
  done
  [ -x "$payload/run" ] || {
    echo "arm64_boot: $payload/run is missing or not executable" >&2
    return 2
  }
  mkdir -p "$out"
  out=$(realpath "$out")
  rm -f "$out/console.log" "$out/report.txt" "$out/ttyAMA0.bin" "$out/qemu.log" \
    "$out/overlay.qcow2" "$out/payload.img"

  # The payload disk: the folder's size, plus room for what the payload writes and for
  # ext4's own tables (mke2fs -d copies owners, modes and times).
  local payload_mib
  payload_mib=$(($(du -s -B 1M --apparent-size "$payload" | cut -f1) * 11 / 10 + 64))
  mke2fs -q -F -t ext4 -d "$payload" -L payload "$out/payload.img" "${payload_mib}M" \
    >"$out/qemu.log" 2>&1 || {
    cat "$out/qemu.log" >&2
    echo "arm64_boot: mke2fs -d of $payload failed" >&2
    return 2
  }
  # The overlay names base.img by its absolute path; the guest's writes stay in it.
  qemu-img create -q -f qcow2 -b "$(realpath "$image/base.img")" -F raw "$out/overlay.qcow2" \
    >>"$out/qemu.log" 2>&1 || {
    cat "$out/qemu.log" >&2
    echo "arm64_boot: qemu-img create of the overlay failed" >&2
    return 2
  }

  # TCG (software emulation): the build machines have no KVM. cortex-a53 is the CPU of
  # a Pi 3 and Zero 2 W, and is quicker to emulate than "max". The disks are virtio-blk
  # on PCI, in this order: /dev/vda (system), /dev/vdb (payload). The virtio-serial
  # ports 0 and 1 are virtconsoles: the guest's hvc0 and hvc1. The PL011 UART is
  # -serial. virtio-rng feeds the guest's entropy pool, so nothing waits for it.
  # shellcheck disable=SC2054 # the commas are QEMU's
  local qemu=(qemu-system-aarch64 -M virt -accel tcg -cpu cortex-a53 -smp 2 -m 1024
    -nodefaults -no-user-config -display none -no-reboot
    -kernel "$image/vmlinuz" -initrd "$image/initrd.img"
    -append "root=/dev/vda rw console=hvc0 panic=-1 ${SCOREBOARDD_ARM64_APPEND:-}"
    -drive "file=$out/overlay.qcow2,format=qcow2,if=none,id=system,cache=unsafe"
    -device virtio-blk-pci,drive=system
    -drive "file=$out/payload.img,format=raw,if=none,id=payload"
    -device virtio-blk-pci,drive=payload
    -device virtio-serial-pci,id=ports
    -chardev "file,id=console,path=$out/console.log"
    -device virtconsole,bus=ports.0,nr=0,chardev=console
    -chardev "file,id=report,path=$out/report.txt"
    -device virtconsole,bus=ports.0,nr=1,chardev=report
    -serial "file:$out/ttyAMA0.bin"
    -device virtio-rng-pci)

  local began=$SECONDS status=0
  timeout -k 10 "$timeout" "${qemu[@]}" </dev/null >>"$out/qemu.log" 2>&1 || status=$?
  local total=$((SECONDS - began)) booted ran
  touch "$out/report.txt"
  booted=$(awk '$1 == "BOOTED" { sub(/.*uptime=/, ""); sub(/s.*/, ""); printf "%.1f\n", $0; exit }' \
    "$out/report.txt")
  ran=$(arm64_seconds_between "$out/report.txt" BOOTED PAYLOAD)
  echo "guest booted in ${booted:-?} s, payload ran $ran s, total $total s (QEMU status $status)"
  if [ "$status" = 124 ]; then
    echo "arm64_boot: the guest did not power off within $timeout s; see $out/console.log" >&2
  elif ! grep -q '^PAYLOAD ' "$out/report.txt"; then
    echo "arm64_boot: the payload did not finish (no payload disk, a panic?); see $out/console.log" >&2
  fi
  return "$status"
}
