#!/usr/bin/env bash
# Builds scoreboardd against libgpiod 2.x and runs every test: the v2 half of the GPIO shim,
# on a machine whose system libgpiod is 1.6 (Debian and Raspberry Pi OS bookworm).
#
# libgpiod-dev and libgpiod3 come from bookworm-backports through a private apt
# configuration (its own sources list, lists, cache and status under the cache folder);
# the host's apt sources and installed packages stay untouched. They are unpacked with
# dpkg -x, and a copy of libgpiod.pc whose prefix points at them steers the build. The
# download is reused on later runs.
#
#   scripts/libgpiod2.sh [ARGUMENTS FOR swift test]
#   scripts/libgpiod2.sh --prepare        only download and unpack; print the folder of
#                                         the rewritten libgpiod.pc (for Tests/HIL)
#   scripts/libgpiod2.sh --apt-config DIR write a private apt configuration for
#                                         bookworm-backports into DIR (for Tests/HIL)
#                                         and print the path of its apt.conf
#
# Environment:
#   SCOREBOARDD_CACHE          cache folder (default: ~/.cache/scoreboardd)
#   SCOREBOARDD_DEBIAN_MIRROR  Debian mirror URI (default: the one the host's apt uses)
#   SWIFT                      the swift driver (default: swift)
set -euo pipefail
cd "$(dirname "$0")/.."

readonly suite=bookworm-backports
readonly cache="${SCOREBOARDD_CACHE:-${HOME:?}/.cache/scoreboardd}/libgpiod2"
readonly root="$cache/root"
readonly pkgconfig="$cache/pkgconfig"
readonly scratch=.build/gpiod2
swift="${SWIFT:-swift}"

fail() {
  echo "libgpiod2.sh: $*" >&2
  exit 1
}

# Prints "URI<TAB>keyring" of the host's Debian archive: the first apt source (one-line
# .list or deb822 .sources) whose suites include the host's release codename, preferring
# a URI ending in /debian. The keyring is the source's signed-by file, or empty.
host_debian_source() {
  local codename
  # shellcheck disable=SC1091
  codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
  [ -n "$codename" ] || fail "/etc/os-release names no VERSION_CODENAME"
  local files=()
  [ -f /etc/apt/sources.list ] && files+=(/etc/apt/sources.list)
  local file
  for file in /etc/apt/sources.list.d/*; do
    case "$file" in
      *.list | *.sources) [ -f "$file" ] && files+=("$file") ;;
    esac
  done
  [ ${#files[@]} -gt 0 ] || fail "no apt sources in /etc/apt"
  local candidates=""
  for file in "${files[@]}"; do
    case "$file" in
      *.sources)
        candidates+=$(awk -v codename="$codename" '
          BEGIN { RS = ""; FS = "\n" }
          {
            types = ""; uris = ""; suites = ""; keyring = ""; enabled = "yes"
            for (i = 1; i <= NF; i++) {
              if ($i ~ /^[ \t]*#/ || !match($i, /^[A-Za-z-]+:/)) continue
              key = tolower(substr($i, 1, RLENGTH - 1))
              value = substr($i, RLENGTH + 1)
              gsub(/^[ \t]+|[ \t]+$/, "", value)
              if (key == "types") types = value
              else if (key == "uris") uris = value
              else if (key == "suites") suites = value
              else if (key == "signed-by") keyring = value
              else if (key == "enabled") enabled = tolower(value)
            }
            if (enabled == "no" || (" " types " ") !~ / deb / ||
                (" " suites " ") !~ (" " codename " ")) next
            if (keyring !~ /^\//) keyring = ""
            n = split(uris, list, " ")
            for (i = 1; i <= n; i++) print list[i] "\t" keyring
          }' "$file")$'\n'
        ;;
      *)
        candidates+=$(awk -v codename="$codename" '
          $1 != "deb" { next }
          {
            i = 2; keyring = ""
            if ($i ~ /^\[/) {
              while (1) {
                if (match($i, /signed-by=[^] ]+/)) keyring = substr($i, RSTART + 10, RLENGTH - 10)
                if ($i ~ /\]$/) break
                i++
              }
              i++
            }
            if ($(i + 1) == codename) print $i "\t" keyring
          }' "$file")$'\n'
        ;;
    esac
  done
  local preferred
  preferred=$(printf '%s' "$candidates" | grep -E '^[^[:space:]]+/debian/?'$'\t' | head -n 1 || true)
  [ -n "$preferred" ] || preferred=$(printf '%s' "$candidates" | grep -v '^$' | head -n 1 || true)
  [ -n "$preferred" ] || fail "no apt source in /etc/apt serves '$codename';" \
    "set SCOREBOARDD_DEBIAN_MIRROR to a Debian mirror URI"
  printf '%s\n' "$preferred"
}

# The Debian mirror the downloads come from, as "URI<TAB>keyring".
debian_source() {
  if [ -n "${SCOREBOARDD_DEBIAN_MIRROR:-}" ]; then
    local keyring=/usr/share/keyrings/debian-archive-keyring.gpg
    [ -f "$keyring" ] || keyring=""
    printf '%s\t%s\n' "$SCOREBOARDD_DEBIAN_MIRROR" "$keyring"
  else
    host_debian_source
  fi
}

# Writes a private apt configuration for $suite into the folder $1 (its own sources
# list, lists, cache and status) and sets mirror to the mirror it uses.
write_apt_config() {
  local apt=$1 source keyring options=""
  source=$(debian_source)
  mirror=${source%%$'\t'*}
  keyring=${source#*$'\t'}
  mkdir -p "$apt/sources.list.d" "$apt/preferences.d" "$apt/lists/partial" \
    "$apt/archives/partial"
  : >"$apt/status"
  [ -n "$keyring" ] && options="[signed-by=$keyring] "
  echo "deb $options$mirror $suite main" >"$apt/sources.list"
  cat >"$apt/apt.conf" <<EOF
Dir::Etc::SourceList "$apt/sources.list";
Dir::Etc::SourceParts "$apt/sources.list.d";
Dir::Etc::PreferencesParts "$apt/preferences.d";
Dir::State::Lists "$apt/lists";
Dir::State::status "$apt/status";
Dir::Cache "$apt";
Dir::Cache::Archives "$apt/archives";
APT::Sandbox::User "root";
Acquire::Languages "none";
EOF
}

# Downloads libgpiod-dev and libgpiod3 from bookworm-backports into $cache/debs.
download() {
  local apt="$cache/apt" mirror
  write_apt_config "$apt"
  mkdir -p "$cache/debs"
  echo "Downloading libgpiod 2 from $mirror $suite into $cache"
  APT_CONFIG="$apt/apt.conf" apt-get -q update \
    || fail "apt-get update of $mirror $suite failed;" \
      "set SCOREBOARDD_DEBIAN_MIRROR to a Debian mirror that carries $suite"
  rm -f "$cache"/debs/*.deb
  (cd "$cache/debs" && APT_CONFIG="$apt/apt.conf" apt-get -q download \
    "libgpiod-dev/$suite" "libgpiod3/$suite")
}

# Unpacks the packages into $root and writes $pkgconfig/libgpiod.pc pointing at them.
unpack() {
  rm -rf "$root" "$pkgconfig"
  local deb
  for deb in "$cache"/debs/*.deb; do
    dpkg -x "$deb" "$root"
  done
  local shipped
  shipped=$(find "$root" -name libgpiod.pc -print -quit)
  [ -n "$shipped" ] || fail "libgpiod-dev has no libgpiod.pc"
  mkdir -p "$pkgconfig"
  # As shipped it says prefix=/usr: pkg-config would then find the host's 1.6 header and
  # library, and the build would silently be a v1 build.
  sed -e "s|^prefix=.*|prefix=$root/usr|" "$shipped" >"$pkgconfig/libgpiod.pc.new"
  mv "$pkgconfig/libgpiod.pc.new" "$pkgconfig/libgpiod.pc"
}

if [ "${1:-}" = --apt-config ]; then
  write_apt_config "${2:?--apt-config needs a folder}"
  echo "$2/apt.conf"
  exit 0
fi

export PKG_CONFIG_PATH="$pkgconfig"
if [ ! -f "$pkgconfig/libgpiod.pc" ]; then
  ls "$cache"/debs/libgpiod3_*.deb "$cache"/debs/libgpiod-dev_*.deb >/dev/null 2>&1 || download
  unpack
fi
# SwiftPM reads .pc files itself and keeps a -L of the system's library folder: a target
# linking a library whose .pc has one before libgpiod would find the system's libgpiod
# 1.6 there first. libmosquitto's has one (Debian's says /usr/lib, which holds no
# libgpiod today, but a multiarch libdir would be the folder of libgpiod 1.6). A copy of
# libmosquitto.pc without that -L, beside the rewritten libgpiod.pc, keeps the unpacked
# libgpiod 2 first for every product; the linker still finds libmosquitto in its own
# default folders.
for module in libmosquitto; do
  system_pc=$(PKG_CONFIG_PATH='' pkg-config --variable=pcfiledir "$module")/$module.pc
  # shellcheck disable=SC2016 # ${libdir} is the .pc file's own variable
  sed -e 's|^Libs: -L${libdir} |Libs: |' "$system_pc" >"$pkgconfig/$module.pc.new"
  mv "$pkgconfig/$module.pc.new" "$pkgconfig/$module.pc"
done
version=$(pkg-config --modversion libgpiod)
libdir=$(pkg-config --variable=libdir libgpiod)
case "$version" in
  2.*) ;;
  *) fail "$pkgconfig/libgpiod.pc is libgpiod $version, not 2.x" ;;
esac
case "$libdir" in
  "$root"/*) ;;
  *) fail "$pkgconfig/libgpiod.pc points at $libdir, outside $root" ;;
esac
[ -e "$libdir/libgpiod.so.3" ] || fail "$libdir has no libgpiod.so.3"
if [ "${1:-}" = --prepare ]; then
  echo "$pkgconfig"
  exit 0
fi
echo "Building against libgpiod $version in $libdir"

# SCOREBOARDD_LIBGPIOD_V2 makes the tests insist on a v2 build.
flags=(
  --scratch-path "$scratch"
  -Xswiftc -warnings-as-errors
  -Xswiftc -DSCOREBOARDD_LIBGPIOD_V2
  -Xlinker -rpath -Xlinker "$libdir"
)
"$swift" build --build-tests "${flags[@]}"

# The test binary must load libgpiod.so.3 from the unpacked packages, not the host's 1.6.
tests="$("$swift" build "${flags[@]}" --show-bin-path)/scoreboarddPackageTests.xctest"
linked=$(ldd "$tests" | grep -E 'libgpiod\.so' || true)
echo "$(basename "$tests") links:${linked}"
case "$linked" in
  *"libgpiod.so.3 => $libdir/libgpiod.so.3"*) ;;
  *) fail "$tests does not load $libdir/libgpiod.so.3" ;;
esac
case "$linked" in
  *libgpiod.so.2*) fail "$tests also loads libgpiod.so.2 (libgpiod 1.6)" ;;
esac

"$swift" test "${flags[@]}" "$@"
