#!/usr/bin/env python3
"""Splits a `coffer import`'s CPU into pipeline stages from a perf profile recorded with call graphs.

Usage: perf_split.py PERF_DATA TRANSACTIONS   (prints `key value` lines: split.<stage>.share and .us_per_tx)

Reads `perf script` of a `perf record -F 499 --call-graph dwarf` run. Each sample goes to the stage of the frame
nearest its leaf that belongs to one (so a malloc or a retain counts for whoever called it): SQLite (libsqlite3),
parse (CofferFormats, libxml2), normalize (the preparer, description normalizer and cleaner, fingerprints, rules),
match (matcher and import session), store (CofferStore's Swift around SQLite: binding, decoding, the writer), pipe
(handing events between the parsing and writing threads), kernel (I/O and page faults with no Coffer frame), other
(start-up, the Swift runtime and libraries with no Coffer caller).
"""
import re
import subprocess
import sys

STAGES = [  # (stage, pattern on the symbol) in the order tried for each frame
    ("normalize", re.compile(r"TransactionPreparer|DescriptionNormalizer|DescriptionCleaner|Fingerprint|MerchantRule|"
                             r"TransactionTypeInference|CategoryMCCTable|SearchFolding")),
    ("match", re.compile(r"\d+Matcher|ImportSession|MatchCandidates|TextSimilarity|MatchDecision")),
    ("pipe", re.compile(r"ImportPipe")),
    ("parse", re.compile(r"13CofferFormats|^xml|^xmlSAX")),
    ("store", re.compile(r"11CofferStore")),
]
ORDER = ["parse", "normalize", "match", "store", "SQLite", "pipe", "kernel", "other"]


def stage_of(frames):
    kernel = False
    for sym, dso in frames:
        if "libsqlite3" in dso:
            return "SQLite"
        if "libxml2" in dso:
            return "parse"
        if dso.startswith("[kernel"):
            kernel = True
            continue
        for stage, pattern in STAGES:
            if pattern.search(sym):
                return stage
    return "kernel" if kernel and frames and frames[0][1].startswith("[kernel") else "other"


def main():
    data, count = sys.argv[1], int(sys.argv[2])
    text = subprocess.run(["perf", "script", "-i", data, "-F", "period,ip,sym,dso"], capture_output=True,
                          text=True, errors="replace").stdout
    totals = {s: 0 for s in ORDER}
    for block in text.split("\n\n"):
        lines = [l for l in block.strip("\n").split("\n") if l.strip()]
        if not lines:
            continue
        try:
            period = int(lines[0].split()[-1])
        except ValueError:
            continue
        frames = []
        for line in lines[1:]:
            m = re.match(r"\s*[0-9a-f]+\s+(.*?)\s+\((.*)\)\s*$", line)
            if m:
                frames.append((m.group(1), m.group(2)))
        totals[stage_of(frames)] += period
    whole = sum(totals.values()) or 1
    for s in ORDER:
        print(f"split.{s}.share {totals[s] / whole:.4f}")
        print(f"split.{s}.us_per_tx {totals[s] / 1000 / count:.3f}")
    print(f"split.total.us_per_tx {whole / 1000 / count:.3f}")


main()
