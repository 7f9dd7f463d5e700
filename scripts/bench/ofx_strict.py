#!/usr/bin/env python3
"""Copy a scripts/gen-ofx.py statement into the strict shape ofxtools' converter insists on.

Usage: ofx_strict.py IN.ofx OUT.ofx
Adds <LANGUAGE>ENG to SONRS and moves <SIC> before <NAME> (the OFX spec's element order); the transactions are
the same. Coffer and ofxparse read the original files; ofxtools rejects them at convert() without this.
"""
import sys


def main():
    src, dst = sys.argv[1], sys.argv[2]
    seen_server = False
    held = []  # NAME and MEMO lines, written after SIC (or at the end of the transaction)
    with open(src, encoding="utf-8") as f, open(dst, "w", encoding="utf-8", newline="\n") as out:
        for line in f:
            if not seen_server and "<DTSERVER>" in line:
                seen_server = True
                xml = "</DTSERVER>" in line
                line = line.replace("<FI>", "<LANGUAGE>ENG</LANGUAGE><FI>" if xml else "<LANGUAGE>ENG<FI>", 1)
            if line.startswith("<NAME>") or line.startswith("<MEMO>"):
                held.append(line)
                continue
            if line.startswith("<SIC>"):
                out.write(line)
                line = ""
            out.write("".join(held) + line)
            held = []


if __name__ == "__main__":
    main()
