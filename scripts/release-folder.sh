#!/bin/sh
# Starts a release build folder afresh when the release flags or the link order have
# changed since it was built. SwiftPM compiles nothing again when only the flags of
# Package.swift change, nor links again when only Sources/scoreboardd/key-path.order
# changes, so a folder built with other ones would keep the old code and order.
#
#   scripts/release-folder.sh FOLDER
#
# A hash of both files is kept in FOLDER/inputs.sha256; run from the package's folder.
set -eu
folder=$1
inputs=$(cat Package.swift Sources/scoreboardd/key-path.order | sha256sum)
if [ "$(cat "$folder/inputs.sha256" 2>/dev/null)" != "$inputs" ]; then
  rm -rf "$folder"
fi
mkdir -p "$folder"
echo "$inputs" >"$folder/inputs.sha256"
