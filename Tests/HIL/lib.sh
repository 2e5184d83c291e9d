# shellcheck shell=bash
# What the virtual-machine tests share (sourced from the repository's top folder by
# Tests/HIL/run.sh, make test-hil, and Tests/HIL/powercut.sh, make test-powercut):
# host packages, the current bookworm-backports kernel through a private apt
# configuration, the release daemon, initramfs building blocks and the QEMU machine.
#
# The sourcing script sets `hil_name`, the word its phases and failures begin with.
#
# Environment:
#   SCOREBOARDD_CACHE          cache folder (default: ~/.cache/scoreboardd); the VM
#                              tests use $SCOREBOARDD_CACHE/hil
#   SCOREBOARDD_DEBIAN_MIRROR  Debian mirror URI (default: the one the host's apt uses)
#   SWIFT                      the swift driver (default: swift)

: "${hil_name:?set hil_name before sourcing Tests/HIL/lib.sh}"
readonly suite=bookworm-backports
readonly cache_root="${SCOREBOARDD_CACHE:-${HOME:?}/.cache/scoreboardd}"
readonly cache="$cache_root/hil"
swift="${SWIFT:-swift}"
hil_start=$(date +%s)

phase() { echo "=== $hil_name $(($(date +%s) - hil_start))s: $*"; }
fail() {
  echo "$hil_name: $*" >&2
  exit 1
}

# ---- host packages
host_packages_needed_by="The virtual-machine tests need"
# shellcheck source=scripts/host-packages.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/host-packages.sh"

# ---- the kernel from bookworm-backports, through a private apt configuration
hil_apt() { APT_CONFIG="$apt_config" apt-get "$@"; }
hil_apt_cache() { APT_CONFIG="$apt_config" apt-cache "$@"; }

# Sets apt_config, kver (6.12.NN+deb12-amd64) and kdir (its cache folder): the kernel
# linux-image-amd64 depends on now, or, when the archive cannot be reached, the newest
# one downloaded before.
resolve_kernel() {
  apt_config=$(bash scripts/libgpiod2.sh --apt-config "$cache/apt")
  echo "apt: $suite (private configuration in $cache/apt)"
  local kpkg=""
  if hil_apt -q update >"$cache/apt-update.log" 2>&1; then
    kpkg=$(hil_apt_cache depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
  fi
  if [ -z "$kpkg" ]; then
    kver=$(find "$cache/kernel" -mindepth 1 -maxdepth 1 -printf '%f\n' 2>/dev/null | sort -V | tail -n 1)
    [ -n "$kver" ] || { cat "$cache/apt-update.log"; fail "cannot resolve linux-image-amd64 from $suite"; }
    echo "apt-get update failed; using the cached kernel $kver"
  else
    kver=${kpkg#linux-image-}
  fi
  kdir="$cache/kernel/$kver"
  mkdir -p "$kdir/debs"
}

# Downloads into $kdir/debs those of the packages (NAME or NAME=VERSION) that are not
# there yet. A download that did not finish leaves nothing behind.
kernel_debs() {
  local missing=() package
  for package in "$@"; do
    compgen -G "$kdir/debs/${package%%=*}_*.deb" >/dev/null || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return
  echo "Downloading ${missing[*]} into $kdir/debs"
  rm -rf "$kdir/debs/partial"
  mkdir -p "$kdir/debs/partial"
  (cd "$kdir/debs/partial" && hil_apt -q download "${missing[@]}" >/dev/null) ||
    fail "cannot download ${missing[*]} from $suite"
  mv "$kdir"/debs/partial/*.deb "$kdir/debs/"
  rmdir "$kdir/debs/partial"
  # Debian has dropped the kernels it superseded; so does the cache.
  find "$cache/kernel" -mindepth 1 -maxdepth 1 ! -name "$kver" -exec rm -rf {} +
}

# The kernel and its modules in $kdir/root (/boot and /lib/modules), downloaded and
# unpacked once.
kernel_image() {
  kernel_debs "linux-image-$kver"
  [ -e "$kdir/image-unpacked" ] && return
  rm -rf "$kdir/root"
  mkdir -p "$kdir/root"
  dpkg-deb --fsys-tarfile "$kdir"/debs/linux-image-"${kver}"_*.deb |
    tar -x -C "$kdir/root" ./boot "./lib/modules/$kver"
  touch "$kdir/image-unpacked"
}

# ---- scoreboardd and scoreboardctl, release, Swift runtime linked in
build_daemon() { # v1|v2: builds into .build/hil-VERSION and sets bindir
  local version=$1
  local flags=(-c release --static-swift-stdlib --scratch-path ".build/hil-$version")
  if [ "$version" = v2 ]; then
    local pkgconfig libdir
    pkgconfig=$(bash scripts/libgpiod2.sh --prepare | tail -n 1)
    libdir=$(PKG_CONFIG_PATH="$pkgconfig" pkg-config --variable=libdir libgpiod)
    export PKG_CONFIG_PATH="$pkgconfig"
    flags+=(-Xswiftc -DSCOREBOARDD_LIBGPIOD_V2 -Xlinker -rpath -Xlinker "$libdir")
  fi
  local product
  for product in scoreboardd scoreboardctl; do
    "$swift" build "${flags[@]}" --product "$product" || fail "swift build of $product ($version) failed"
  done
  unset PKG_CONFIG_PATH
  bindir=$("$swift" build "${flags[@]}" --show-bin-path)
}

# ---- initramfs
copy_with_libraries() { # ROOT PROGRAM DESTINATION [LD_LIBRARY_PATH]
  local root=$1 program=$2 destination=$3 library
  install -D -m 755 "$program" "$root$destination"
  while read -r library; do
    case "$library" in
      /lib64/*) install -D -m 755 "$(readlink -f "$library")" "$root$library" ;;
      *) install -D -m 755 "$(readlink -f "$library")" "$root/lib/x86_64-linux-gnu/${library##*/}" ;;
    esac
  done < <(LD_LIBRARY_PATH=${4:-} ldd "$program" | grep -o '/[^ ]*' || true)
}

# A fresh initramfs tree in ROOT: the usual folders, busybox with a link per applet,
# and scoreboardd and scoreboardctl from $bindir with their shared libraries.
initramfs_tree() { # ROOT
  local root=$1 tool
  rm -rf "$root"
  mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,usr/local/bin,proc,sys,dev,tmp,run,var,etc,lib/modules}
  cp /bin/busybox "$root/bin/busybox"
  for tool in $(/bin/busybox --list); do
    [ -e "$root/bin/$tool" ] || ln -s busybox "$root/bin/$tool"
  done
  copy_with_libraries "$root" "$bindir/scoreboardd" /usr/local/bin/scoreboardd
  copy_with_libraries "$root" "$bindir/scoreboardctl" /usr/local/bin/scoreboardctl
}

pack_initramfs_tree() { # ROOT FILE: the tree as a cpio archive, then the tree is removed
  (cd "$1" && find . -print0 | sort -z | cpio --null -o -H newc --owner=0:0 --quiet) >"$2"
  rm -rf "$1"
}

module_file() { # NAME -> .ko or .ko.xz of the kernel, or run.sh's gpio-sim build
  local name=${1//-/_}
  if [ "$name" = gpio_sim ]; then
    echo "$kdir/gpio-sim/gpio-sim.ko"
    return
  fi
  find "$kdir/root/lib/modules/$kver/kernel" \( -name "$name.ko*" -o -name "${name//_/-}.ko*" \) |
    head -n 1
}

module_dependencies() { # FILE -> the names in its modinfo "depends=", without kmod
  case "$1" in
    *.xz) xz -dc "$1" ;;
    *) cat "$1" ;;
  esac | tr '\0' '\n' | sed -n 's/^depends=//p' | tr ',' ' '
}

# Copies the modules NAME... and their dependencies, dependencies first, into
# ROOT/lib/modules, and writes their names in that order to ROOT/lib/modules/load-order
# (the guest's /init loads them with insmod).
add_modules() { # ROOT NAME...
  local root=$1
  shift
  modules_done=()
  module_order=()
  local name
  for name in "$@"; do add_module "$root" "$name"; done
  printf '%s\n' "${module_order[@]}" >"$root/lib/modules/load-order"
}

# Leaves the module NAME out of ROOT's load order; its file stays in ROOT/lib/modules,
# and the guest loads it itself, with parameters, when a scenario needs it.
hold_module() { # ROOT NAME
  local order="$1/lib/modules/load-order"
  grep -qx -- "$2" "$order" || fail "module $2 is not in the load order"
  grep -vx -- "$2" "$order" >"$order.new" || true
  mv "$order.new" "$order"
}

declare -A modules_done=()
module_order=()
add_module() { # ROOT NAME: the module and its dependencies, dependencies first
  local root=$1 name=$2 file dependency
  [ -n "${modules_done[$name]:-}" ] && return
  modules_done[$name]=1
  file=$(module_file "$name")
  [ -n "$file" ] || fail "kernel module $name not found in $kver"
  for dependency in $(module_dependencies "$file"); do
    add_module "$root" "$dependency"
  done
  case "$file" in
    */gpio-sim/*) strip --strip-debug -o "$root/lib/modules/$name.ko" "$file" ;;
    *.xz) xz -dc "$file" >"$root/lib/modules/$name.ko" ;;
    *) cp "$file" "$root/lib/modules/$name.ko" ;;
  esac
  module_order+=("$name")
}

# ---- the machine
# Sets qemu_command: QEMU emulating a PC (TCG: no KVM on the build machines) with one
# CPU, no devices but those the caller adds, the isa-debug-exit port (the guest ends
# QEMU with exit code (BYTE << 1) | 1), and $kver's kernel with the initramfs.
qemu_machine() { # INITRAMFS
  # shellcheck disable=SC2034,SC2054 # used by the caller; the commas are QEMU's
  qemu_command=(qemu-system-x86_64 -M pc -accel tcg -cpu max -smp 1 -m 1024
    -nodefaults -no-user-config -display none -no-reboot
    -device isa-debug-exit,iobase=0xf4,iosize=0x04
    -kernel "$kdir/root/boot/vmlinuz-$kver" -initrd "$1")
}
