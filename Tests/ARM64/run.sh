#!/usr/bin/env bash
# make test-arm64: the user journey on an emulated Raspberry Pi. The arm64 package (made
# by scripts/deb.sh, as make deb does), and a second build of it with a higher version,
# are installed with apt in a Debian trixie arm64 system booted by qemu-system-aarch64
# (machine virt, TCG) with systemd as PID 1 (Tests/ARM64/image.sh makes the disk image,
# Tests/ARM64/vm.sh boots it). There Tests/ARM64/guest/run configures real kernel
# devices and runs the scenarios against the service under systemd; the bytes of the
# S7S display on the guest's PL011 UART reach a file here and are decoded here
# (Tests/HIL/src/s7s-decode.c). The web scenarios reach the service's web server with
# curl in the guest: its pages and JSON, pairing a device with the code the S7S shows,
# commands from it, the service without the network drop-in, and port 80 with and
# without the web-port-80.conf drop-in. In the MQTT scenarios that S7S is a mirror
# board's: a second service following the packaged one through Debian's mosquitto in
# the guest. One PASS/FAIL line per scenario; on a failure, the guest's journal and the
# decoded capture.
#
# Environment:
#   SCOREBOARDD_CACHE          cache folder (default: ~/.cache/scoreboardd); this test
#                              uses $SCOREBOARDD_CACHE/arm64
#   SCOREBOARDD_DEBIAN_MIRROR  Debian mirror URI (default: http://deb.debian.org/debian)
#   SCOREBOARDD_ARM64_TIMEOUT  seconds the boot may take, all scenarios included
#                              (default: 900)
set -euo pipefail
cd "$(dirname "$0")/../.."
readonly here=Tests/ARM64
readonly cache_root="${SCOREBOARDD_CACHE:-${HOME:?}/.cache/scoreboardd}"
readonly work="$cache_root/arm64/run"
readonly boot_timeout="${SCOREBOARDD_ARM64_TIMEOUT:-900}"
test_start=$(date +%s)

phase() { echo "=== test-arm64 $(($(date +%s) - test_start))s: $*"; }
fail() {
  echo "test-arm64: $*" >&2
  exit 1
}

# Every scenario the guest reports, and every checkpoint the host decodes: a name
# missing from a run is a failure too.
readonly scenarios=(
  apt-install
  installed-files
  web-installed
  binary-is-arm64
  user-and-groups
  gpio-chip-group
  first-install-service-running
  check-config
  service-configured
  keypad-types-score
  s7s-shows-typed-score
  gpio-button-press
  gpio-button-long-press
  s7s-shows-button-points
  gpio-display-lines-requested
  gpio-display-idle-levels
  reload-good-file
  s7s-reload-moved-fields
  reload-bad-file
  kill-9-restart
  s7s-after-kill-9-restart
  state-file-boot-id
  scoreboardctl-group-member
  scoreboardctl-refused-others
  stop-inactive
  s7s-stop-final-frame
  stop-lines-released
  upgrade-version
  upgrade-kept-configuration
  upgrade-restarted
  upgrade-kept-scores
  s7s-after-upgrade
  web-without-network-drop-in
  web-board-page
  s7s-shows-pairing-code
  web-pair-and-command
  s7s-shows-web-command
  web-paired-across-restart
  web-port-80-without-drop-in
  web-port-80
  web-unpair
  s7s-after-web
  mqtt-broker-service
  mqtt-master-publishes
  service-scheduling
  mirror-service-live
  s7s-mirror-shows-master
  mirror-follows-keypad
  s7s-mirror-follows-keypad
  mirror-stale-master-stopped
  s7s-mirror-stale-dashes
  mirror-live-master-started
  s7s-mirror-live-again
  purge-removed
  purge-lines-released
)

[ "$(id -u)" = 0 ] || fail "needs root (the packages are built in a chroot, the image with debootstrap)"
missing=()
for package in gcc-aarch64-linux-gnu libc6-dev-arm64-cross gcc libc6-dev; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' ||
    missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" ||
    { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
      --no-install-recommends "${missing[@]}"; }
fi

phase "the arm64 package, and a second build of it with a higher version"
version=$(dpkg-parsechangelog -l debian/changelog -S Version 2>/dev/null ||
  sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)
rm -rf "$work"
mkdir -p "$work/payload/first" "$work/payload/second" "$work/payload/conf" "$work/payload/bin"
bash scripts/deb.sh --arch arm64 --no-lintian --out "$work/payload/first"
bash scripts/deb.sh --arch arm64 --no-lintian --version "$version+upgrade1" --out "$work/payload/second"
# Only the packages go into the guest.
find "$work/payload/first" "$work/payload/second" -type f ! -name 'scoreboardd_*.deb' -delete

phase "the arm64 trixie system"
image=$(bash "$here/image.sh" | tail -n 1)
[ -f "$image/base.img" ] || fail "Tests/ARM64/image.sh made no image in '$image'"

phase "helpers"
for helper in uinput-kbd sim-pull; do
  aarch64-linux-gnu-gcc -O2 -static -Wall -Wextra -Werror -o "$work/payload/bin/$helper" \
    "Tests/HIL/src/$helper.c"
done
gcc -O2 -Wall -Wextra -Werror -o "$work/s7s-decode" Tests/HIL/src/s7s-decode.c
install -m 0755 "$here/guest/run" "$work/payload/run"
cp "$here"/configs/*.conf "$work/payload/conf/"

phase "boot (timeout ${boot_timeout} s)"
# shellcheck source=Tests/ARM64/vm.sh
. "$here/vm.sh"
out="$work/out"
mkdir -p "$out"
code=0
arm64_boot "$image" "$work/payload" "$out" "$boot_timeout" || code=$?
echo "qemu exit code $code (0: the guest powered off, 124: timeout)"

"$work/s7s-decode" "$out/ttyAMA0.bin" >"$out/s7s.txt" 2>&1 || true
cat "$out/report.txt" "$out/s7s.txt" 2>/dev/null | tr -d '\r' | grep -E '^(PASS|FAIL) ' \
  >"$out/results.txt" || true
ok=yes
[ "$code" -eq 0 ] || ok=no
grep -q '^DONE ' "$out/report.txt" 2>/dev/null || {
  echo "FAIL guest-finished: the guest did not finish its scenarios" >>"$out/results.txt"
  ok=no
}
grep -q '^FAIL ' "$out/results.txt" && ok=no
grep -q '^VIOLATION' "$out/s7s.txt" && ok=no
for name in "${scenarios[@]}"; do
  grep -q -E "^(PASS|FAIL) $name(:|$)" "$out/results.txt" || {
    echo "FAIL $name: not reported (the guest stopped early?)" >>"$out/results.txt"
    ok=no
  }
done

if [ "$ok" = no ]; then
  echo "---- guest console and journal ($out/console.log)"
  cat "$out/console.log"
  echo "---- report port ($out/report.txt)"
  cat "$out/report.txt" 2>/dev/null
  echo "---- S7S capture decoded on the host ($out/ttyAMA0.bin)"
  cat "$out/s7s.txt"
  od -A d -t x1 "$out/ttyAMA0.bin" | head -n 60
  echo "---- end of diagnostics"
fi

printf '\n%-36s %s\n' scenario arm64
for name in "${scenarios[@]}"; do
  result=$(grep -E "^(PASS|FAIL) $name(:|$)" "$out/results.txt" | head -n 1 | cut -d' ' -f1)
  printf '%-36s %s\n' "$name" "${result:-FAIL}"
done
sed -n 's/^FAIL /  /p' "$out/results.txt"
grep -h -E '^(DONE|BOOTED)' "$out/report.txt" 2>/dev/null || true
phase "done: $([ "$ok" = yes ] && echo PASS || echo FAIL)"
[ "$ok" = yes ]
