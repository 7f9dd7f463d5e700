#!/usr/bin/env bash
# Imports hostile statement files through the real CLI and prints each one's outcome and peak memory.
#
#   scripts/hostile-inputs.sh [path-to-coffer]      # default: .build/debug/coffer (run `swift build` first)
#
# Files are generated into .build-fuzz/hostile/ (gitignored): 50 MB lines without a newline (CSV, OFX, camt),
# deep nesting (OFX, camt), an XML entity bomb, one huge OFX value, and UTF-16 versions of the camt ones and of a
# CSV row. Each import must end with a clear error
# (exit code 1 or 65) or succeed; a crash (signal), a hang (killed after 120 s) or memory far above the file's
# size fails the run. Peak memory is /usr/bin/time's "Maximum resident set size". See docs/fuzzing.md.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
coffer="${1:-$root/.build/debug/coffer}"
out="$root/.build-fuzz/hostile"
mkdir -p "$out"
[ -x "$coffer" ] || { echo "hostile-inputs.sh: no coffer binary at $coffer (swift build first)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "hostile-inputs.sh: needs GNU time (apt-get install time)" >&2; exit 2; }

python3 - "$out" <<'PY'
import sys, os
out = sys.argv[1]
mb = 50 * 1024 * 1024
def write(name, *parts):
    with open(os.path.join(out, name), "wb") as f:
        for p in parts:
            f.write(p)
chase = b"Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #\n"
# CSV (named as Chase names downloads: the profile reads the account from the file name): a header, then one 50 MB row with no newline and no delimiter; then one 50 MB quoted field left open.
write("Chase1234_Activity_50mb-line.CSV", chase, b"DEBIT,03/14/2026,", b"A" * mb)
write("Chase1234_Activity_50mb-quoted.CSV", chase, b'DEBIT,03/14/2026,"', b"B" * mb)
# CSV: 50 MB of delimiters on one line (2.6 million empty fields).
write("Chase1234_Activity_50mb-commas.CSV", chase, b"," * mb)
sgml = b"OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><BANKID>1<ACCTID>2<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST><DTSTART>20260101<DTEND>20260131"
trn = b"<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>202601%02d<TRNAMT>-%d.%02d<FITID>%d<NAME>Coffee<MEMO>%s</STMTTRN>"
# OFX: 50 MB on one line, no newline anywhere: 10,000 transactions with 5 KB memos (must import; more
# transactions would measure the pipeline's speed, not the tokenizer). Days and amounts vary: the pipeline's
# cross-source match reads every stored transaction of the same day and amount (see docs/fuzzing.md).
one = lambda i: trn % (1 + i % 28, i // 100, i % 100, i, b"m" * 5200)
body = b"".join(one(i) for i in range(mb // len(one(10000))))
write("ofx-50mb-one-line.ofx", sgml, body, b"</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>")
# OFX: one 50 MB NAME value, and 50 MB of text before <OFX> with no header.
write("ofx-50mb-value.ofx", sgml, b"<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260105<TRNAMT>-1<FITID>1<NAME>", b"N" * mb)
write("ofx-50mb-prolog.ofx", b"OFXHEADER:100 ", b"X" * mb)
# OFX: 100,000 nested unknown aggregates.
write("ofx-deep.ofx", sgml, b"<STMTTRN>" + b"<A>" * 100000 + b"x" + b"</A>" * 100000)
ns = b"urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"
camt = b'<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="' + ns + b'"><BkToCstmrStmt>'
# camt: 100,000 nested elements; an entity bomb (billion laughs); a 50 MB text node on one line.
write("camt-deep.xml", camt, b"<X>" * 100000, b"</X>" * 100000, b"</BkToCstmrStmt></Document>")
lol = b'<?xml version="1.0"?>\n<!DOCTYPE Document [\n<!ENTITY a "aaaaaaaaaa">\n'
for i in range(1, 10):
    lol += b'<!ENTITY %s "%s">\n' % (bytes([97 + i]), (b"&" + bytes([96 + i]) + b";") * 10)
lol += b']>\n<Document xmlns="' + ns + b'"><BkToCstmrStmt><GrpHdr><MsgId>&j;</MsgId></GrpHdr></BkToCstmrStmt></Document>'
write("camt-bomb.xml", lol)
write("camt-50mb-text.xml", camt, b"<GrpHdr><MsgId>", b"M" * mb, b"</MsgId></GrpHdr></BkToCstmrStmt></Document>")
# The same bomb, deep nesting and 50 MB text as UTF-16 (converted as read, in front of the same checks), and a
# UTF-16 OFX value of 50 MB with a lone surrogate at its end.
u16 = lambda data, order="le": (b"\xff\xfe" if order == "le" else b"\xfe\xff") + data.decode("latin-1").encode("utf-16-" + order)
write("camt-utf16-bomb.xml", u16(lol))
write("camt-utf16-deep.xml", u16(camt + b"<X>" * 100000 + b"</X>" * 100000 + b"</BkToCstmrStmt></Document>", "be"))
write("camt-utf16-50mb-text.xml", u16(camt + b"<GrpHdr><MsgId>" + b"M" * mb + b"</MsgId></GrpHdr></BkToCstmrStmt></Document>"))
# A whole camt document followed by 50 MB of NUL padding (read to its end, chunk by chunk, then ignored).
write("camt-50mb-nul-tail.xml", camt, b"<GrpHdr><MsgId>M</MsgId></GrpHdr></BkToCstmrStmt></Document>\n", b"\0" * mb)
# A camt file declared ISO-8859-15 with a 50 MB text of 8-bit bytes (converted by Coffer as read).
write("camt-latin9-50mb-text.xml", camt.replace(b'"UTF-8"', b'"ISO-8859-15"'), b"<GrpHdr><MsgId>", b"\xe4" * mb,
      b"</MsgId></GrpHdr></BkToCstmrStmt></Document>")
write("ofx-utf16-50mb-value.ofx", u16(sgml + b"<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260105<TRNAMT>-1<FITID>1<NAME>" + b"N" * mb), b"\x3d\xd8")
# CSV as Excel's "Unicode Text" (UTF-16 with a BOM, converted as read since stop 44): one 50 MB row with no newline,
# and a file whose last character is cut in half.
write("Chase1234_Activity_utf16-50mb-line.CSV", u16(chase + b"DEBIT,03/14/2026," + b"A" * mb))
write("Chase1234_Activity_utf16-cut.CSV", u16(chase + b"DEBIT,03/14/2026,Coffee,-4.50,DEBIT_CARD,100.00,\n")[:-1])
PY

status=0
scratch="$(mktemp -d)"
printf '%-34s %5s %9s %7s  %s\n' file exit peak-MB seconds "first line of output"
for file in "$out"/*; do
    store="$scratch/store.sqlite"
    rm -f "$store" "$store"-wal "$store"-shm
    timeout 120 /usr/bin/time -v -o "$scratch/time.txt" "$coffer" import --store "$store" --config "$root/config" \
        "$file" >"$scratch/output.txt" 2>&1
    rc=$?
    peak=$(awk -F': ' '/Maximum resident set size/ {printf "%d", $2 / 1024}' "$scratch/time.txt")
    secs=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$scratch/time.txt")
    first=$(grep -v '^\s*$' "$scratch/output.txt" | head -1 | cut -c1-110)
    printf '%-34s %5s %9s %7s  %s\n' "$(basename "$file")" "$rc" "$peak" "$secs" "$first"
    if [ "$rc" -ge 124 ] || grep -q 'Fatal error\|Segmentation\|signal' "$scratch/output.txt"; then status=1; fi
done
rm -rf "$scratch"
exit $status
