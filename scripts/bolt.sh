#!/usr/bin/env bash
# The release scoreboardd laid out by its own profile. llvm-bolt (Debian's bolt-19)
# instruments the linked program, scripts/bolt-train.py runs it as a club's board runs
# (keys on both scores, a score typed in, the game clock in tenths), and llvm-bolt
# writes the program again from that profile: the code a key and a clock's frame run
# packed together, each function's blocks that never ran moved out of the way. A key
# after a quiet spell pays for every page and line of code it touches
# (Benchmarks/analysis.md, "The layout of a key's code, by its profile"). The optimized
# program runs bolt-train.py once more, which checks its answers, before it replaces
# the one in OUT.
#
#   scripts/bolt.sh --link-flags
#     prints the swift build options that link scoreboardd for llvm-bolt, when it will
#     run: its relocations kept (--emit-relocs), and its relative relocations unpacked
#     (llvm-bolt 19 writes a program from one with DT_RELR whose dynamic section the
#     loader cannot read); nothing when llvm-bolt is missing or BOLT=no, so that the
#     program installed then keeps its packed relocations (565 kB fewer read at start)
#   scripts/bolt.sh LINKED OUT
#     LINKED  the release scoreboardd, linked with the options above
#     OUT     where the program to install goes
#
# BOLT=auto (the default) falls back to a copy of LINKED, saying why, when llvm-bolt is
# missing, a step fails, or the machine is not x86_64 (the only one on which the tests
# have run against the laid-out program so far; trixie's llvm-bolt 19 could not write
# the instrumented arm64 program: Benchmarks/analysis.md, "The layout by a profile
# for the arm64 package, tried"); BOLT=yes makes the first two an error and tries any
# machine; BOLT=no copies LINKED.
# OUT.made says how OUT was made: the mode, then "profile" and llvm-bolt's version
# (laid out by it), or "linker" (a copy of LINKED). OUT is left alone when it is newer
# than LINKED and these scripts and was laid out by its profile, or copied with BOLT=no;
# a copy made because llvm-bolt was missing or failed is made again.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${BOLT:-auto}
case "$mode" in
  auto | yes | no) ;;
  *) echo "bolt.sh: BOLT=$mode: say auto, yes or no" >&2; exit 2 ;;
esac

# llvm-bolt by its own folder's path, through which it finds its runtime (Debian's
# /usr/bin/llvm-bolt-19 is a link, from which it would look in /usr/lib); empty when
# it is not installed.
bolt=""
for candidate in /usr/lib/llvm-19/bin/llvm-bolt llvm-bolt-19 llvm-bolt; do
  if command -v "$candidate" >/dev/null 2>&1; then
    bolt=$(readlink -f "$(command -v "$candidate")")
    break
  fi
done

# Where the layout has been checked (every test against the laid-out program): x86_64.
# Elsewhere (a Raspberry Pi's aarch64: see above) BOLT=yes tries it, auto leaves it out.
machine=$(uname -m)
tried=yes
[ "$mode" = yes ] || [ "$machine" = x86_64 ] || tried=no

if [ "${1:-}" = --link-flags ] && [ $# -eq 1 ]; then
  if [ "$mode" != no ] && [ -n "$bolt" ] && [ "$tried" = yes ]; then
    echo "-Xlinker --emit-relocs -Xlinker -z -Xlinker nopack-relative-relocs"
  fi
  exit 0
fi
[ $# -eq 2 ] || { echo "usage: scripts/bolt.sh --link-flags | LINKED OUT" >&2; exit 2; }
linked=$1
out=$2
[ -x "$linked" ] || { echo "bolt.sh: $linked: no such program (build it first)" >&2; exit 1; }
mkdir -p "$(dirname "$out")"

stamp="$out.made"
made=$(cat "$stamp" 2>/dev/null || true)
if [ "$out" -nt "$linked" ] && [ "$out" -nt scripts/bolt.sh ] &&
  [ "$out" -nt scripts/bolt-train.py ] &&
  { [[ "$mode" == no && "$made" == "no linker" ]] || [[ "$made" == "$mode profile "* ]]; }; then
  exit 0
fi
rm -f "$stamp"

# LINKED as it is, when its layout cannot be made from a profile; REASON says why.
unoptimized() {
  if [ "$mode" = yes ]; then
    echo "bolt.sh: $1" >&2
    echo "  (BOLT=no builds scoreboardd without the layout from its profile)" >&2
    exit 1
  fi
  [ "$mode" = no ] || echo "bolt.sh: $1; scoreboardd keeps the linker's layout" >&2
  cp "$linked" "$out.new"
  mv "$out.new" "$out"
  echo "$mode linker" >"$stamp"
  exit 0
}

[ "$mode" != no ] || unoptimized "BOLT=no"
[ "$tried" = yes ] ||
  unoptimized "the layout by a profile is made on x86_64 only so far (BOLT=yes tries it on $machine)"
[ -n "$bolt" ] || unoptimized "llvm-bolt is not installed (Debian: apt-get install bolt-19)"
sections=$(readelf -SW "$linked") || unoptimized "readelf cannot read $linked"
[[ "$sections" == *" .rela.text "* ]] ||
  unoptimized "$linked was linked without --emit-relocs (scripts/bolt.sh --link-flags)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A step that fails leaves its output in the log, whose end is shown.
step() { # WHAT COMMAND...
  local what=$1
  shift
  if ! "$@" >>"$work/log" 2>&1; then
    tail -n 20 "$work/log" >&2
    unoptimized "$what failed"
  fi
}

echo "bolt.sh: laying out $(basename "$linked") by its profile ($bolt)" >&2
# Each run of the instrumented program writes a profile of its own (bolt-train.py runs
# two boards), which merge-fdata adds up.
step "instrumenting $linked" \
  "$bolt" "$linked" -instrument -instrumentation-file="$work/run.fdata" \
  -instrumentation-file-append-pid -o "$work/instrumented"
step "the instrumented scoreboardd's run (scripts/bolt-train.py)" \
  python3 scripts/bolt-train.py "$work/instrumented"
compgen -G "$work/run.fdata.*" >/dev/null ||
  unoptimized "the instrumented scoreboardd wrote no profile"
"$(dirname "$bolt")/merge-fdata" "$work"/run.fdata.* >"$work/profile.fdata" 2>>"$work/log" ||
  unoptimized "merge-fdata could not add up the profiles"
step "the layout from the profile" \
  "$bolt" "$linked" -data="$work/profile.fdata" -o "$work/optimized" \
  -reorder-blocks=ext-tsp -reorder-functions=cdsort -split-functions -split-all-cold \
  -split-eh -use-gnu-stack -update-debug-sections
step "the optimized scoreboardd's check (scripts/bolt-train.py)" \
  python3 scripts/bolt-train.py "$work/optimized"
cp "$work/optimized" "$out.new"
mv "$out.new" "$out"
version=$("$bolt" --version | sed -n 's/.*LLVM version \([0-9.]*\).*/\1/p' | head -n 1)
echo "$mode profile llvm-bolt ${version:-(version unknown)}" >"$stamp"
sed -n 's/^BOLT-INFO: \(splitting separates .*\)/bolt.sh: \1/p' "$work/log" >&2
