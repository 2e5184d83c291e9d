#!/usr/bin/env bash
# make's toolchain check: the Swift toolchain must be on PATH. On Debian trixie and
# Raspberry Pi OS trixie, where Debian ships it (swiftlang), root gets it installed with
# apt and a user is told the one apt-get line; elsewhere (bookworm has no Swift package)
# the message says where the toolchain comes from.
#
#   scripts/toolchain.sh SWIFT
set -euo pipefail

swift=${1:-swift}
command -v "$swift" >/dev/null 2>&1 && exit 0

codename=
if [ -r /etc/os-release ]; then
  # shellcheck disable=SC1091 # the machine's own file
  codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
fi

# What building and testing needs besides the libraries of make deps.
packages=(swiftlang libstdc++-14-dev libc6-dev)

if [ "$codename" = trixie ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "Installing the Swift toolchain from Debian: ${packages[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}"
    command -v "$swift" >/dev/null 2>&1 && exit 0
    echo "swiftlang is installed, but '$swift' is still not on PATH." >&2
    exit 1
  fi
  echo "The Swift toolchain is not on PATH. Debian trixie ships it; install it with:" >&2
  echo "  sudo apt-get install ${packages[*]}" >&2
  exit 1
fi

echo "The Swift toolchain (6.0 or later) is not on PATH." >&2
if [ "$codename" = bookworm ]; then
  echo "Debian bookworm has no Swift package: install the toolchain from swift.org" >&2
  echo "(https://www.swift.org/install/linux/, the Debian 12 archive for this machine's" >&2
  echo "architecture) and add its usr/bin to PATH, or move to trixie, which ships swiftlang." >&2
else
  echo "Install it from the Swift project's Linux packages (https://www.swift.org/install/linux/)" >&2
  echo "and add its usr/bin to PATH." >&2
fi
exit 1
