#!/usr/bin/env bash
# Runs the whole of `make test` (warnings as errors, the format lint where the toolchain
# has `swift format`, every test) inside a Debian trixie root, with trixie's own Swift
# (swiftlang 6.0.3), libgpiod 2.2.1 and libinih: the stack Raspberry Pi OS trixie ships.
#
# The root is made once with `debootstrap --variant=minbase` in the cache folder, outside
# the clone, and reused; it is made anew when the list of packages below changes (a stamp
# of the list lies beside it). The clone is bind-mounted on /scoreboardd in the root, and
# its .build there is a folder of the cache, so the trixie build never mixes with the
# host's .build. Every mount is undone when the run ends, fails or is interrupted, and a
# root is never deleted while anything is still mounted below it.
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
# shellcheck disable=SC2317  # the clean-up functions are called from a trap
set -euo pipefail
cd "$(dirname "$0")/.."

readonly suite=trixie
readonly cache="${SCOREBOARDD_CACHE:-${HOME:?}/.cache/scoreboardd}"
readonly root="$cache/trixie-root"
readonly stamp="$cache/trixie-root.packages"
readonly build="$cache/trixie-build"
readonly mirror="${SCOREBOARDD_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
# Where the clone appears inside the root.
readonly inside=/scoreboardd
# What `make test` needs in the root. libc6-dev must be named: it is only a Recommends of
# gcc, and without it linking fails on Scrt1.o. systemd, procps (/bin/kill) and man-db
# for the unit checks, groff-base for the man pages, python3 and util-linux (setpriv) for
# the integration tests.
readonly packages=(
  swiftlang libgpiod-dev libinih-dev pkg-config make git libc6-dev libstdc++-14-dev
  systemd procps man-db groff-base python3 util-linux
)

fail() {
  echo "test-trixie.sh: $*" >&2
  exit 1
}

[ "$(id -u)" = 0 ] || fail "needs root (debootstrap, mount and chroot)"
if ! command -v debootstrap >/dev/null 2>&1; then
  echo "Installing: debootstrap"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap \
    || fail "debootstrap is missing and could not be installed (apt-get install debootstrap)"
fi
for tool in debootstrap chroot mount umount setsid; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool is missing (Debian: apt-get install debootstrap)"
done

# The mount points this run made, in the order it made them.
mounted=()
# The process group of the command running in the root, while it runs.
child=""

# Prints the mount points at or below the folder $1, deepest first.
mounts_below() {
  local dir
  dir=$(realpath -m "$1")
  local point
  while read -r _ point _; do
    point=$(printf '%b' "$point")  # /proc/mounts writes a space as \040
    case "$point" in
      "$dir" | "$dir"/*) printf '%s\n' "$point" ;;
    esac
  done </proc/mounts | sort -r
}

# Unmounts everything this run mounted, and anything left mounted below the folders it
# mounted on (a test's tmpfs, debootstrap's /proc), deepest first.
unmount_all() {
  local i point
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    while read -r point; do
      [ -n "$point" ] || continue
      umount "$point" 2>/dev/null || umount -l "$point" || echo "test-trixie.sh: cannot unmount $point" >&2
    done < <(mounts_below "${mounted[i]}")
  done
  mounted=()
}

# Deletes the folder $1, but never while something is mounted below it.
remove_root() {
  [ -e "$1" ] || return 0
  local left
  left=$(mounts_below "$1")
  [ -z "$left" ] || fail "not deleting $1: still mounted below it:"$'\n'"$left"
  rm -rf --one-file-system "$1"
}

# Mounts with mount's arguments "$@" on the folder given last, and records it.
mount_on() {
  local point=${*: -1}
  mount "$@"
  mounted+=("$point")
}

# Prints the processes whose root folder is $1: what runs in the root, whichever process
# group or session it has made for itself (a test binary, the daemons tests start).
processes_in() {
  local dir process
  dir=$(realpath -m "$1")
  for process in /proc/[0-9]*; do
    [ "$(readlink "$process/root" 2>/dev/null)" = "$dir" ] && echo "${process#/proc/}"
  done
  return 0
}

# Stops every process in the root folder $1, so that its mounts can go: TERM, and KILL
# to what is left 10 s later.
stop_processes_in() {
  local left tries=0
  left=$(processes_in "$1")
  [ -n "$left" ] || return 0
  # shellcheck disable=SC2086  # one process ID a word
  kill -TERM $left 2>/dev/null || true
  while [ -n "$left" ] && [ "$tries" -lt 100 ]; do
    sleep 0.1
    tries=$((tries + 1))
    left=$(processes_in "$1")
  done
  # shellcheck disable=SC2086
  [ -z "$left" ] || kill -KILL $left 2>/dev/null || true
}

cleanup() {
  local status=$?
  if [ -n "$child" ]; then
    kill -TERM -- "-$child" 2>/dev/null || true
    wait "$child" 2>/dev/null || true
    child=""
  fi
  stop_processes_in "$root"
  stop_processes_in "$root.new"
  unmount_all
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Mounts /proc, /dev, /dev/pts and /dev/shm in the root folder $1.
mount_system() {
  mkdir -p "$1/proc" "$1/dev" "$1/dev/pts"
  mount_on -t proc proc "$1/proc"
  mount_on --bind /dev "$1/dev"
  mount_on --bind /dev/pts "$1/dev/pts"
  if [ -d /dev/shm ] && [ -d "$1/dev/shm" ]; then
    mount_on --bind /dev/shm "$1/dev/shm"
  fi
}

# Runs "$@" in the root folder $1 with a clean environment, in a process group of its own
# (so that an interrupted run can stop all of it), and returns its status.
in_root() {
  local dir=$1
  shift
  setsid env -i HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" CI="${CI:-}" \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    chroot "$dir" "$@" &
  child=$!
  local status=0
  wait "$child" || status=$?
  child=""
  return "$status"
}

# The stamp: what the root was made from.
wanted_stamp() {
  printf 'suite %s\nmirror %s\npackages %s\n' "$suite" "$mirror" "${packages[*]}"
}

# Makes the root in $root.new, installs the packages and then puts it in place of $root.
make_root() {
  local new="$root.new" started=$SECONDS
  remove_root "$new"
  remove_root "$root"
  rm -f "$stamp"
  mkdir -p "$cache"
  echo "Making a Debian $suite root in $root from $mirror"
  mounted+=("$new")  # so that debootstrap's own mounts go too if it is interrupted
  debootstrap --variant=minbase "$suite" "$new" "$mirror" >"$cache/trixie-debootstrap.log" 2>&1 \
    || fail "debootstrap failed; see $cache/trixie-debootstrap.log"
  mount_system "$new"
  in_root "$new" apt-get -q update
  in_root "$new" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
    --no-install-recommends "${packages[@]}" >"$cache/trixie-apt.log" 2>&1 \
    || fail "apt-get install in the root failed; see $cache/trixie-apt.log"
  in_root "$new" apt-get clean
  unmount_all
  mv "$new" "$root"
  wanted_stamp >"$stamp"
  echo "Made the root in $((SECONDS - started)) s"
}

if [ ! -d "$root" ] || ! cmp -s "$stamp" <(wanted_stamp); then
  make_root
fi
[ "${1:-}" = --prepare ] && exit 0

started=$SECONDS
mkdir -p "$root$inside" "$build" .build
mount_system "$root"
mount_on --bind "$PWD" "$root$inside"
mount_on --bind "$build" "$root$inside/.build"

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
