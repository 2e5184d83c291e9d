#!/usr/bin/env bash
# make deb: the Debian packages of scoreboardd for Debian and Raspberry Pi OS trixie,
# arm64 and amd64, built on an x86_64 machine in scripts/trixie-root.sh's trixie root
# with trixie's own swiftlang 6.0.3: natively for amd64, and cross-compiled for arm64
# (dpkg-buildpackage -a arm64, against the root's arm64 libraries and the arm64 Swift
# runtime, with the Swift SDK the root holds). Each package is then checked by lintian,
# which must report no error and no warning. The packages, with their debug symbols
# (-dbgsym .ddeb) and build records, land in one folder, printed on the last line.
#
#   scripts/deb.sh [--arch ARCH]... [--version VERSION] [--out DIR] [--no-lintian]
#     --arch ARCH        amd64 or arm64; may be repeated (default: both)
#     --version VERSION  the package's version instead of debian/changelog's (the
#                        upgrade test of make test-arm64 builds a higher one)
#     --out DIR          the output folder (default: dist in the clone)
#     --no-lintian       leave lintian out
#
# Needs root (the trixie root is entered with chroot).
#
# Environment: as scripts/trixie-root.sh (SCOREBOARDD_CACHE, SCOREBOARDD_DEBIAN_MIRROR).
set -euo pipefail
cd "$(dirname "$0")/.."
readonly trixie_name=deb.sh
# shellcheck source=scripts/trixie-root.sh
. scripts/trixie-root.sh

arches=()
version=""
out=dist
run_lintian=yes
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) arches+=("${2:?--arch needs amd64 or arm64}"); shift 2 ;;
    --version) version=${2:?--version needs a version}; shift 2 ;;
    --out) out=${2:?--out needs a folder}; shift 2 ;;
    --no-lintian) run_lintian=no; shift ;;
    *) fail "unknown argument '$1' (see the comment at the top of scripts/deb.sh)" ;;
  esac
done
[ ${#arches[@]} -gt 0 ] || arches=(arm64 amd64)
for arch in "${arches[@]}"; do
  case "$arch" in
    amd64 | arm64) ;;
    armhf | armel) fail "no $arch package: Debian has no Swift for 32-bit ARM; build from source there (README)" ;;
    *) fail "unknown architecture '$arch' (amd64 or arm64)" ;;
  esac
done
[ "$(uname -m)" = x86_64 ] || fail "builds on x86_64 machines only (the root is amd64)"

trixie_root_prepare
trixie_root_enter
mkdir -p "$out"
out=$(realpath "$out")

# dpkg-buildpackage writes its results beside the source folder: in the root's /.
results() { # ARCH: the results of a build for ARCH in the root's /
  find "$root" -maxdepth 1 -name "scoreboardd*_$1.*" \( -name '*.deb' -o -name '*.ddeb' \
    -o -name '*.buildinfo' -o -name '*.changes' \)
}

for arch in "${arches[@]}"; do
  started=$SECONDS
  echo "=== deb.sh: scoreboardd for $arch${version:+, version $version}"
  results "$arch" | xargs -r rm -f
  rm -f "$out"/scoreboardd*_"$arch".*
  # A cross build cannot run what it built: the profiles cross and nocheck say so.
  cross=()
  # shellcheck disable=SC2054 # one option: the profiles cross and nocheck
  [ "$arch" = amd64 ] || cross=(-Pcross,nocheck)
  in_root "$root" env -C "$inside" SCOREBOARDD_SWIFT_SDKS="$swift_sdks" \
    ${version:+SCOREBOARDD_PACKAGE_VERSION="$version"} \
    ${cross[0]:+DEB_BUILD_OPTIONS=nocheck} \
    dpkg-buildpackage -b -a"$arch" "${cross[@]}" --no-sign \
    || fail "dpkg-buildpackage for $arch failed"
  results "$arch" | xargs -r mv -t "$out"
  echo "=== deb.sh: $arch built in $((SECONDS - started)) s"
done

status=0
if [ "$run_lintian" = yes ]; then
  mkdir -p "$root/lintian"
  mount_on --bind "$out" "$root/lintian"
  for arch in "${arches[@]}"; do
    for deb in "$out"/scoreboardd_*_"$arch".deb; do
      echo "=== deb.sh: lintian ${deb##*/}"
      # (as nobody: lintian unpacks what it checks, and should not do that as root)
      in_root "$root" setpriv --reuid=nobody --regid=nogroup --clear-groups \
        env HOME=/tmp lintian --fail-on error,warning --display-info --tag-display-limit 0 \
        "/lintian/${deb##*/}" || status=1
    done
  done
  [ "$status" = 0 ] && echo "lintian: no errors, no warnings"
fi

echo "=== deb.sh: packages"
for deb in "$out"/scoreboardd_*.deb; do
  echo "${deb##*/}: $(du -k "$deb" | cut -f1) kB"
  depends=$(dpkg-deb -f "$deb" Depends)
  echo "  Depends: $depends"
  echo "  Recommends: $(dpkg-deb -f "$deb" Recommends)"
  # libmosquitto (and OpenSSL with it) is loaded only by a board with [mqtt], and
  # libmicrohttpd (and GnuTLS with it) only by one with [web]: a
  # recommendation, never a dependency (a link to it would make dpkg-shlibdeps add one).
  case "$depends" in
    *libmosquitto*) fail "${deb##*/}: Depends names libmosquitto; it must only be recommended" ;;
    *libmicrohttpd*) fail "${deb##*/}: Depends names libmicrohttpd; it must only be recommended" ;;
  esac
  contents=$(dpkg-deb -c "$deb")
  grep -q '/usr/share/scoreboardd/web/board.html$' <<<"$contents" ||
    fail "${deb##*/}: the web pages are missing from /usr/share/scoreboardd/web"
  grep -q '/usr/share/scoreboardd/web/console.html$' <<<"$contents" ||
    fail "${deb##*/}: the web console is missing from /usr/share/scoreboardd/web"
  grep -q '/usr/share/scoreboardd/web-port-80.conf$' <<<"$contents" ||
    fail "${deb##*/}: the port 80 drop-in is missing from /usr/share/scoreboardd"
  dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/sbin/scoreboardd >"$root/tmp/scoreboardd.packaged"
  echo "  /usr/sbin/scoreboardd: $(in_root "$root" file -b /tmp/scoreboardd.packaged)"
  rm -f "$root/tmp/scoreboardd.packaged"
done
[ "$status" = 0 ] || fail "lintian found errors or warnings"
echo "$out"
