# shellcheck shell=bash
# host_packages PACKAGE...: installs the Debian packages among PACKAGE that the host
# lacks when run as root, else says how to install them and exits 1. Sourced by the
# scripts of the virtual-machine tests (Tests/HIL/lib.sh, Tests/ARM64/image.sh), which
# set host_packages_needed_by to what needs them ("The virtual-machine tests need").
host_packages() {
  local missing=() package
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' ||
      missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return
  if [ "$(id -u)" = 0 ]; then
    echo "Installing: ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" ||
      { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
        --no-install-recommends "${missing[@]}"; }
  else
    echo "${host_packages_needed_by:-These tests need} these Debian packages. Install them with:"
    echo "  sudo apt-get install --no-install-recommends ${missing[*]}"
    exit 1
  fi
}
