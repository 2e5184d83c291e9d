# shellcheck shell=bash
# A Debian trixie root made by debootstrap in the cache folder, outside the clone, for
# the scripts that build or test with trixie's own Swift (swiftlang 6.0.3) and libgpiod
# 2.2: scripts/test-trixie.sh (make test-trixie) and scripts/deb.sh (make deb).
#
# The root is made once with `debootstrap --variant=minbase` and reused; it is made anew
# when what it is made of changes (a stamp beside it lists the suite, the mirror and the
# packages). Besides the packages below it holds arm64 as a foreign architecture with the
# arm64 C libraries the programs link (multiarch, as Debian cross-builds), and the arm64
# Swift runtime from swiftlang:arm64 in /opt/swift-arm64, with a Swift SDK bundle in
# /opt/swift-sdks that cross-compiles to aarch64 with the root's own compiler.
#
# The clone is bind-mounted on /scoreboardd in the root, and its .build there is a folder
# of the cache, so that trixie builds never mix with the host's .build. Every mount is
# undone when the run ends, fails or is interrupted, and a root is never deleted while
# anything is still mounted below it. Needs root (debootstrap, mount, chroot).
#
# The sourcing script sets `trixie_name`, the word its messages begin with.
#
# Environment:
#   SCOREBOARDD_CACHE          cache folder (default: ~/.cache/scoreboardd)
#   SCOREBOARDD_DEBIAN_MIRROR  Debian mirror URI (default: http://deb.debian.org/debian)
# shellcheck disable=SC2317  # the clean-up functions are called from a trap

: "${trixie_name:?set trixie_name before sourcing scripts/trixie-root.sh}"
readonly suite=trixie
readonly cache="${SCOREBOARDD_CACHE:-${HOME:?}/.cache/scoreboardd}"
readonly root="$cache/trixie-root"
readonly stamp="$cache/trixie-root.packages"
readonly build="$cache/trixie-build"
# Downloads kept across remakes of the root (the arm64 Swift runtime is 400 MB).
readonly downloads="$cache/trixie-downloads"
readonly mirror="${SCOREBOARDD_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
# Where the clone appears inside the root.
readonly inside=/scoreboardd
# What the root holds. libc6-dev must be named: it is only a Recommends of gcc, and
# without it linking fails on Scrt1.o. systemd, procps (/bin/kill) and man-db for the
# unit checks, groff-base for the man pages, python3 and util-linux (setpriv) for the
# integration tests; build-essential (which dpkg-buildpackage requires), debhelper,
# dpkg-dev, lintian and file for the Debian packages, and binutils-aarch64-linux-gnu
# (strip and objcopy for arm64 binaries, which dh_strip runs). libmosquitto-dev for the
# MQTT client; mosquitto (the broker), mosquitto-clients (mosquitto_pub and _sub) and
# openssl (a throwaway CA for the TLS listener) for the MQTT tests, which start brokers
# of their own on loopback ports. The root starts no service: see policy-rc.d below.
readonly packages=(
  swiftlang libgpiod-dev libmosquitto-dev libmicrohttpd-dev pkg-config make git libc6-dev
  libstdc++-14-dev
  systemd procps man-db groff-base python3 util-linux mosquitto mosquitto-clients openssl
  build-essential debhelper dpkg-dev lintian file binutils-aarch64-linux-gnu
)
# The arm64 libraries the arm64 programs are linked with, installed beside the amd64
# ones (Debian multiarch); apt brings what they depend on (libmosquitto1:arm64 and its
# libssl3t64:arm64, libcares2:arm64 and so on), so that lld finds every library the
# shared ones need.
readonly arm64_packages=(
  libc6-dev:arm64 libstdc++-14-dev:arm64 libgpiod-dev:arm64
  libmosquitto-dev:arm64 libmicrohttpd-dev:arm64
)
# In the root: the arm64 Swift runtime, the SDK bundle, and the sysroot the SDK names
# (links to the root's own /usr, whose aarch64-linux-gnu folders hold the arm64
# libraries; a folder of its own, so that the compiler never takes the build folder for
# a part of the SDK).
readonly arm64_runtime=/opt/swift-arm64
readonly swift_sdks=/opt/swift-sdks
readonly arm64_sysroot=/opt/sysroot-arm64

fail() {
  echo "$trixie_name: $*" >&2
  exit 1
}

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
      umount "$point" 2>/dev/null || umount -l "$point" || echo "$trixie_name: cannot unmount $point" >&2
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
  printf 'suite %s\nmirror %s\npackages %s\narm64 %s\nsdk %s\npolicy-rc.d %s\n' "$suite" \
    "$mirror" "${packages[*]}" "${arm64_packages[*]}" "$(swift_sdk_files | cksum)" 101
}

# The Swift SDK bundle for aarch64, as "PATH<TAB>CONTENT" lines: the root's own swiftlang
# compiles and links (ld.lld, which swiftlang ships), against the arm64 runtime and the
# multiarch libraries of the root.
swift_sdk_files() {
  local bundle=$swift_sdks/trixie-arm64.artifactbundle
  printf '%s\t%s\n' "$bundle/info.json" \
    '{"schemaVersion": "1.0", "artifacts": {"trixie-arm64": {"type": "swiftSDK", "version": "1", "variants": [{"path": "sdk", "supportedTriples": ["x86_64-pc-linux-gnu", "x86_64-unknown-linux-gnu"]}]}}}'
  printf '%s\t%s\n' "$bundle/sdk/swift-sdk.json" \
    "{\"schemaVersion\": \"4.0\", \"targetTriples\": {\"aarch64-unknown-linux-gnu\": {\"sdkRootPath\": \"$arm64_sysroot\", \"swiftResourcesPath\": \"$arm64_runtime/usr/libexec/swift/lib/swift\", \"swiftStaticResourcesPath\": \"$arm64_runtime/usr/libexec/swift/lib/swift_static\", \"toolsetPaths\": [\"toolset.json\"]}}}"
  # Without SDKSettings.json in the sysroot, the Swift driver warns on every compile.
  printf '%s\t%s\n' "$arm64_sysroot/SDKSettings.json" \
    '{"Version": "13.0", "CanonicalName": "debian-trixie-arm64", "DisplayName": "Debian trixie arm64"}'
  printf '%s\t%s\n' "$bundle/sdk/toolset.json" \
    '{"schemaVersion": "1.0", "rootPath": "/usr/libexec/swift/bin", "linker": {"path": "ld.lld"}, "swiftCompiler": {"extraCLIOptions": ["-use-ld=lld"]}}'
}

# Downloads swiftlang:arm64 (the version of the root's swiftlang) into $downloads unless
# a file of the size and SHA-256 apt's signed index gives is there already, and unpacks
# its runtime into the root folder $1.
install_arm64_runtime() {
  local dir=$1 version uri name size sha256
  # shellcheck disable=SC2016 # dpkg-query's own ${Version}
  version=$(in_root "$dir" dpkg-query -W -f='${Version}' swiftlang)
  read -r uri name size sha256 < <(in_root "$dir" apt-get download --print-uris \
    "swiftlang:arm64=$version" | tr -d "'" | sed 's/SHA256://')
  [ -n "$sha256" ] || fail "apt cannot find swiftlang:arm64 $version"
  mkdir -p "$downloads"
  if ! echo "$sha256  $downloads/$name" | sha256sum --quiet -c - >/dev/null 2>&1; then
    echo "Downloading $name ($((size / 1000000)) MB) into $downloads"
    rm -f "$downloads"/swiftlang_*_arm64.deb
    mkdir -p "$dir/downloads"
    mount_on --bind "$downloads" "$dir/downloads"
    # (as root: apt's own user may not write to a folder of the cache)
    in_root "$dir" env -C /downloads apt-get -q -o APT::Sandbox::User=root download \
      "swiftlang:arm64=$version" >/dev/null \
      || fail "cannot download swiftlang:arm64 $version ($uri)"
    echo "$sha256  $downloads/$name" | sha256sum --quiet -c - || fail "$name: wrong SHA-256"
  fi
  mkdir -p "$dir$arm64_runtime"
  dpkg-deb --fsys-tarfile "$downloads/$name" | tar -x -C "$dir$arm64_runtime" \
    ./usr/libexec/swift/lib/swift ./usr/libexec/swift/lib/swift_static ./usr/libexec/swift/lib/clang
  mkdir -p "$dir$arm64_sysroot"
  ln -s /usr "$dir$arm64_sysroot/usr"
  ln -s usr/lib "$dir$arm64_sysroot/lib"
  local path content
  while IFS=$'\t' read -r path content; do
    mkdir -p "$(dirname "$dir$path")"
    printf '%s\n' "$content" >"$dir$path"
  done < <(swift_sdk_files)
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
  # No package's maintainer scripts may start a service in the root (mosquitto's would
  # start a broker on port 1883, outside any test, that keeps the root busy): invoke-rc.d
  # asks policy-rc.d, and 101 means "not allowed". It stays: the root never runs services.
  printf '#!/bin/sh\n# Debian trixie root of scoreboardd: no service starts here.\nexit 101\n' \
    >"$new/usr/sbin/policy-rc.d"
  chmod 0755 "$new/usr/sbin/policy-rc.d"
  in_root "$new" dpkg --add-architecture arm64
  in_root "$new" apt-get -q update
  in_root "$new" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
    --no-install-recommends "${packages[@]}" "${arm64_packages[@]}" >"$cache/trixie-apt.log" 2>&1 \
    || fail "apt-get install in the root failed; see $cache/trixie-apt.log"
  in_root "$new" apt-get clean
  install_arm64_runtime "$new"
  unmount_all
  mv "$new" "$root"
  wanted_stamp >"$stamp"
  echo "Made the root in $((SECONDS - started)) s"
}

# Checks for root and the tools, sets the clean-up traps and makes the root if it is
# missing or stale.
trixie_root_prepare() {
  [ "$(id -u)" = 0 ] || fail "needs root (debootstrap, mount and chroot)"
  if ! command -v debootstrap >/dev/null 2>&1; then
    echo "Installing: debootstrap"
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap; }; then
      fail "debootstrap is missing and could not be installed (apt-get install debootstrap)"
    fi
  fi
  for tool in debootstrap chroot mount umount setsid; do
    command -v "$tool" >/dev/null 2>&1 || fail "$tool is missing (Debian: apt-get install debootstrap)"
  done
  trap cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  if [ ! -d "$root" ] || ! cmp -s "$stamp" <(wanted_stamp); then
    make_root
  fi
}

# Mounts /proc, /dev and the clone with its trixie build folder in the root.
trixie_root_enter() {
  mkdir -p "$root$inside" "$build" .build
  mount_system "$root"
  mount_on --bind "$PWD" "$root$inside"
  mount_on --bind "$build" "$root$inside/.build"
}
