#!/bin/sh
# Regenerates the man page docs/man/coffer.1 with swift-argument-parser's generate-manual plugin, and beside it
# docs/man/coffer.help.json: the help the page was made from (`coffer --experimental-dump-help`). The CLI tests
# compare that file with the built binary's help, so a change to the command line without a new page fails
# `swift test` with a message naming this script.
#
#   scripts/generate-man.sh           # rewrite both files (the page's date changes only when its text does)
#   scripts/generate-man.sh --check   # exit 1 when either file is not what the current code makes (for CI)
#
# SCRATCH_PATH=... uses another build folder (as swift build --scratch-path). The plugin builds the package in
# debug mode first.
set -eu
cd "$(dirname "$0")/.."
scratch=${SCRATCH_PATH:-.build}
check=no
[ "${1:-}" = "--check" ] && check=yes

page=docs/man/coffer.1
help=docs/man/coffer.help.json
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The page's date: the current page's, so that regenerating an unchanged page changes nothing.
day=$(date -u +%F)
if [ -f "$page" ]; then
    current=$(sed -n 's/^\.Dd //p' "$page" | head -n 1)
    [ -n "$current" ] && day=$(LC_ALL=C date -u -d "$current" +%F)
fi

swift package --scratch-path "$scratch" plugin generate-manual --configuration debug --date "$day" >"$work/plugin.log" 2>&1 || {
    cat "$work/plugin.log" >&2
    exit 1
}
cp "$scratch/plugins/GenerateManual/outputs/CofferCLI/coffer.1" "$work/coffer.1"
"$scratch/debug/coffer" --experimental-dump-help >"$work/coffer.help.json"

if [ "$check" = yes ]; then
    status=0
    cmp -s "$work/coffer.1" "$page" || { echo "$page is not current: run scripts/generate-man.sh" >&2; status=1; }
    cmp -s "$work/coffer.help.json" "$help" || { echo "$help is not current: run scripts/generate-man.sh" >&2; status=1; }
    [ $status = 0 ] && echo "$page and $help are current"
    exit $status
fi

if [ -f "$page" ] && ! cmp -s "$work/coffer.1" "$page"; then
    # The text changed: date it today.
    today=$(LC_ALL=C date -u +"%B %-d, %Y")
    sed "s/^\.Dd .*/.Dd $today/" "$work/coffer.1" >"$work/dated.1"
    mv "$work/dated.1" "$work/coffer.1"
fi
cp "$work/coffer.1" "$page"
cp "$work/coffer.help.json" "$help"
echo "wrote $page ($(wc -l <"$page") lines) and $help"
