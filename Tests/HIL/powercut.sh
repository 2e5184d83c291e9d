#!/usr/bin/env bash
# Power cuts (make test-powercut): a change scoreboardd answered `ok` must survive the
# power going away at any moment after the answer.
#
# The release scoreboardd runs in a QEMU guest (the kernel, initramfs and machine of
# Tests/HIL/lib.sh, shared with make test-hil) with its state file on an ext4 disk
# image, made afresh for each run with the host's mkfs.ext4 and attached as a virtio
# disk with QEMU's default writeback cache (cache=writeback: what the guest flushes
# reaches the image, never cache=unsafe). In the guest the disk goes through dm-delay,
# which holds each write and flush for 10 ms before passing it on, as an SD card takes
# its time; the guest (Tests/HIL/guest/powercut-init) mounts it with ext4's default
# options (data=ordered, a journal commit every 5 s), starts scoreboardd with its
# state file there and its control socket in /run, and reports the value scoreboardd
# restored on a serial line that QEMU writes to a file here. Then it sets the value
# again and again through scoreboardctl (VALUE+1, VALUE+2, ..., after 9999 comes 0),
# reporting each `ok` right after the answer. At a random moment, 0 to 5 s after the
# changes began (uniformly, from bash's generator seeded with SEED), QEMU is killed
# with SIGKILL: the guest gets no shutdown and no sync, and whatever its kernel had
# not yet handed to the disk, or dm-delay still held, is gone. The guest is booted
# again from the same image, CUTS times; the last boot only checks.
#
# Each boot judges the cut before it. The restored value must be the last one
# answered `ok`, or the change that may have been in flight after it (or one answered
# otherwise after it); anything older is a lost acknowledged value. A state file that
# scoreboardd sets aside as damaged, or none at all after the first `ok`, is a damaged
# file. After the last boot e2fsck checks the image. The figures are printed at the
# end; the exit code is 1 when a value was lost, a file damaged, the file system has
# errors, or a boot failed.
#
# Why the latency: without it (SCOREBOARDD_POWERCUT_LATENCY=none) a missing fsync of
# the temporary file goes unseen. ext4 starts writing a file renamed over another at
# once (auto_da_alloc), and a disk with nothing between it and the host's page cache
# has finished that write before the folder's fsync commits the rename. Behind 10 ms
# it has not, the commit records the rename but not the written data, and after the
# cut the state file reads as zeros. Without the folder's fsync, or both, the test
# fails either way.
#
#   Tests/HIL/powercut.sh
#
# Environment (and those of Tests/HIL/lib.sh):
#   CUTS                       power cuts (default: 12, CI's share; 100 for the full
#                              run)
#   SEED                       the seed of the cut moments, printed at the end (default:
#                              from the clock); the same SEED and CUTS cut at the same
#                              moments after the changes began
#   SCOREBOARDD_POWERCUT_CUT_MS  the latest cut after the changes began (default: 5000)
#   SCOREBOARDD_POWERCUT_LATENCY  READ:WRITE:FLUSH milliseconds of dm-delay (default:
#                              0:10:10), or none for the plain virtio disk
#   SCOREBOARDD_HIL_TIMEOUT    seconds a boot may take to report (default: 120)
set -euo pipefail
cd "$(dirname "$0")/../.."
readonly here=Tests/HIL
readonly hil_name=powercut
# shellcheck source=Tests/HIL/lib.sh
. "$here/lib.sh"
readonly cuts=${CUTS:-12}
readonly seed=${SEED:-$(($(date +%s%N) / 1000 % 1000000))}
readonly cut_ms=${SCOREBOARDD_POWERCUT_CUT_MS:-5000}
readonly latency=${SCOREBOARDD_POWERCUT_LATENCY:-0:10:10}
readonly timeout=${SCOREBOARDD_HIL_TIMEOUT:-120}
readonly work="$cache/powercut"
readonly image="$work/state.img"
readonly modulo=10000 # the guest counts home up to 9999, then from 0 again

for number in "$cuts:CUTS" "$seed:SEED" "$cut_ms:SCOREBOARDD_POWERCUT_CUT_MS" \
  "$timeout:SCOREBOARDD_HIL_TIMEOUT"; do
  case "${number%%:*}" in
    '' | *[!0-9]*) fail "${number#*:} must be a whole number, not '${number%%:*}'" ;;
  esac
done
[ "$cuts" -ge 1 ] || fail "CUTS must be 1 or more"
[[ "$latency" =~ ^(none|[0-9]+:[0-9]+:[0-9]+)$ ]] ||
  fail "SCOREBOARDD_POWERCUT_LATENCY must be READ:WRITE:FLUSH in milliseconds, or none"

# ---- the guest
pack_initramfs() { # -> $work/initramfs.cpio
  local root="$work/root"
  initramfs_tree "$root"
  # Stripped, the two programs take 16 MB instead of 28, which every boot unpacks
  # again: about a second less per boot.
  strip "$root/usr/local/bin/scoreboardd" "$root/usr/local/bin/scoreboardctl"
  # virtio_blk, ext4 and dm-delay are modules in Debian's kernel (virtio_pci is built
  # in); ext4 and jbd2 also need crc32c, a soft dependency that modinfo's "depends="
  # does not list.
  add_modules "$root" virtio_blk crc32c_generic ext4 dm-delay
  copy_with_libraries "$root" /usr/sbin/dmsetup /usr/sbin/dmsetup
  install -m 755 "$here/guest/powercut-init" "$root/init"
  install -D -m 644 "$here/configs/powercut.conf" "$root/etc/powercut/powercut.conf"
  pack_initramfs_tree "$root" "$work/initramfs.cpio"
}

# A fresh ext4 file system of 1 GiB, as mkfs.ext4 makes it by default, but with its
# inode tables and journal written now rather than by the guest in the background.
make_image() {
  rm -f "$image"
  truncate -s 1G "$image"
  mkfs.ext4 -q -F -L scoreboard -E lazy_itable_init=0,lazy_journal_init=0 "$image" ||
    fail "mkfs.ext4 $image failed"
}

# ---- one boot
qemu_pid=""
stop_qemu() {
  [ -n "$qemu_pid" ] || return 0
  kill -KILL "$qemu_pid" 2>/dev/null || true
  wait "$qemu_pid" 2>/dev/null || true
  qemu_pid=""
}
trap stop_qemu EXIT

start_qemu() { # DIR MODE: boots the guest in the background; its report goes to DIR
  local dir=$1 mode=$2
  rm -rf "$dir"
  mkdir -p "$dir"
  : >"$dir/report.txt"
  qemu_machine "$work/initramfs.cpio"
  "${qemu_command[@]}" \
    -drive "file=$image,format=raw,if=virtio,cache=writeback" \
    -serial "file:$dir/console.log" -serial "file:$dir/report.txt" \
    -append "console=ttyS0 quiet loglevel=4 panic=-1 powercut.mode=$mode powercut.latency=$latency" \
    </dev/null >"$dir/qemu.log" 2>&1 &
  qemu_pid=$!
}

# The lines of FILE that are complete: a line the cut interrupted is not one.
complete_lines() { # FILE
  local file=$1
  if [ -s "$file" ] && [ -n "$(tail -c 1 "$file")" ]; then
    sed '$d' "$file"
  else
    cat "$file"
  fi
}

# Waits until a complete line of DIR/report.txt matches PATTERN (0), or QEMU ended or
# $timeout seconds went by (1).
wait_report() { # DIR PATTERN
  local deadline=$((SECONDS + timeout))
  while ! complete_lines "$1/report.txt" | grep -q -E "$2"; do
    if ! kill -0 "$qemu_pid" 2>/dev/null || [ "$SECONDS" -ge "$deadline" ]; then
      complete_lines "$1/report.txt" | grep -q -E "$2"
      return
    fi
    sleep 0.02
  done
}

boot_failed() { # DIR REASON
  echo "powercut: boot $(basename "$1") failed: $2" >&2
  echo "---- report port ($1/report.txt)"
  cat "$1/report.txt"
  echo "---- guest console ($1/console.log)"
  cat "$1/console.log"
  echo "---- qemu ($1/qemu.log)"
  cat "$1/qemu.log"
  echo "---- end of diagnostics"
}

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# ---- the judgement of one boot
# What the cut before this boot may have left, from the previous boot's report:
# `anchor` (the last value acknowledged, or the value restored when none was) and
# `allowed` (the anchor and every value tried after it, up to the one in flight).
anchor=""
allowed=""
acknowledged_ever=no
lost=0
rolled_back=0
damaged=0
in_flight=0
acknowledged=0
other_answers=0
changing_ms=0
cuts_done=0
failed_boot=""
boot_ms=()

# Sets anchor and allowed from the report of a cut boot that restored RESTORED, and
# tried (and reported) so far: restored+1, restored+2, ...
expect_from() { # DIR RESTORED
  local kind value last=$2
  anchor=$2
  allowed=$2
  while read -r kind value _; do
    last=$value
    case "$kind" in
      ACK)
        anchor=$value
        allowed=$value
        acknowledged_ever=yes
        ;;
      OTHER) allowed="$allowed $value" ;;
    esac
  done < <(complete_lines "$1/report.txt" | grep -E '^(ACK|OTHER) ')
  # The change being made when the power went.
  allowed="$allowed $(((last + 1) % modulo))"
}

# How many acknowledged changes of the previous boot came after the value restored now.
count_rolled_back() { # PREVIOUS_DIR RESTORED
  complete_lines "$1/report.txt" | awk -v restored="$2" '
    /^ACK / { n++; if ($2 == restored) n = 0 }
    END { print n + 0 }'
}

judge() { # DIR PREVIOUS_DIR CUT: checks what the boot in DIR restored after cut CUT
  local dir=$1 previous=$2 cut=$3 restored state verdict=""
  restored=$(complete_lines "$dir/report.txt" | sed -n 's/^RESTORED //p')
  state=$(complete_lines "$dir/report.txt" | sed -n 's/^STATE //p')
  if complete_lines "$dir/report.txt" | grep -q -E '^(SETASIDE|DAMAGED) '; then
    damaged=$((damaged + 1))
    verdict="DAMAGED: $(complete_lines "$dir/report.txt" | grep -E '^(SETASIDE|DAMAGED) ' | tr '\n' ' ')"
  elif [ "$state" = missing ] && [ "$acknowledged_ever" = yes ]; then
    damaged=$((damaged + 1))
    verdict="DAMAGED: the state file is missing"
  fi
  if [ "$restored" = "$anchor" ]; then
    :
  elif [[ " $allowed " == *" $restored "* ]]; then
    in_flight=$((in_flight + 1))
    verdict="${verdict:+$verdict; }in flight: $restored"
  else
    local back
    back=$(count_rolled_back "$previous" "$restored")
    lost=$((lost + 1))
    rolled_back=$((rolled_back + back))
    verdict="${verdict:+$verdict; }LOST: restored $restored, last acknowledged $anchor"
    verdict="$verdict ($back acknowledged changes rolled back)"
  fi
  printf '  cut %s: restored %s, last ok %s%s\n' "$cut" "$restored" "$anchor" \
    "${verdict:+ -- $verdict}"
}

# ---- the run
run_cuts() {
  local cycle previous="" dir mode began restored_at delay changes
  for ((cycle = 1; cycle <= cuts + 1; cycle++)); do
    dir="$work/boots/$(printf '%03d' "$cycle")"
    mode="cut"
    [ "$cycle" -le "$cuts" ] || mode=check
    began=$(now_ms)
    start_qemu "$dir" "$mode"
    if ! wait_report "$dir" '^(RESTORED|FAIL) ' ||
      complete_lines "$dir/report.txt" | grep -q '^FAIL '; then
      boot_failed "$dir" "no value restored"
      failed_boot=$cycle
      stop_qemu
      return 1
    fi
    restored_at=$(now_ms)
    boot_ms+=($((restored_at - began)))
    if [ "$cycle" -eq 1 ]; then
      disk=$(complete_lines "$dir/report.txt" | awk '/^MOUNT / { print $4 " " $5 " on " $2 }')
      echo "disk: $disk"
    fi
    [ -z "$previous" ] || judge "$dir" "$previous" $((cycle - 1))
    if [ "$mode" = check ]; then
      if ! wait_report "$dir" '^CHECKED$'; then
        boot_failed "$dir" "no CHECKED"
        failed_boot=$cycle
        stop_qemu
        return 1
      fi
      wait "$qemu_pid" 2>/dev/null || true
      qemu_pid=""
      break
    fi
    if ! wait_report "$dir" '^BEGIN$'; then
      boot_failed "$dir" "no BEGIN"
      failed_boot=$cycle
      stop_qemu
      return 1
    fi
    delay=$(((RANDOM * 32768 + RANDOM) % (cut_ms + 1)))
    sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
    stop_qemu
    cuts_done=$cycle
    changing_ms=$((changing_ms + delay))
    changes=$(complete_lines "$dir/report.txt" | grep -c '^ACK ' || true)
    acknowledged=$((acknowledged + changes))
    other_answers=$((other_answers + $(complete_lines "$dir/report.txt" | grep -c '^OTHER ' || true)))
    printf 'boot %d: restored after %d ms; power cut %d ms after the changes began, %d ok\n' \
      "$cycle" "${boot_ms[-1]}" "$delay" "$changes"
    expect_from "$dir" "$(complete_lines "$dir/report.txt" | sed -n 's/^RESTORED //p')"
    previous=$dir
  done
}

file_system_check() { # sets fsck: the verdict of e2fsck on the image after the last boot
  if e2fsck -fn "$image" >"$work/e2fsck.log" 2>&1; then
    fsck=clean
  else
    fsck="ERRORS (see $work/e2fsck.log)"
    cat "$work/e2fsck.log"
  fi
}

figures() {
  local total=$(($(date +%s) - hil_start)) sum=0 ms min max
  min=${boot_ms[0]:-0}
  max=$min
  for ms in "${boot_ms[@]}"; do
    sum=$((sum + ms))
    [ "$ms" -lt "$min" ] && min=$ms
    [ "$ms" -gt "$max" ] && max=$ms
  done
  local boots=${#boot_ms[@]}
  [ "$boots" -gt 0 ] || boots=1
  [ "$changing_ms" -gt 0 ] || changing_ms=1
  echo
  echo "power cuts:                  $cuts_done of $cuts (each 0 to $cut_ms ms after the changes began)"
  printf 'acknowledged changes:        %d (%d other answers), %d.%d a second\n' "$acknowledged" \
    "$other_answers" $((acknowledged * 1000 / changing_ms)) $((acknowledged * 10000 / changing_ms % 10))
  echo "lost acknowledged values:    $lost ($rolled_back acknowledged changes rolled back)"
  echo "damaged state files:         $damaged"
  echo "in-flight values restored:   $in_flight (the change being made at the cut, not yet acknowledged)"
  echo "failed boots:                ${failed_boot:-none}"
  printf 'boot to restored value:      %d.%03d s mean, %d.%03d to %d.%03d s (%d boots)\n' \
    $((sum / boots / 1000)) $((sum / boots % 1000)) $((min / 1000)) $((min % 1000)) \
    $((max / 1000)) $((max % 1000)) "${#boot_ms[@]}"
  echo "file system after the run:   $fsck (e2fsck -fn)"
  echo "disk:                        $disk, dm-delay READ:WRITE:FLUSH $latency ms"
  echo "total time:                  ${total} s"
  echo "seed:                        $seed (SEED=$seed CUTS=$cuts cuts at the same moments)"
}

phase "host packages"
host_packages qemu-system-x86 busybox-static cpio xz-utils e2fsprogs dmsetup
mkdir -p "$work"
phase "kernel from $suite"
resolve_kernel
kernel_image
echo "kernel $kver in $kdir"
phase "scoreboardd"
build_daemon v1
phase "initramfs and a fresh disk image"
pack_initramfs
make_image
rm -rf "$work/boots"
phase "$cuts power cuts, seed $seed"
RANDOM=$seed
status=0
fsck="not checked"
disk="?"
if run_cuts; then
  file_system_check
  [ "$fsck" = clean ] || status=1
else
  status=1
fi
figures
[ "$lost" -eq 0 ] && [ "$damaged" -eq 0 ] || status=1
phase "done: $([ "$status" -eq 0 ] && echo PASS || echo FAIL)"
exit "$status"
