#!/usr/bin/env bash
# Builds one libFuzzer binary per statement parser and runs each for a bounded time.
#
#   scripts/fuzz.sh [seconds-per-target] [target...]     # targets: ofx camt csv mt940 qif (default: all five)
#
# Everything goes to .build-fuzz/ (gitignored): the SwiftPM build of CofferFormats and its dependencies with
# -sanitize=fuzzer,address (spm/), the three fuzzers (bin/), seed corpora copied from feeds/ at run time
# (corpus/<target>/, grown by the run), crash and hang inputs (crashes/<target>/) and logs (logs/).
# Exits non-zero when any target found a crash, a hang (-timeout) or ran out of memory (-rss_limit_mb).
# See docs/fuzzing.md.
set -euo pipefail

seconds="${1:-300}"
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(ofx camt csv mt940 qif)

root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/.build-fuzz"
spm="$out/spm"
cd "$root"

# libFuzzer and the ASan runtime ship with the Swift toolchain (lib/clang/*/lib/linux/libclang_rt.*.a); the
# link needs the C++ runtime, which a toolchain install on Debian/Ubuntu already pulls in.
swiftc_bin="$(command -v swiftc || true)"
if [ -z "$swiftc_bin" ]; then
    echo "fuzz.sh: swiftc not found; install the Swift toolchain (e.g. under /opt/swift) and put it on PATH" >&2
    exit 2
fi
toolchain="$(dirname "$(dirname "$(readlink -f "$swiftc_bin")")")"
if ! ls "$toolchain"/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a >/dev/null 2>&1 &&
   ! ls "$toolchain"/lib/swift/clang/lib/linux/libclang_rt.fuzzer-*.a >/dev/null 2>&1; then
    echo "fuzz.sh: this toolchain ($toolchain) has no libFuzzer runtime; use a swift.org Linux toolchain" >&2
    exit 2
fi
if ! ldconfig -p 2>/dev/null | grep -q 'libstdc++.so.6'; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "fuzz.sh: installing libstdc++ (needed by the fuzzer and ASan runtimes)"
        apt-get update -qq && apt-get install -y -qq libstdc++6
    else
        echo "fuzz.sh: libstdc++.so.6 is missing; run as root or: apt-get install libstdc++6" >&2
        exit 2
    fi
fi

flags=(-sanitize=fuzzer,address)
echo "== building CofferFormats with ${flags[*]} (release) into $spm"
mkdir -p "$out/logs"
if ! swift build -c release --build-path "$spm" --target CofferFormats \
    $(printf -- '-Xswiftc %s ' "${flags[@]}") >"$out/logs/build.log" 2>&1; then
    cat "$out/logs/build.log" >&2
    echo "fuzz.sh: the instrumented build failed" >&2
    exit 2
fi
rel="$spm/release"
objects=()
# Every module of the instrumented build: CofferFormats and what it depends on (CofferModel, Yams, and since the
# orders of issue 18 ZIPFoundation, X509, SwiftASN1 and swift-crypto with their C parts). The build path is the
# fuzzer's own, so it holds nothing else.
for build in "$rel"/*.build; do
    while IFS= read -r object; do objects+=("$object"); done < <(find "$build" -name '*.o')
done
cyaml_include="$(find "$spm/checkouts" -path '*Sources/CYaml/include' -type d | head -1)"
# The C modules' headers and module maps, for the Swift modules that import them.
extra_includes=()
for mm in "$rel"/*.build/module.modulemap; do [[ -f $mm ]] && extra_includes+=(-Xcc "-fmodule-map-file=$mm"); done
while IFS= read -r include; do extra_includes+=(-I "$include"); done < <(find "$spm/checkouts" \
    \( -path '*Sources/CZLib' -o -path '*Sources/CCryptoBoringSSL*/include' -o -path '*Sources/_CertificateInternals/include' \) -type d)

package_name="$(basename "$root" | tr 'A-Z' 'a-z' | sed 's/[^a-z0-9]/_/g')"
mkdir -p "$out/bin" "$out/logs"
for target in "${targets[@]}"; do
    case "$target" in
        ofx) name=OFXFuzz ;; camt) name=CamtFuzz ;; csv) name=CSVFuzz ;; mt940) name=MT940Fuzz ;; qif) name=QIFFuzz ;;
        *) echo "fuzz.sh: unknown target '$target' (ofx, camt, csv, mt940, qif)" >&2; exit 2 ;;
    esac
    echo "== linking $name"
    # lld (in the toolchain) rather than gold, which warns about every ASan helper symbol.
    # The parsers are `package` symbols (issue 15): the entry point joins the package SwiftPM compiled them in, whose
    # name is the root folder's, lower-cased, with other characters than letters and digits as '_'.
    # CofferFormats imports CLibXML2 (Sources/CLibXML2/module.modulemap), whose headers pkg-config finds.
    swiftc -O -parse-as-library "${flags[@]}" -use-ld=lld -module-name "$name" -package-name "$package_name" \
        -I "$rel/Modules" -I "$cyaml_include" -I Sources/CLibXML2 "${extra_includes[@]}" -lz -lstdc++ \
        $(pkg-config --cflags-only-I libxml-2.0 | sed 's/-I/-Xcc -I/g') -lxml2 \
        "Fuzz/$name/main.swift" "${objects[@]}" -o "$out/bin/$name"
done

# UTF-16 copies of some samples (LE with a BOM, BE without), so the fuzzer starts inside the UTF-16 conversion.
utf16_seeds() {
    local target="$1" f
    shift
    for f in "$@"; do
        iconv -f UTF-8 -t UTF-16 "$f" > "$out/corpus/$target/$(basename "$f").utf16" 2>/dev/null || true
        iconv -f UTF-8 -t UTF-16BE "$f" > "$out/corpus/$target/$(basename "$f").utf16be" 2>/dev/null || true
    done
}

# Seeds: the sample statements and the real-world shapes (Tests/Golden/*-shapes), copied fresh each run (the corpus folder keeps what the fuzzer adds).
seed() {
    local target="$1" corpus="$out/corpus/$1"
    mkdir -p "$corpus"
    case "$target" in
        ofx) cp feeds/ofx/*.ofx feeds/ofx/*.qfx feeds/ofx/*.qbo Tests/Golden/ofx-shapes/*.ofx \
                Tests/Golden/ofx-shapes/*.qfx Tests/Golden/ofx-shapes/*.qbo "$corpus/" 2>/dev/null || true
             utf16_seeds ofx feeds/ofx/*.qfx ;;
        camt) for f in feeds/camt/*.xml Tests/Golden/camt-shapes/*.xml; do cp "$f" "$corpus/"; done
              utf16_seeds camt feeds/camt/*.xml ;;
        mt940|qif)
            # The samples and the shape fixtures (for qif behind the byte that picks the date order: none, dmy,
            # mdy), and the corpus saved by earlier runs (Tests/Golden/fuzz-corpus, already in the fuzzer's form).
            local f i
            for f in feeds/"$target"/* Tests/Golden/"$target"-shapes/*; do
                case "$f" in *.expected.json|*.events|*.md|*.tsv) continue ;; esac
                [ -f "$f" ] || continue
                if [ "$target" = mt940 ]; then cp "$f" "$corpus/"; continue; fi
                for i in 0 1 2; do
                    { printf "\\$(printf '%03o' "$i")"; cat "$f"; } > "$corpus/$(basename "$f" | tr ' ' _).o$i"
                done
            done
            if [ -d "Tests/Golden/fuzz-corpus/$target" ]; then cp Tests/Golden/fuzz-corpus/"$target"/* "$corpus/" 2>/dev/null || true; fi ;;
    esac
}

status=0
for target in "${targets[@]}"; do
    case "$target" in ofx) name=OFXFuzz ;; camt) name=CamtFuzz ;; csv) name=CSVFuzz ;; mt940) name=MT940Fuzz ;; qif) name=QIFFuzz ;; esac
    seed "$target"
    crashes="$out/crashes/$target"
    mkdir -p "$crashes"
    log="$out/logs/$target.log"
    echo "== running $name for ${seconds}s (log: $log)"
    set +e
    COFFER_FUZZ_PROFILES="$root/config/profiles" ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" \
        "$out/bin/$name" "$out/corpus/$target" \
        -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -max_len=65536 \
        -artifact_prefix="$crashes/" -print_final_stats=1 >"$log" 2>&1
    rc=$?
    set -e
    grep -E '^stat::number_of_executed_units|^stat::average_exec_per_sec|^stat::peak_rss_mb' "$log" | sed 's/^/   /'
    if [ $rc -ne 0 ]; then
        echo "   FAILED (exit $rc): $(ls -t "$crashes" | head -1) — see $log"
        status=1
    fi
    if [ "${FUZZ_SAVE_CORPUS:-0}" = 1 ]; then
        saved="$root/Tests/Golden/fuzz-corpus/$target"
        mkdir -p "$saved"
        ASAN_OPTIONS="detect_leaks=0" "$out/bin/$name" -merge=1 -max_len=65536 -timeout=5 "$saved" "$out/corpus/$target" \
            >"$out/logs/$target-merge.log" 2>&1 || true
        echo "   corpus saved: $(ls "$saved" | wc -l) input(s) in Tests/Golden/fuzz-corpus/$target"
    fi
done
exit $status
