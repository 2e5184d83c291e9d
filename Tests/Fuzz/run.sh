#!/usr/bin/env bash
# `make fuzz`: builds the libFuzzer targets of Tests/Fuzz with the address sanitizer and
# runs each for a bounded time.
#
#   FUZZ_SECONDS  how long each target runs (default 30)
#   FUZZ_TARGETS  which targets, separated by spaces (default: all of them)
#   SWIFT         the swift program (default: swift on PATH)
#
# The build (debug, `-sanitize=fuzzer,address`) goes to .build/fuzz. Each target runs on
# its work corpus, .build/fuzz/work/TARGET/corpus: a copy of the seeds in
# Tests/Fuzz/corpus/TARGET, plus what earlier runs found there; the seeds themselves are
# never written. A crash, a failed check, a leak, a timeout, running out of memory or any
# sanitizer report fails the run: its input is kept beside the work corpus and the
# command to replay it is printed.
set -euo pipefail
cd "$(dirname "$0")/../.."

SWIFT=${SWIFT:-swift}
FUZZ_SECONDS=${FUZZ_SECONDS:-30}
read -r -a targets <<<"${FUZZ_TARGETS:-evdev control-request configuration state-file serial-frame mqtt-payload web-request}"
scratch=.build/fuzz

# Each target's library (Tests/Fuzz/Package.swift) and the longest input it is given: a
# few reads of evdev records, control sessions and configuration files of a few
# kilobytes, a state file (two slots of 4 KiB, or its text alone), a burst of serial
# bytes, an MQTT payload.
declare -A module=(
  [evdev]=FuzzEvdev [control-request]=FuzzControlRequest [configuration]=FuzzConfiguration
  [state-file]=FuzzStateFile [serial-frame]=FuzzSerialFrame [mqtt-payload]=FuzzMQTTPayload
  [web-request]=FuzzWebRequest
)
declare -A max_len=(
  [evdev]=3073 [control-request]=4096 [configuration]=8192 [state-file]=12288
  [serial-frame]=2048 [mqtt-payload]=4096 [web-request]=4096
)
for target in "${targets[@]}"; do
  [ -n "${module[$target]:-}" ] || { echo "unknown fuzz target '$target'" >&2; exit 64; }
done

swift_bin=$(dirname "$(command -v "$SWIFT")")
build=("$SWIFT" build --package-path Tests/Fuzz --scratch-path "$scratch")
echo "Building the fuzz targets in $scratch (debug, -sanitize=fuzzer,address)"
# SwiftPM plans a build again when the root package's files change, not when files are
# added to a package it depends on by path; without its plan it makes a new one.
rm -f "$scratch/debug.yaml"
"${build[@]}" -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address \
  -Xswiftc -warnings-as-errors
bin=$("${build[@]}" --show-bin-path)
bin=${bin#"$PWD/"}

# libFuzzer's main comes from libclang_rt.fuzzer, which swiftc links for
# -sanitize=fuzzer. The gold linker warns about every sanitizer symbol it cannot export;
# those lines say nothing.
for target in "${targets[@]}"; do
  library=$bin/lib${module[$target]}.a
  program=$bin/fuzz-$target
  # Linked every time (a second or two), never kept from an earlier build: a state-file
  # crash once seen after the model's types changed went away with a clean build.
  "$swift_bin/swiftc" -sanitize=fuzzer,address "$library" -o "$program" 2>&1 \
    | { grep -v 'Cannot export local symbol' || true; }
done

# The Swift runtime's own crash report would race libFuzzer's; libFuzzer's names the
# input. Hashing is made deterministic so that a replay takes the same path.
export SWIFT_BACKTRACE=enable=no SWIFT_DETERMINISTIC_HASHING=1

failed=()
for target in "${targets[@]}"; do
  work=$scratch/work/$target
  mkdir -p "$work/corpus"
  rm -f "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* "$work"/slow-unit-*
  cp Tests/Fuzz/corpus/"$target"/* "$work/corpus/"
  options=(
    -max_total_time="$FUZZ_SECONDS" -max_len="${max_len[$target]}" -timeout=10
    -rss_limit_mb=2048 -artifact_prefix="$work/" -print_final_stats=1
  )
  if [ -f "Tests/Fuzz/dictionaries/$target.dict" ]; then
    options+=(-dict="Tests/Fuzz/dictionaries/$target.dict")
  fi
  started=$(date +%s)
  status=0
  "$bin/fuzz-$target" "${options[@]}" "$work/corpus" >"$work/log" 2>&1 || status=$?
  seconds=$(($(date +%s) - started))
  # The last status line: "#RUNS DONE cov: EDGES ft: FEATURES corp: INPUTS/SIZE ...".
  summary=$(grep -E '^#[0-9]+' "$work/log" | tail -n 1 || true)
  runs=$(sed -E 's/^#([0-9]+).*/\1/' <<<"$summary")
  coverage=$(sed -nE 's/.* cov: ([0-9]+) ft: ([0-9]+).*/\1 edges, \2 features/p' <<<"$summary")
  corpus=$(sed -nE 's/.* corp: ([0-9]+)\/([0-9]+[a-zA-Z]*).*/\1 inputs (\2)/p' <<<"$summary")
  printf 'fuzz %-16s %9s runs in %3s s, coverage %s, corpus %s\n' \
    "$target:" "${runs:-0}" "$seconds" "${coverage:-?}" "${corpus:-?}"
  if [ "$status" -ne 0 ]; then
    failed+=("$target")
    echo "fuzz $target FAILED (exit status $status); the end of $work/log:"
    tail -n 40 "$work/log" | sed 's/^/    /'
    for input in "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-*; do
      [ -e "$input" ] || continue
      echo "  input: $input"
      echo "  replay: SWIFT_BACKTRACE=enable=no $bin/fuzz-$target $input"
    done
  fi
done

if [ "${#failed[@]}" -ne 0 ]; then
  echo "fuzz: ${failed[*]} failed"
  exit 1
fi
echo "fuzz: ${#targets[@]} targets, $FUZZ_SECONDS s each, no crash"
