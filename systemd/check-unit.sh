#!/usr/bin/env bash
# Checks the systemd files of scoreboardd, as `make test` and CI run it:
#
#   systemd/check-unit.sh BINARY
#
# BINARY is a built scoreboardd (the debug build will do): `systemd-analyze verify`
# insists that ExecStart= names an executable that exists, so the unit is checked
# with its @sbindir@ replaced by BINARY's directory, as `make install` replaces it
# by the installed one.
#
# The three ways the unit runs are checked: the unit alone (no network), the unit with
# the network drop-in mqtt-network.conf linked among its drop-ins, as the administrator
# links it (see that file), and with web-port-80.conf linked as well (port 80):
#
#  1. `systemd-analyze verify` must accept the unit without a word, and find the
#     man pages that Documentation= names in docs/man;
#  2. `systemd-analyze security --offline=true` rates the unit; its overall
#     exposure must stay below 2.0 (on a scale where 0 is the best and 10 the worst).
#     The unit alone must allow no Internet socket; with the drop-in it must allow
#     Internet sockets and the host's network, and still no netlink, packet or
#     other socket;
#  3. systemd-sysusers must accept the sysusers.d file (run on an empty root) and
#     create every user and group the unit names.
set -euo pipefail

readonly maximum_exposure=2.0

if [ $# -ne 1 ]; then
  echo "usage: $0 SCOREBOARDD-BINARY" >&2
  exit 64
fi
binary=$1
if [ ! -x "$binary" ]; then
  echo "$0: $binary is not an executable (build scoreboardd first)" >&2
  exit 1
fi
binary_dir=$(cd "$(dirname "$binary")" && pwd)
if [ "$(basename "$binary")" != scoreboardd ]; then
  echo "$0: $binary: the binary must be named scoreboardd, as ExecStart= names it" >&2
  exit 1
fi
for tool in systemd-analyze systemd-sysusers; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "$0: $tool is missing: the unit checks need systemd 250 or later" \
      "(Debian: apt-get install systemd)" >&2
    exit 1
  fi
done

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The unit and the drop-in as `make install` would write them, with this binary.
unit="$work/scoreboardd.service"
sed -e "s|@sbindir@|$binary_dir|g" -e "s|@sysconfdir@|/etc|g" -e "s|@datadir@|/usr/share|g" \
  "$here/scoreboardd.service" >"$unit"
dropin="$work/mqtt-network.conf"
sed -e "s|@datadir@|/usr/share|g" "$here/mqtt-network.conf" >"$dropin"
port80="$work/web-port-80.conf"
sed -e "s|@datadir@|/usr/share|g" "$here/web-port-80.conf" >"$port80"
if grep -n '@[a-z]*@' "$unit" "$dropin" "$port80" >&2; then
  echo "FAIL: placeholders left in the unit or the drop-in that make install does not replace" >&2
  exit 1
fi

# Each case gets a folder of its own: systemd-analyze reads NAME.service.d/*.conf beside
# a unit file it is given by path, as systemd reads /etc/systemd/system/NAME.service.d.
# The drop-in is a symbolic link there, as the administrator makes it.
mkdir -p "$work/plain" "$work/mqtt/scoreboardd.service.d" "$work/port80/scoreboardd.service.d"
cp "$unit" "$work/plain/scoreboardd.service"
cp "$unit" "$work/mqtt/scoreboardd.service"
cp "$unit" "$work/port80/scoreboardd.service"
ln -s "$dropin" "$work/mqtt/scoreboardd.service.d/mqtt-network.conf"
ln -s "$dropin" "$work/port80/scoreboardd.service.d/mqtt-network.conf"
ln -s "$port80" "$work/port80/scoreboardd.service.d/web-port-80.conf"

# A man directory tree for Documentation=man:... to be found in.
for page in "$top"/docs/man/*.[0-9]; do
  section=${page##*.}
  mkdir -p "$work/man/man$section"
  ln -s "$page" "$work/man/man$section/"
done

# The exposure of each case, for the summary at the end.
exposures=()

# Checks 1 and 2 on the unit in the folder $1, described as $2.
check_case() {
  local dir=$1 label=$2 status=0 output report summary exposure

  # 1. verify reports problems as warnings and still exits 0, so any line it says
  # about the unit or its drop-in fails the check. --recursive-errors=no: problems of
  # the machine's other units (multi-user.target's dependencies) are not ours.
  echo "systemd-analyze verify $label"
  output=$(cd "$dir" && MANPATH="$work/man" systemd-analyze verify --man=yes \
    --recursive-errors=no ./scoreboardd.service 2>&1) || status=$?
  if [ -n "$output" ]; then
    printf '%s\n' "$output"
  fi
  if [ "$status" -ne 0 ] || grep -qE 'scoreboardd|mqtt-network|web-port-80' <<<"$output"; then
    echo "FAIL: systemd-analyze verify found problems in $label" >&2
    exit 1
  fi

  # 2. The rating. Only the settings that cost something are printed; the full table:
  #   systemd-analyze security --offline=true PATH-TO-THE-UNIT
  echo "systemd-analyze security --offline=true $label"
  report=$(cd "$dir" && systemd-analyze security --offline=true ./scoreboardd.service)
  awk 'NR == 1 || $NF ~ /^[0-9]+\.[0-9]+$/' <<<"$report"
  summary=$(grep 'Overall exposure level' <<<"$report") || {
    echo "FAIL: no overall exposure level in the output of systemd-analyze security" >&2
    exit 1
  }
  echo "$summary"
  exposure=$(sed -E 's/.*: ([0-9]+\.[0-9]+) .*/\1/' <<<"$summary")
  if ! awk -v e="$exposure" -v max="$maximum_exposure" 'BEGIN { exit !(e < max) }'; then
    echo "FAIL: the exposure $exposure of $label is not below $maximum_exposure:" \
      "harden systemd/scoreboardd.service (or systemd/mqtt-network.conf) again" >&2
    exit 1
  fi
  exposures+=("$label: $exposure")
  last_report=$report
}

# Whether the report $1 rates the setting $2 (the table's second column) as $3: "held"
# (no exposure figure on its line) or "exposed" (a figure). The figures, not the marks,
# are read: the marks are ASCII outside a UTF-8 locale.
expect_rating() {
  local rating
  rating=$(awk -v name="$2" '$2 == name { print ($NF ~ /^[0-9]+\.[0-9]+$/ ? "exposed" : "held"); exit }' <<<"$1")
  if [ "$rating" != "$3" ]; then
    echo "FAIL: systemd-analyze security rates $2 as '${rating:-nothing}', not $3, for $4" >&2
    exit 1
  fi
}

last_report=""
check_case "$work/plain" "scoreboardd.service"
expect_rating "$last_report" 'RestrictAddressFamilies=~AF_(INET|INET6)' held "the unit alone"
expect_rating "$last_report" 'PrivateNetwork=' held "the unit alone"
check_case "$work/mqtt" "scoreboardd.service with mqtt-network.conf"
expect_rating "$last_report" 'RestrictAddressFamilies=~AF_(INET|INET6)' exposed "the MQTT drop-in"
expect_rating "$last_report" 'PrivateNetwork=' exposed "the MQTT drop-in"
expect_rating "$last_report" 'IPAddressDeny=' exposed "the MQTT drop-in"
for family in AF_NETLINK AF_PACKET; do
  expect_rating "$last_report" "RestrictAddressFamilies=~$family" held "the MQTT drop-in"
done
check_case "$work/port80" "scoreboardd.service with mqtt-network.conf and web-port-80.conf"
expect_rating "$last_report" 'CapabilityBoundingSet=~CAP_SYS_ADMIN' held "the port 80 drop-in"
expect_rating "$last_report" 'CapabilityBoundingSet=~CAP_NET_ADMIN' held "the port 80 drop-in"

# 3. The users and groups, created on an empty root together with systemd's own
# (basic.conf, where dialout comes from), as at boot: any remark fails the check,
# a conflict with systemd's groups included.
echo "systemd-sysusers scoreboardd.sysusers"
mkdir -p "$work/root/etc"
sysusers_files=()
for basic in /usr/lib/sysusers.d/basic.conf /lib/sysusers.d/basic.conf; do
  if [ -f "$basic" ]; then
    sysusers_files+=("$basic")
    break
  fi
done
sysusers_files+=("$here/scoreboardd.sysusers")
status=0
output=$(systemd-sysusers --root="$work/root" "${sysusers_files[@]}" 2>&1) || status=$?
if [ "$status" -ne 0 ] || grep -qiE 'fail|error|ignor|invalid|warn|conflict' <<<"$output"; then
  printf '%s\n' "$output"
  echo "FAIL: systemd-sysusers did not accept systemd/scoreboardd.sysusers" >&2
  exit 1
fi
# Every user and group the unit names must be created, or the unit cannot start
# on a machine that lacks one (216/GROUP).
user=$(sed -n 's/^User=//p' "$unit")
groups=$(sed -n -e 's/^Group=//p' -e 's/^SupplementaryGroups=//p' "$unit")
if [ -z "$user" ] || ! grep -q "^$user:" "$work/root/etc/passwd"; then
  echo "FAIL: systemd/scoreboardd.sysusers does not create the unit's User= '$user'" >&2
  exit 1
fi
for group in $groups; do
  if ! grep -q "^$group:" "$work/root/etc/group"; then
    echo "FAIL: systemd/scoreboardd.sysusers does not create the unit's group '$group'" >&2
    exit 1
  fi
done
echo "exposure: ${exposures[0]}; ${exposures[1]}; ${exposures[2]} (each below $maximum_exposure)"
echo "systemd unit checks passed"
