#!/usr/bin/env bash
# make bench: builds the release binaries, the Python peer's virtual environment and the
# C floor, runs the benchmarks and writes Benchmarks/results.md (also printed).
#
#   bash Benchmarks/run.sh [--quick] [--clock-only] [--mqtt-only] [--commands-only]
#     [--web-only] [--latency-only] [--long-run-only] [--in-play-only] [--publish-only]
#     [--stages-only] [--clock-seconds N]
#     --quick: short runs, to check the harness; --clock-only: the game clock runs alone;
#     --mqtt-only: the MQTT scenario alone (needs mosquitto; skipped without it);
#     --commands-only: its commands part alone (round trips, a flood, oversized messages);
#     --web-only: the web scenario alone (pages on the event stream, a phone's commands);
#     --latency-only: every key-to-wire run alone (in blocks, interleaved, in a row) and
#     the stage times;
#     --long-run-only: keys in a row alone; --in-play-only: a board in play alone;
#     --publish-only: the CPU of a published change alone; --stages-only: the stage times
#     of the instrumented build alone (where a key's time goes inside scoreboardd);
#     --clock-seconds: the length of each of the two game clock runs (600; 20 with --quick)
#
# SWIFT names the swift driver (default: swift). The virtual environment and the floor
# binary live in ${SCOREBOARDD_CACHE:-$HOME/.cache/scoreboardd}, outside the clone.
set -euo pipefail

cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}
cache=${SCOREBOARDD_CACHE:-$HOME/.cache/scoreboardd}
venv=$cache/bench-venv
# A whole run writes its report here; a partial one (--quick, or one scenario alone)
# only prints it, so that it never replaces the whole run's figures.
results=Benchmarks/results.md
# The GPIO encoders (and the analysis of the whole run's figures) go with a whole run,
# --quick and --clock-only (the GPIO benchmark has a game clock of its own); a scenario
# run alone has nothing to do with them.
gpio_encoders=yes
for argument in "$@"; do
  case "$argument" in
    --quick | --clock-only) results=$(mktemp) ;;
    --mqtt-only | --commands-only | --latency-only | --long-run-only | --in-play-only | \
      --publish-only | --stages-only | --web-only)
      results=$(mktemp)
      gpio_encoders=no
      ;;
  esac
done
release_flags=(-c release --static-swift-stdlib -Xswiftc -warnings-as-errors)
# scoreboardd is measured as make build makes it: linked for llvm-bolt, then laid out by
# its profile (scripts/bolt.sh; BOLT=no leaves that out).
read -r -a bolt_link_flags <<<"$(bash scripts/bolt.sh --link-flags)"
# A release build folder made with other flags or another link order starts afresh, so
# that the figures are those of the build as it is (scripts/release-folder.sh).
sh scripts/release-folder.sh "$("$swift" build "${release_flags[@]}" --show-bin-path)"

echo "bench: building scoreboardd and the benchmarks (release, static Swift runtime)" >&2
"$swift" build "${release_flags[@]}" --product ScoreboardBenchmark
"$swift" build "${release_flags[@]}" --product GPIOFrameBenchmark
# (Last, right before its layout, which reads what this link wrote.)
"$swift" build "${release_flags[@]}" "${bolt_link_flags[@]}" --product scoreboardd
bin=$("$swift" build "${release_flags[@]}" --show-bin-path)
daemon=$bin/optimized/scoreboardd
BOLT=${BOLT:-auto} bash scripts/bolt.sh "$bin/scoreboardd" "$daemon"
# The build made for measuring where a key's time goes (stage times, -DSTAGE_TIMES), in a
# build folder of its own outside the clone.
stage_build=$cache/stage-build
sh scripts/release-folder.sh "$stage_build"
echo "bench: building the instrumented scoreboardd (-DSTAGE_TIMES) in $stage_build" >&2
"$swift" build "${release_flags[@]}" "${bolt_link_flags[@]}" -Xswiftc -DSTAGE_TIMES \
  --scratch-path "$stage_build" --product scoreboardd
stage_bin=$("$swift" build "${release_flags[@]}" -Xswiftc -DSTAGE_TIMES \
  --scratch-path "$stage_build" --show-bin-path)
instrumented=$stage_bin/optimized/scoreboardd
BOLT=${BOLT:-auto} bash scripts/bolt.sh "$stage_bin/scoreboardd" "$instrumented"

mkdir -p "$cache"
if ! "$venv/bin/python" -c 'import serial' 2>/dev/null; then
  echo "bench: creating $venv with pyserial from PyPI" >&2
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check pyserial
fi
floor=$cache/bench-floor
cc -O2 -Wall -Wextra -Werror -pthread -o "$floor" Benchmarks/peers/floor.c

stripped=$(mktemp)
trap 'rm -f "$stripped" "$stripped.floor"' EXIT
strip -o "$stripped" "$daemon"
strip -o "$stripped.floor" "$floor"

# The machine and the versions of everything measured.
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
swift_version=$("$swift" --version 2>&1 | sed -n 's/.*Swift version \([^ ]*\).*/\1/p' | head -n 1)
python_version=$("$venv/bin/python" -c 'import platform; print(platform.python_version())')
pyserial_version=$("$venv/bin/python" -c 'import serial; print(serial.__version__)')
gpiod_version=$(pkg-config --modversion libgpiod 2>/dev/null || echo unknown)
microhttpd_version=$(pkg-config --modversion libmicrohttpd 2>/dev/null || echo unknown)

# The real-time priority the unit gives the daemon's loop: the flood's keys are measured
# as the unit starts the daemon too.
unit_priority=$(sed -n 's/^CPUSchedulingPriority=//p' systemd/scoreboardd.service)

report=$(mktemp)
trap 'rm -f "$stripped" "$stripped.floor" "$report"' EXIT
"$bin/ScoreboardBenchmark" \
  --scoreboardd "$daemon" --python "$venv/bin/python" \
  --peer Benchmarks/peers/scoreboard_peer.py --floor "$floor" \
  --scoreboardd-stripped-bytes "$(stat -c %s "$stripped")" \
  --floor-stripped-bytes "$(stat -c %s "$stripped.floor")" \
  --peer-bytes "$(stat -c %s Benchmarks/peers/scoreboard_peer.py)" \
  --web-pages "$PWD/web" --instrumented "$instrumented" \
  ${unit_priority:+--unit-priority "$unit_priority"} \
  "$@" >"$report"

{
  echo "# Benchmark results"
  echo
  echo "Written by \`make bench\` (Benchmarks/run.sh); how each figure is measured is in"
  echo "[Benchmarks/README.md](README.md)."
  echo
  echo "- machine: $(uname -m), ${cpu:-unknown CPU}, $(nproc) cores"
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "- versions: Swift $swift_version, Linux $(uname -r), Python $python_version," \
    "pyserial $pyserial_version, libgpiod $gpiod_version, libmicrohttpd $microhttpd_version"
  layout=$(cut -d ' ' -f 2- "$daemon.made")
  case "$layout" in
    profile*) echo "- scoreboardd's code: laid out by its profile (scripts/bolt.sh, ${layout#profile })" ;;
    *) echo "- scoreboardd's code: the linker's layout (scripts/bolt.sh did not lay it out)" ;;
  esac
  if [[ " $* " == *" --quick "* ]]; then
    echo "- **quick run** (--quick): short runs that check the harness, not figures to quote"
  fi
  echo
  cat "$report"
  if [ "$gpio_encoders" = yes ]; then
    echo
    echo "## GPIO encoders"
    echo
    "$bin/GPIOFrameBenchmark" "$@"
    if [[ -f Benchmarks/analysis.md ]]; then
      echo
      cat Benchmarks/analysis.md
    fi
  fi
} >"$results"
cat "$results"
if [ "$results" != Benchmarks/results.md ]; then
  rm -f "$results"
  echo "bench: a partial run: Benchmarks/results.md is left as it was" >&2
fi
