#!/usr/bin/env bash
# Runs the whole of `make test` (warnings as errors, the format lint where the toolchain
# has `swift format`, every test) inside a Debian trixie root, with trixie's own Swift
# (swiftlang 6.0.3) and libgpiod 2.2.1: the stack Raspberry Pi OS trixie ships.
# The root is scripts/trixie-root.sh's, in the cache folder, made once and reused.
#
#   scripts/test-trixie.sh [ARGUMENTS FOR make test]
#   scripts/test-trixie.sh --prepare     only make the root (if it is missing or stale)
#   scripts/test-trixie.sh --run COMMAND [ARGUMENTS]
#                                        run COMMAND in the clone inside the root instead
#
# Needs root (debootstrap, mount, chroot).
#
# Environment:
#   SCOREBOARDD_CACHE          cache folder (default: ~/.cache/scoreboardd)
#   SCOREBOARDD_DEBIAN_MIRROR  Debian mirror URI (default: http://deb.debian.org/debian)
set -euo pipefail
cd "$(dirname "$0")/.."
readonly trixie_name=test-trixie.sh
# shellcheck source=scripts/trixie-root.sh
. scripts/trixie-root.sh

trixie_root_prepare
[ "${1:-}" = --prepare ] && exit 0

started=$SECONDS
trixie_root_enter
swift_version=$(in_root "$root" swift --version 2>&1 | head -n 1)
gpiod_version=$(in_root "$root" pkg-config --modversion libgpiod)
echo "Testing in Debian $suite with $swift_version and libgpiod $gpiod_version"

# `swift format` ships with some toolchains only; where it is missing, everything but
# the format lint runs.
lint=yes
if ! in_root "$root" swift format --version >/dev/null 2>&1; then
  lint=no
  echo "This toolchain has no swift format: the format lint is left to the host's make test"
fi

if [ "${1:-}" = --run ]; then
  shift
  in_root "$root" env -C "$inside" "$@"
  exit
fi

status=0
in_root "$root" make -C "$inside" --no-print-directory test LINT="$lint" "$@" || status=$?
echo "Debian $suite, $swift_version, libgpiod $gpiod_version:" \
  "make test $([ "$status" = 0 ] && echo passed || echo "failed ($status)")" \
  "in $((SECONDS - started)) s"
exit "$status"
