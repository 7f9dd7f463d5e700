#!/usr/bin/env bash
# Fuzzes `coffer serve` from its own OpenAPI document with schemathesis.
#
#   scripts/fuzz-api.sh [extra schemathesis run options...]
#
# Builds coffer (or uses $COFFER_BIN), imports every statement of feeds/ into a temporary store, adds a client
# granted every account and data type, starts `coffer serve --listen 127.0.0.1:0`, and runs schemathesis against
# GET /openapi.json with the client's bearer token: every documented operation but the SSE stream, checking that
# no answer is a 5xx and that each answer's status, content type and body are what the document says.
# Exits non-zero when schemathesis finds anything (or when a step before it fails).
#
# Environment:
#   COFFER_BIN          a coffer binary to use instead of `swift build --product coffer`
#   FUZZ_API_EXAMPLES   test cases per operation (default 50)
#   FUZZ_API_SEED       schemathesis --seed, to replay a run
#   FUZZ_API_KEEP=1     keep the temporary folder (store, server log) instead of removing it
#
# Python: a venv in .build/fuzz-api-venv (needs python3-venv on Debian/Ubuntu) with schemathesis pinned below.
set -euo pipefail

schemathesis_version="4.32.5"
examples="${FUZZ_API_EXAMPLES:-50}"

root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/.build/fuzz-api-venv"
cd "$root"

say() { echo "fuzz-api.sh: $*" >&2; }

# --- schemathesis, in its own venv ---------------------------------------------------------------------------
if ! command -v python3 >/dev/null; then
    say "python3 not found; install it (apt-get install python3 python3-venv)"
    exit 1
fi
if [ ! -x "$venv/bin/python" ]; then
    mkdir -p "$root/.build"
    if ! python3 -m venv "$venv" >/dev/null 2>&1; then
        rm -rf "$venv"
        say "python3 -m venv failed: the venv module (with ensurepip) is missing."
        say "install it, e.g.: sudo apt-get install python3-venv   (or python3.X-venv for your python3 -V)"
        exit 1
    fi
fi
if [ "$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("schemathesis"))' 2>/dev/null || true)" \
     != "$schemathesis_version" ]; then
    say "installing schemathesis $schemathesis_version into $venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "schemathesis==$schemathesis_version"
fi
st="$venv/bin/st"

# --- coffer ---------------------------------------------------------------------------------------------------
if [ -n "${COFFER_BIN:-}" ]; then
    coffer="$COFFER_BIN"
else
    say "building coffer and coffer-serve (coffer serve runs it)"
    swift build --product coffer
    swift build --product coffer-serve
    coffer="$(swift build --product coffer --show-bin-path)/coffer"
fi
if [ ! -x "$coffer" ]; then
    say "no coffer binary at $coffer"
    exit 1
fi

# --- a store, a client, a server ----------------------------------------------------------------------------
tmp="$(mktemp -d "${TMPDIR:-/tmp}/coffer-fuzz-api.XXXXXX")"
server_pid=""
cleanup() {
    local status=$?
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    if [ "${FUZZ_API_KEEP:-}" = 1 ]; then
        say "kept $tmp"
    else
        rm -rf "$tmp"
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Only this run's store and configuration: nothing of the user's (~/.config/coffer, $COFFER_STORE, a client token).
export XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data" XDG_STATE_HOME="$tmp/state"
unset COFFER_STORE COFFER_CONFIG COFFER_CLIENT_TOKEN
store="$tmp/store.sqlite"

say "importing feeds/ into $store"
"$coffer" import --store "$store" "$root/feeds" >"$tmp/import.log" 2>&1 || { cat "$tmp/import.log" >&2; say "import failed"; exit 1; }

token="$("$coffer" clients add fuzz --store "$store" 2>/dev/null | tail -n 1)"
case "$token" in
    coffer_*) ;;
    *) say "coffer clients add printed no token (got '$token')"; exit 1 ;;
esac
"$coffer" clients authorize fuzz --store "$store" --accounts all --types accounts,accountBalances,transactions,orders >/dev/null

"$coffer" serve --store "$store" --listen 127.0.0.1:0 >"$tmp/serve.out" 2>"$tmp/serve.err" &
server_pid=$!
port=""
for _ in $(seq 300); do
    port="$(sed -n 's#^listening on http://127\.0\.0\.1:\([0-9][0-9]*\)$#\1#p' "$tmp/serve.out" | head -n 1)"
    [ -n "$port" ] && break
    if ! kill -0 "$server_pid" 2>/dev/null; then
        cat "$tmp/serve.err" >&2
        say "coffer serve exited before listening"
        exit 1
    fi
    sleep 0.1
done
if [ -z "$port" ]; then
    cat "$tmp/serve.err" >&2
    say "coffer serve did not say where it listens within 30 s"
    exit 1
fi
base="http://127.0.0.1:$port"
say "coffer serve listening on $base (pid $server_pid)"

# --- schemathesis -------------------------------------------------------------------------------------------
seed=()
[ -n "${FUZZ_API_SEED:-}" ] && seed=(--seed "$FUZZ_API_SEED")
set +e
(
    cd "$tmp"  # schemathesis and hypothesis write their folders to the working directory
    "$st" run "$base/openapi.json" \
        --url "$base" \
        --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
        --header "Authorization: Bearer $token" \
        --exclude-operation-id streamHistory \
        --max-examples "$examples" \
        --request-timeout 30 \
        ${seed[@]+"${seed[@]}"} "$@"
)
status=$?
set -e
if [ "$status" -ne 0 ]; then
    if [ -s "$tmp/serve.err" ]; then
        say "the server's log (last 40 lines):"
        tail -n 40 "$tmp/serve.err" >&2
    fi
    say "schemathesis found problems (exit $status)"
fi
exit "$status"
