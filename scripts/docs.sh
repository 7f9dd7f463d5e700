#!/usr/bin/env bash
# Builds the library's documentation: one DocC archive per library module and a combined archive linking them
# (swift-docc-plugin's --enable-experimental-combined-documentation; the umbrella target alone documents nothing,
# since it only re-exports). Offline; about a minute on a warm build. CI runs it (.ci/run) with warnings as errors,
# so a broken symbol link or article reference fails the build.
#   scripts/docs.sh [OUTPUT_DIR]        default .build/docs; open OUTPUT_DIR/index.html through any static server
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-.build/docs}"
mkdir -p "$out"
targets=()
for t in Coffer CofferModel CofferStore CofferPipeline CofferExport CofferWatch; do targets+=(--target "$t"); done
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! swift package --allow-writing-to-directory "$out" generate-documentation "${targets[@]}" \
        --enable-experimental-combined-documentation --warnings-as-errors --output-path "$out" >"$log" 2>&1; then
    grep -vE '^\[[0-9]+/[0-9]+\]' "$log"
    echo "scripts/docs.sh: the documentation did not build (above)" >&2
    exit 1
fi
grep -E 'warning|error' "$log" || true
echo "documentation: $out (combined; one archive per module beside it)"
