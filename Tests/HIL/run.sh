#!/usr/bin/env bash
# Hardware-in-the-loop tests (make test-hil): the release scoreboardd, built once
# against libgpiod 1.6 and once against libgpiod 2, runs in a QEMU guest with a
# Debian kernel on real kernel devices (gpio-sim lines, a uinput USB keypad, an
# 8250 UART, HT16K33 backpacks emulated by i2c-stub) through the scenarios of
# Tests/HIL/guest/init.
#
# Steps: Debian packages for the host; the current bookworm-backports kernel
# (linux-image-amd64's dependency), its headers, kbuild and source, and libgpiod 2
# (gpiod, libgpiod3), downloaded through a private apt configuration (the host's
# apt sources stay untouched) into the cache folder and reused; gpio-sim built out
# of tree for that kernel; scoreboardd and scoreboardctl built with the Swift
# runtime linked in; one initramfs per libgpiod version (made anew on every run from
# these and the host's programs: busybox, the gpiod tools of v1, and mosquitto with
# mosquitto_pub and mosquitto_sub, each with the shared libraries ldd lists); one boot
# each under `timeout`. The S7S display's bytes, which QEMU writes to a file, are decoded here;
# the HT16K33 RAM the guest read back is printed after the summary.
#
#   Tests/HIL/run.sh [v1] [v2]      (default: both)
#
# Environment:
#   SCOREBOARDD_CACHE          cache folder (default: ~/.cache/scoreboardd); the HIL
#                              part is $SCOREBOARDD_CACHE/hil
#   SCOREBOARDD_DEBIAN_MIRROR  Debian mirror URI (default: the one the host's apt uses)
#   SCOREBOARDD_HIL_TIMEOUT    seconds one boot may take (default: 240)
#   SWIFT                      the swift driver (default: swift)
set -euo pipefail
cd "$(dirname "$0")/../.."
readonly here=Tests/HIL
readonly hil_name=hil
# shellcheck source=Tests/HIL/lib.sh
. "$here/lib.sh"
readonly timeout="${SCOREBOARDD_HIL_TIMEOUT:-240}"
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(v1 v2)

# Every scenario the guest reports, and every checkpoint the host decodes: a name
# missing from a run is a failure too.
readonly scenarios=(
  daemon-start
  keypad-types-score
  s7s-shows-typed-score
  gpio-button-press
  gpio-button-bounce-counts-once
  gpio-button-long-press
  s7s-shows-button-points
  gpio-display-lines-requested
  gpio-buttons-lines-requested
  gpio-display-idle-levels
  keypad-recreated
  s7s-shows-recreated-keypad-score
  sighup-reload
  s7s-sighup-moved-fields
  state-after-sigkill
  s7s-after-sigkill-restart
  sigterm-exit-0
  s7s-sigterm-final-frame
  gpio-lines-released
  clock-button-stops-at-edge
  horn-at-zero
  horn-off-after-sigterm
  horn-off-after-sigkill
  ht16k33-digits
  ht16k33-penalty-slot
  ht16k33-rewrite-after-failed-write
  ht16k33-reinit-after-stub-reload
  ht16k33-sigterm-keeps-frame
  mqtt-broker-loopback
)

# ---- kernel, headers, source and libgpiod 2 from bookworm-backports
# The kernel (lib.sh), its headers, kbuild and source for the gpio-sim build, and
# libgpiod 2 (gpiod, libgpiod3) for the guest's tools.
fetch_kernel() {
  resolve_kernel
  local kabi=${kver%-amd64} kmm ksrc
  kmm=$(echo "$kver" | cut -d. -f1-2)
  ksrc=$(hil_apt_cache show "linux-image-$kver" 2>/dev/null | awk '/^Version:/ { print $2; exit }')
  kernel_image
  kernel_debs "linux-headers-$kver" "linux-headers-$kabi-common" "linux-kbuild-$kabi" \
    "linux-source-$kmm=$ksrc"
  if [ ! -e "$kdir/headers-unpacked" ]; then
    rm -rf "$kdir/hdr"
    mkdir -p "$kdir/hdr"
    local package
    for package in "linux-headers-$kver" "linux-headers-$kabi-common" "linux-kbuild-$kabi"; do
      dpkg -x "$kdir"/debs/"${package}"_*.deb "$kdir/hdr"
    done
    # The headers' Makefile includes the common headers by their installed path.
    sed -i "s#^include /usr/src/#include $kdir/hdr/usr/src/#" "$kdir/hdr/usr/src/linux-headers-$kver/Makefile"
    touch "$kdir/headers-unpacked"
  fi
  if [ ! -e "$cache/gpiod2/complete" ]; then
    echo "Downloading gpiod and libgpiod3 (libgpiod 2 tools) into $cache/gpiod2"
    rm -rf "$cache/gpiod2"
    mkdir -p "$cache/gpiod2/debs"
    (cd "$cache/gpiod2/debs" && hil_apt -q download "gpiod/$suite" "libgpiod3/$suite" >/dev/null)
    local deb
    for deb in "$cache"/gpiod2/debs/*.deb; do dpkg -x "$deb" "$cache/gpiod2/root"; done
    touch "$cache/gpiod2/complete"
  fi
}

# gpio-sim is not enabled in Debian's kernels: build it from the matching source,
# with irq_sim.c, whose irq_to_desc() is not exported to modules.
build_gpio_sim() {
  local build="$kdir/gpio-sim" kmm
  [ -e "$build/gpio-sim.ko" ] && return
  kmm=$(echo "$kver" | cut -d. -f1-2)
  rm -rf "$build"
  mkdir -p "$build"
  dpkg-deb --fsys-tarfile "$kdir"/debs/linux-source-"${kmm}"_*.deb |
    tar -xO "./usr/src/linux-source-$kmm.tar.xz" | xz -dc |
    tar -x -C "$build" --strip-components=3 --wildcards '*/drivers/gpio/gpio-sim.c' \
      '*/kernel/irq/irq_sim.c' '*/drivers/gpio/gpiolib.h'
  mv "$build/gpio-sim.c" "$build/gpio-sim-main.c"
  sed -i 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq_safe(irqnum);/' "$build/irq_sim.c"
  grep -q generic_handle_irq_safe "$build/irq_sim.c" || fail "irq_sim.c: the irq_to_desc fix did not apply"
  printf 'obj-m := gpio-sim.o\ngpio-sim-y := gpio-sim-main.o irq_sim.o\n' >"$build/Kbuild"
  make -s -C "$kdir/hdr/usr/src/linux-headers-$kver" M="$build" CONFIG_DEBUG_INFO_BTF_MODULES= \
    modules
  [ -e "$build/gpio-sim.ko" ] || fail "gpio-sim.ko was not built"
}

# ---- helpers for the guest and the host
build_helpers() {
  mkdir -p "$cache/bin"
  local helper
  for helper in uinput-kbd sim-pull sim-watch i2c-ram; do
    gcc -O2 -static -Wall -Wextra -Werror -o "$cache/bin/$helper" "$here/src/$helper.c"
  done
  gcc -O2 -Wall -Wextra -Werror -o "$cache/bin/s7s-decode" "$here/src/s7s-decode.c"
}

# ---- initramfs
pack_initramfs() { # v1|v2 -> $cache/run/$version/initramfs.cpio
  local version=$1 out="$cache/run/$1" root tool
  root="$out/root"
  initramfs_tree "$root"
  mkdir -p "$root/etc/hil"
  for tool in uinput-kbd sim-pull sim-watch i2c-ram; do install -m 755 "$cache/bin/$tool" "$root/usr/local/bin/$tool"; done
  local gpiod_bin=/usr/bin gpiod_lib=""
  if [ "$version" = v2 ]; then
    gpiod_bin="$cache/gpiod2/root/usr/bin"
    gpiod_lib="$cache/gpiod2/root/usr/lib/x86_64-linux-gnu"
  fi
  for tool in gpiodetect gpioinfo gpioget gpioset; do
    copy_with_libraries "$root" "$gpiod_bin/$tool" "/usr/local/bin/$tool" "$gpiod_lib"
  done
  # An MQTT broker and its clients, the host's (mosquitto, mosquitto-clients), for the
  # daemon's MQTT link: the guest runs them on its loopback.
  for tool in /usr/sbin/mosquitto /usr/bin/mosquitto_pub /usr/bin/mosquitto_sub; do
    copy_with_libraries "$root" "$tool" "/usr/local/bin/${tool##*/}"
  done
  add_modules "$root" configfs gpio-sim evdev uinput i2c-dev i2c-stub
  # Loaded by the guest with the backpacks' addresses, removed and loaded again.
  hold_module "$root" i2c-stub
  install -m 755 "$here/guest/init" "$root/init"
  cp "$here/configs/hil.conf" "$here/configs/hil-moved.conf" "$here/configs/hil-clock.conf" \
    "$here/configs/hil-i2c.conf" "$root/etc/hil/"
  echo "$version" >"$root/etc/hil/libgpiod"
  pack_initramfs_tree "$root" "$out/initramfs.cpio"
}

# ---- one boot
boot() { # v1|v2: 0 when every scenario passed
  local version=$1 out="$cache/run/$1" code=0
  rm -f "$out/console.log" "$out/ttyS1.bin" "$out/report.txt" "$out/ht16k33.txt"
  local began
  began=$(date +%s)
  qemu_machine "$out/initramfs.cpio"
  timeout "$timeout" "${qemu_command[@]}" \
    -serial stdio -serial "file:$out/ttyS1.bin" -serial "file:$out/report.txt" \
    -append "console=ttyS0 quiet loglevel=4 panic=-1" \
    </dev/null >"$out/console.log" 2>&1 || code=$?
  echo "$version: qemu exit code $code after $(($(date +%s) - began))s" \
    "(1: all passed, 3: a scenario failed, 124: timeout)"
  "$cache/bin/s7s-decode" "$out/ttyS1.bin" >"$out/s7s.txt" 2>&1 || true
  cat "$out/report.txt" "$out/s7s.txt" 2>/dev/null | tr -d '\r' | grep -E '^(PASS|FAIL) ' \
    >"$out/results.txt" || true
  sed -n 's/^TABLE //p' "$out/report.txt" 2>/dev/null | tr -d '\r' >"$out/ht16k33.txt" || true
  local ok=yes name
  [ "$code" -eq 1 ] || ok=no
  grep -q '^FAIL ' "$out/results.txt" && ok=no
  grep -q '^VIOLATION' "$out/s7s.txt" && ok=no
  for name in "${scenarios[@]}"; do
    grep -q -E "^(PASS|FAIL) $name(:|$)" "$out/results.txt" || {
      echo "FAIL $name: not reported (the guest stopped early?)" >>"$out/results.txt"
      ok=no
    }
  done
  if [ "$ok" = no ]; then
    echo "---- $version: guest console ($out/console.log)"
    cat "$out/console.log"
    echo "---- $version: report port ($out/report.txt)"
    cat "$out/report.txt" 2>/dev/null
    echo "---- $version: S7S capture decoded on the host ($out/ttyS1.bin)"
    cat "$out/s7s.txt"
    od -A d -t x1 "$out/ttyS1.bin" | head -n 60
    echo "---- end of $version diagnostics"
    return 1
  fi
}

summary() {
  local name version result
  printf '\n%-36s' scenario
  for version in "${versions[@]}"; do printf ' %-6s' "$version"; done
  printf '\n'
  for name in "${scenarios[@]}"; do
    printf '%-36s' "$name"
    for version in "${versions[@]}"; do
      result=$(grep -E "^(PASS|FAIL) $name(:|$)" "$cache/run/$version/results.txt" | head -n 1 |
        cut -d' ' -f1)
      printf ' %-6s' "${result:-FAIL}"
    done
    printf '\n'
  done
  for version in "${versions[@]}"; do
    sed -n "s/^FAIL /  $version: /p" "$cache/run/$version/results.txt"
  done
  for version in "${versions[@]}"; do
    printf '\nHT16K33 RAM read back from i2c-stub in the guest (%s):\n' "$version"
    sed 's/^/  /' "$cache/run/$version/ht16k33.txt"
  done
}

phase "host packages"
host_packages qemu-system-x86 busybox-static cpio xz-utils gcc make libc6-dev binutils gpiod \
  libgpiod-dev pkg-config libmosquitto-dev mosquitto mosquitto-clients
mkdir -p "$cache"
phase "kernel from $suite"
fetch_kernel
echo "kernel $kver in $kdir"
phase "gpio-sim for $kver"
build_gpio_sim
build_helpers
status=0
for version in "${versions[@]}"; do
  case "$version" in v1 | v2) ;; *) fail "unknown libgpiod version '$version' (v1 or v2)" ;; esac
  phase "scoreboardd against libgpiod $version"
  build_daemon "$version"
  phase "initramfs ($version)"
  pack_initramfs "$version"
  phase "boot ($version)"
  boot "$version" || status=1
done
summary
phase "done: $([ "$status" -eq 0 ] && echo PASS || echo FAIL)"
exit "$status"
