#!/usr/bin/env bash
# Compare Coffer's OFX reading with ofxtools and ofxparse, file by file (see scripts/compare_peers.py).
#
#   scripts/compare-peers.sh [FOLDER_OR_FILE ...]      default: feeds/ofx Tests/Golden/ofx-shapes
#
# COFFER_BIN: the coffer binary (default .build/debug/coffer; build it first, e.g. `swift build --product coffer`).
# PYTHON: the interpreter that has the peers (default python3). They install with
#   python3 -m pip install ofxtools==1.1.1 ofxparse==0.21
# Exit status: 0 all agree, 1 some disagree, 2 the peers or the binary are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if ! command -v "$PY" > /dev/null; then
    echo "compare-peers: no $PY; install Python 3, then: $PY -m pip install ofxtools==1.1.1 ofxparse==0.21" >&2
    exit 2
fi
if ! "$PY" -c 'import ofxtools, ofxparse' 2> /dev/null; then
    echo "compare-peers: the peers are missing: $PY -m pip install ofxtools==1.1.1 ofxparse==0.21" >&2
    exit 2
fi
export COFFER_BIN=${COFFER_BIN:-.build/debug/coffer}
exec "$PY" scripts/compare_peers.py "$@"
