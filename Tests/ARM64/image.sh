#!/usr/bin/env bash
# Makes the system disk of the arm64 test machine of scoreboardd: Debian trixie for
# arm64 (what 64-bit Raspberry Pi OS trixie is), booted by QEMU under systemd, with the
# trixie-backports kernel, whose gpio-sim, configfs, uinput and evdev are modules.
#
# Everything a test needs is installed here, because the machine has no network: the
# test installs scoreboardd's arm64 package offline with `apt install ./FILE.deb`.
# At boot, payload.service mounts the second disk (/dev/vdb, label payload) on /payload,
# runs /payload/run as root and powers the machine off (Tests/ARM64/vm.sh boots it).
#
# Steps: debootstrap --foreign of trixie arm64, its second stage and apt in a chroot
# through qemu-aarch64-static (binfmt_misc), the kernel and its initramfs
# (initramfs-tools), the boot services, and an ext4 image made from the folder by
# `mke2fs -d` (no loop mount). The image is made once and reused; it is made anew when
# this script (its package list included) or the kernel that linux-image-arm64 of
# trixie-backports depends on changes (a stamp beside the image records them).
#
#   bash Tests/ARM64/image.sh      the last line printed is the folder holding
#                                  base.img, vmlinuz and initrd.img
#
# Needs root (debootstrap, chroot, mount, binfmt_misc). Installs the Debian packages it
# needs on the host when run as root.
#
# Environment:
#   SCOREBOARDD_CACHE          cache folder (default: ~/.cache/scoreboardd); the image is
#                              in $SCOREBOARDD_CACHE/arm64
#   SCOREBOARDD_DEBIAN_MIRROR  Debian mirror URI (default: http://deb.debian.org/debian)
# shellcheck disable=SC2317  # the clean-up functions are called from a trap
set -euo pipefail
cd "$(dirname "$0")/../.."

readonly suite=trixie
readonly cache_root="${SCOREBOARDD_CACHE:-${HOME:?}/.cache/scoreboardd}"
readonly out="$cache_root/arm64"
# The folder the system is made in; it is deleted once the image is made.
readonly work="$cache_root/arm64-build"
readonly root="$work/root"
readonly logs="$out/logs"
readonly stamp="$out/base.stamp"
readonly mirror="${SCOREBOARDD_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
readonly hostname=scoreboardd-arm64
# Free room on the disk beyond its content: the test installs a package and writes state.
readonly free_mib=1024

# What the tests need in the guest, from trixie. dbus for systemctl's friends (hostnamectl,
# busctl) and for packages that expect a system bus; zstd for initramfs-tools' default
# compression; gpiod for gpioinfo and friends. The package's shared libraries (its
# Depends: libgpiod3; its Recommends: libmosquitto1 with libssl3t64 and the rest it
# brings, and libmicrohttpd12t64, which a board with [web] loads) must be here, as the
# offline `apt install ./FILE.deb` can download nothing. mosquitto (Debian's broker,
# with its own mosquitto.service) and mosquitto-clients for the MQTT scenario: a master
# and a mirror board, two services, through a broker on the machine. curl for the web
# scenarios: the pages, the JSON, pairing and commands through the API.
readonly packages=(
  systemd systemd-sysv udev kmod dbus apt procps util-linux passwd e2fsprogs
  libgpiod3 libmosquitto1 gpiod libstdc++6 libgcc-s1 initramfs-tools zstd
  mosquitto mosquitto-clients libmicrohttpd12t64 curl
)
# Units that only cost boot time in a test machine without network, or that would take
# the PL011 UART (/dev/ttyAMA0), which belongs to the test. getty.target: nobody logs in.
readonly masked_units=(
  serial-getty@ttyAMA0.service getty.target systemd-firstboot.service
  systemd-timesyncd.service apt-daily.timer apt-daily-upgrade.timer apt-daily.service
  apt-daily-upgrade.service e2scrub_all.timer e2scrub_reap.service man-db.timer
  fstrim.timer dpkg-db-backup.timer
)

started=$SECONDS
phase() { echo "=== arm64-image $((SECONDS - started))s: $*"; }
fail() {
  echo "arm64-image: $*" >&2
  exit 1
}

# Runs "$@" with its output in $logs/NAME.log; on failure names the step and its log.
step() { # NAME WHAT COMMAND...
  local name=$1 what=$2
  shift 2
  if ! "$@" >"$logs/$name.log" 2>&1; then
    tail -n 25 "$logs/$name.log" >&2
    fail "$what failed; see $logs/$name.log"
  fi
}

# ---- host packages
host_packages_needed_by="The arm64 test machine of scoreboardd needs"
# shellcheck source=scripts/host-packages.sh
. scripts/host-packages.sh

# ---- the kernel, resolved through a private apt configuration
# Sets kver (7.3.4+deb13-arm64) and kversion (the package version): the kernel that
# linux-image-arm64 of trixie-backports depends on now, or, when the archive cannot be
# reached, the one the existing image was made with.
resolve_kernel() {
  local apt_config
  # The private configuration of scripts/libgpiod2.sh (own lists, cache, status), pointed
  # at trixie-backports for arm64: the host's apt sources stay untouched.
  apt_config=$(SCOREBOARDD_DEBIAN_MIRROR="$mirror" bash scripts/libgpiod2.sh --apt-config "$out/apt")
  sed -i 's/ bookworm-backports main$/ trixie-backports main/' "$out/apt/sources.list"
  grep -q ' trixie-backports main$' "$out/apt/sources.list" ||
    fail "cannot point $out/apt/sources.list at trixie-backports"
  echo 'APT::Architecture "arm64"; APT::Architectures { "arm64"; };' >>"$apt_config"
  kver="" kversion=""
  if APT_CONFIG="$apt_config" apt-get -q update >"$logs/apt-update.log" 2>&1; then
    kver=$(APT_CONFIG="$apt_config" apt-cache depends linux-image-arm64 |
      awk '/Depends: linux-image-[0-9]/ { sub(/^linux-image-/, "", $2); print $2; exit }')
    kversion=$(APT_CONFIG="$apt_config" apt-cache show linux-image-arm64 |
      awk '/^Version:/ { print $2; exit }')
  fi
  if [ -z "$kver" ] || [ -z "$kversion" ]; then
    if [ -f "$stamp" ]; then
      kver=$(awk '$1 == "kernel" { print $2 }' "$stamp")
      kversion=$(awk '$1 == "kernel" { print $3 }' "$stamp")
      echo "The Debian archive cannot be reached; keeping the kernel of the existing image"
    fi
    [ -n "$kver" ] || fail "cannot resolve linux-image-arm64 of $suite-backports from $mirror;" \
      "see $logs/apt-update.log"
  fi
}

# What the image is made from: this script, the packages it installs (also in the script,
# but named so that a stamp says what its image holds) and the kernel.
wanted_stamp() {
  printf 'script %s\npackages %s\nkernel %s %s\n' "$(sha256sum <"$0" | cut -d' ' -f1)" \
    "${packages[*]}" "$kver" "$kversion"
}

# ---- mounts, which are always undone
# The mount points this run made, in the order it made them.
mounted=()

# Prints the mount points at or below the folder $1, deepest first.
mounts_below() {
  local dir point
  dir=$(realpath -m "$1")
  while read -r _ point _; do
    point=$(printf '%b' "$point") # /proc/mounts writes a space as \040
    case "$point" in
      "$dir" | "$dir"/*) printf '%s\n' "$point" ;;
    esac
  done </proc/mounts | sort -r
}

# Unmounts everything this run mounted, and anything left mounted below those folders
# (debootstrap's own /proc and /sys), deepest first.
unmount_all() {
  local i point
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    while read -r point; do
      [ -n "$point" ] || continue
      umount "$point" 2>/dev/null || umount -l "$point" || echo "arm64-image: cannot unmount $point" >&2
    done < <(mounts_below "${mounted[i]}")
  done
  mounted=()
}

mount_on() { # mount's arguments, the mount point last: mounts and records it
  local point=${*: -1}
  mount "$@"
  mounted+=("$point")
}

# Deletes the folder $1, but never while something is mounted below it.
remove_folder() {
  [ -e "$1" ] || return 0
  local left
  left=$(mounts_below "$1")
  [ -z "$left" ] || fail "not deleting $1: still mounted below it:"$'\n'"$left"
  rm -rf --one-file-system "$1"
}

# Prints the processes whose root folder is $1 (a daemon a package started in the chroot).
processes_in() {
  local dir process
  dir=$(realpath -m "$1")
  for process in /proc/[0-9]*; do
    [ "$(readlink "$process/root" 2>/dev/null)" = "$dir" ] && echo "${process#/proc/}"
  done
  return 0
}

stop_processes_in() { # FOLDER: TERM to what runs in it, KILL to what is left 5 s later
  local left tries=0
  left=$(processes_in "$1")
  [ -n "$left" ] || return 0
  # shellcheck disable=SC2086  # one process ID a word
  kill -TERM $left 2>/dev/null || true
  while [ -n "$left" ] && [ "$tries" -lt 50 ]; do
    sleep 0.1
    tries=$((tries + 1))
    left=$(processes_in "$1")
  done
  # shellcheck disable=SC2086
  [ -z "$left" ] || kill -KILL $left 2>/dev/null || true
}

# ---- binfmt_misc, which is left as it was found
readonly binfmt=/proc/sys/fs/binfmt_misc
binfmt_mounted=no    # this run mounted binfmt_misc
binfmt_registered=no # this run registered qemu-aarch64 (update-binfmts --enable)
binfmt_switched=no   # this run switched an existing, disabled qemu-aarch64 entry on
binfmt_status=no     # this run switched binfmt_misc as a whole on

# Makes the kernel run arm64 programs through qemu-aarch64-static, and records what it
# changed for restore_binfmt.
setup_binfmt() {
  if ! mountpoint -q "$binfmt"; then
    mount -t binfmt_misc binfmt_misc "$binfmt" || fail "cannot mount binfmt_misc on $binfmt"
    binfmt_mounted=yes
  fi
  if [ "$(cat "$binfmt/status")" != enabled ]; then
    echo 1 >"$binfmt/status"
    binfmt_status=yes
  fi
  if [ ! -e "$binfmt/qemu-aarch64" ]; then
    update-binfmts --enable qemu-aarch64 || fail "update-binfmts --enable qemu-aarch64 failed"
    binfmt_registered=yes
  elif [ "$(head -n 1 "$binfmt/qemu-aarch64")" != enabled ]; then
    echo 1 >"$binfmt/qemu-aarch64"
    binfmt_switched=yes
  fi
  [ -e "$binfmt/qemu-aarch64" ] || fail "binfmt_misc has no qemu-aarch64 entry"
}

restore_binfmt() {
  [ "$binfmt_switched" = yes ] && { echo 0 >"$binfmt/qemu-aarch64" || true; }
  [ "$binfmt_registered" = yes ] && { update-binfmts --disable qemu-aarch64 || true; }
  [ "$binfmt_status" = yes ] && { echo 0 >"$binfmt/status" || true; }
  [ "$binfmt_mounted" = yes ] && { umount "$binfmt" || true; }
  binfmt_mounted=no binfmt_registered=no binfmt_switched=no binfmt_status=no
}

cleanup() {
  local status=$?
  stop_processes_in "$root"
  unmount_all
  restore_binfmt
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- the system in $root
mount_system() { # /proc, /sys, /dev and /dev/pts for apt and the packages' scripts
  mkdir -p "$root/proc" "$root/sys" "$root/dev/pts"
  mount_on -t proc proc "$root/proc"
  mount_on -t sysfs sysfs "$root/sys"
  mount_on --bind /dev "$root/dev"
  mount_on --bind /dev/pts "$root/dev/pts"
}

in_root() { # COMMAND...: runs in the chroot with a clean environment
  env -i HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin chroot "$root" "$@"
}

# When the binfmt entry lacks the F flag the kernel looks for the interpreter inside the
# chroot: put qemu-aarch64-static there, at the entry's path. Sets interpreter_copy.
interpreter_copy=""
place_interpreter() {
  grep -q '^flags:.*F' "$binfmt/qemu-aarch64" && return
  interpreter_copy=$(awk '$1 == "interpreter" { print $2 }' "$binfmt/qemu-aarch64")
  install -D -m 755 "$(command -v qemu-aarch64-static)" "$root$interpreter_copy"
}

# The guest's boot services: payload.service and the program it runs.
write_boot_services() {
  install -d "$root/usr/local/sbin" "$root/etc/systemd/system/multi-user.target.wants"
  cat >"$root/usr/local/sbin/scoreboardd-payload" <<'EOF'
#!/bin/sh
# The test machine of scoreboardd: runs /payload/run from the payload disk (/dev/vdb)
# as root, and reports on /dev/hvc1 (the host's report file) when it began and how it
# ended. payload.service powers the machine off afterwards.
report() { printf '%s\n' "$*" >/dev/hvc1 2>/dev/null || true; }
uptime_s() { cut -d' ' -f1 /proc/uptime; }

# udev's coldplug (systemd-udev-trigger) only queues the events: wait until they are
# handled, so that every device node and module of the boot exists when the payload runs.
udevadm settle --timeout=120 || echo "scoreboardd-payload: udevadm settle timed out"
if [ ! -b /dev/vdb ]; then
  echo "scoreboardd-payload: no payload disk (/dev/vdb); powering off"
  report "NOPAYLOAD uptime=$(uptime_s)s"
  exit 0
fi
mkdir -p /payload
if ! mount -t ext4 /dev/vdb /payload; then
  report "PAYLOAD status=mount-failed uptime=$(uptime_s)s"
  exit 1
fi
report "BOOTED uptime=$(uptime_s)s"
status=0
(cd /payload && exec ./run) || status=$?
report "PAYLOAD status=$status uptime=$(uptime_s)s"
sync
umount /payload || true
exit "$status"
EOF
  chmod 755 "$root/usr/local/sbin/scoreboardd-payload"
  # After multi-user.target: the payload finds the system as a Raspberry Pi has it once
  # it has booted. Whether it passes or fails, the machine then powers off cleanly (the
  # journal and the disk are written), and QEMU (-no-reboot) ends.
  cat >"$root/etc/systemd/system/payload.service" <<'EOF'
[Unit]
Description=scoreboardd test payload (/payload/run from /dev/vdb)
After=multi-user.target systemd-udev-trigger.service
SuccessAction=poweroff
FailureAction=poweroff

[Service]
Type=oneshot
ExecStart=/usr/local/sbin/scoreboardd-payload
StandardOutput=journal+console
StandardError=journal+console
TimeoutStartSec=infinity

[Install]
WantedBy=multi-user.target
EOF
  ln -sf ../payload.service "$root/etc/systemd/system/multi-user.target.wants/payload.service"
  local unit
  for unit in "${masked_units[@]}"; do
    ln -sf /dev/null "$root/etc/systemd/system/$unit"
  done
}

# Hostname, fstab, machine ID and the files that make the first boot an ordinary one.
write_system_files() {
  echo "$hostname" >"$root/etc/hostname"
  printf '127.0.0.1\tlocalhost\n127.0.1.1\t%s\n::1\tlocalhost ip6-localhost ip6-loopback\n' \
    "$hostname" >"$root/etc/hosts"
  # No fsck: the kernel mounts / read-write (rw on its command line) from a fresh overlay.
  printf '/dev/vda\t/\text4\tdefaults,errors=remount-ro\t0\t0\n' >"$root/etc/fstab"
  # A fixed machine ID: with none, every boot would be a "first boot" (presets applied,
  # systemd-firstboot asking questions on the console).
  tr -d '-' </proc/sys/kernel/random/uuid >"$root/etc/machine-id"
  # ConditionNeedsUpdate= compares /usr with these: without them, every boot would rebuild
  # the hwdb and the ld.so cache, which takes long without KVM.
  local usr_ns
  usr_ns=$(stat -c %.9Y "$root/usr" | tr -d .)
  printf 'TIMESTAMP_NSEC=%s\n' "$usr_ns" | tee "$root/etc/.updated" >"$root/var/.updated"
}

# Debootstraps, installs and configures the system in $root. Sets kernel_file.
kernel_file=""
make_system() {
  remove_folder "$work"
  mkdir -p "$work"
  mounted+=("$work") # so that debootstrap's own mounts go too if it is interrupted

  phase "debootstrap $suite arm64 (first stage, from $mirror)"
  step debootstrap-1 "debootstrap (first stage)" debootstrap --foreign --arch=arm64 \
    --variant=minbase --keyring=/usr/share/keyrings/debian-archive-keyring.gpg \
    "$suite" "$root" "$mirror"

  phase "debootstrap second stage (arm64 code through qemu-aarch64-static)"
  setup_binfmt
  place_interpreter
  step debootstrap-2 "debootstrap (second stage)" in_root /debootstrap/debootstrap --second-stage
  unmount_all
  mounted+=("$work")

  mount_system
  # No service starts in the chroot, and dpkg skips fsync (the image is made afterwards).
  printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
  chmod 755 "$root/usr/sbin/policy-rc.d"
  echo force-unsafe-io >"$root/etc/dpkg/dpkg.cfg.d/scoreboardd-image"
  # No translations: apt parses every list it has, and parsing is slow under emulation.
  echo 'Acquire::Languages "none";' >"$root/etc/apt/apt.conf.d/90scoreboardd-image"
  echo "deb $mirror $suite main" >"$root/etc/apt/sources.list"
  # trixie-backports only while the kernel is installed: the guest never fetches.
  echo "deb $mirror $suite-backports main" >"$root/etc/apt/sources.list.d/backports.list"

  phase "apt: ${packages[*]}"
  step apt-update "apt-get update in the image" in_root apt-get -q update
  step apt-packages "apt-get install of the packages" in_root apt-get install -y -q \
    --no-install-recommends "${packages[@]}"

  phase "kernel $kver ($kversion, $suite-backports) and its initramfs"
  # Drivers the initramfs must carry for this machine: the disks, the console (hvc0, so
  # that early messages reach it) and the root file system.
  printf '%s\n' virtio_pci virtio_mmio virtio_blk virtio_console ext4 \
    >>"$root/etc/initramfs-tools/modules"
  # Only those (and what they need): MODULES=most would pack hundreds of drivers, which
  # takes minutes to compress under qemu-user and a minute to load under TCG at boot.
  echo MODULES=list >"$root/etc/initramfs-tools/conf.d/scoreboardd-image"
  step apt-kernel "apt-get install of the kernel" in_root apt-get install -y -q \
    --no-install-recommends "linux-image-arm64/$suite-backports"
  # The 7.x packages ship the kernel as /usr/lib/modules/VERSION/vmlinuz; older ones,
  # and some hooks, put it in /boot.
  kernel_file=$root/boot/vmlinuz-$kver
  [ -e "$kernel_file" ] || kernel_file=$root/usr/lib/modules/$kver/vmlinuz
  [ -e "$kernel_file" ] || fail "the image has no /boot/vmlinuz-$kver nor /usr/lib/modules/$kver/vmlinuz"
  [ -e "$root/boot/initrd.img-$kver" ] || fail "the image has no /boot/initrd.img-$kver" \
    "(initramfs-tools); see $logs/apt-kernel.log"
  local module
  for module in gpio-sim configfs uinput evdev; do
    [ -n "$(find "$root/lib/modules/$kver" \( -name "$module.ko*" -o -name "${module//-/_}.ko*" \) \
      -print -quit)" ] || grep -q "/${module//-/_}.ko" "$root/lib/modules/$kver/modules.builtin" ||
      fail "the kernel $kver has no $module module"
  done

  phase "boot services and clean-up"
  write_boot_services
  write_system_files
  rm -f "$root/etc/apt/sources.list.d/backports.list"
  in_root apt-get clean
  # The package lists are not needed to install a local package whose dependencies are
  # installed; without them the image is smaller.
  find "$root/var/lib/apt/lists" -maxdepth 1 -type f ! -name lock -delete
  rm -f "$root/usr/sbin/policy-rc.d" "$root/etc/dpkg/dpkg.cfg.d/scoreboardd-image" \
    "$root/etc/apt/apt.conf.d/90scoreboardd-image"
  [ -n "$interpreter_copy" ] && rm -f "$root$interpreter_copy"
  stop_processes_in "$root"
  unmount_all
  restore_binfmt
}

# The ext4 image of $root (mke2fs -d: no loop mount), with the kernel and initrd beside it.
make_image() {
  phase "disk image (mke2fs -d)"
  cp "$kernel_file" "$out/vmlinuz.new"
  cp "$root/boot/initrd.img-$kver" "$out/initrd.img.new"
  local content_mib size_mib
  content_mib=$(du -s -B 1M --apparent-size "$root" | cut -f1)
  # ext4's own tables take about a tenth more than the files.
  size_mib=$((content_mib * 11 / 10 + free_mib))
  rm -f "$out/base.img.new"
  step mke2fs "mke2fs -d" mke2fs -F -t ext4 -d "$root" -L root "$out/base.img.new" "${size_mib}M"
  mv "$out/vmlinuz.new" "$out/vmlinuz"
  mv "$out/initrd.img.new" "$out/initrd.img"
  mv "$out/base.img.new" "$out/base.img"
  remove_folder "$work"
  echo "base.img: $size_mib MiB ($content_mib MiB of files), kernel $kver"
}

[ "$(id -u)" = 0 ] || {
  host_packages qemu-system-arm qemu-user-static binfmt-support debootstrap e2fsprogs qemu-utils
  fail "needs root (debootstrap, chroot, mount and binfmt_misc)"
}
phase "host packages"
host_packages qemu-system-arm qemu-user-static binfmt-support debootstrap e2fsprogs qemu-utils
mkdir -p "$out" "$logs"
phase "kernel of $suite-backports"
resolve_kernel
echo "kernel $kver ($kversion)"
if [ -f "$out/base.img" ] && [ -f "$out/vmlinuz" ] && [ -f "$out/initrd.img" ] &&
  cmp -s "$stamp" <(wanted_stamp); then
  phase "the image is up to date"
else
  rm -f "$stamp"
  make_system
  make_image
  wanted_stamp >"$stamp"
  phase "image made"
fi
echo "$out"
