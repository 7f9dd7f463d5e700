#!/usr/bin/env python3
"""Coffer's public API as sorted text lines, from the symbol graphs `swift package dump-symbol-graph` writes.

Usage: public-api.py SYMBOLGRAPH_DIR            the list (api/public-api.txt holds the checked-in one)
       public-api.py --undocumented SYMBOLGRAPH_DIR   public symbols without a doc comment (exit 1 if any)

One line per public declaration: `Module  Path.to.symbol  declaration`, and one per conformance of a public type
(`Module  Type  : Protocol`). Only the library modules count; tests, the CLI and the benchmark are not API.
Written by hand because neither the symbol graph tool nor `diagnose-api-breaking-changes` prints a stable,
diffable list without building the previous commit a second time.
"""
import json
import os
import sys

LIBRARIES = ["CofferModel", "CofferFormats", "CofferStore", "CofferPipeline", "CofferExport", "CofferWatch", "Coffer"]


def declaration(symbol):
    return "".join(f["spelling"] for f in symbol.get("declarationFragments", [])).replace("\n", " ")


def graphs(folder):
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".symbols.json"):
            continue
        module = name[: -len(".symbols.json")].split("@")[0]
        if module in LIBRARIES:
            with open(os.path.join(folder, name)) as f:
                yield module, json.load(f)


def main():
    args = sys.argv[1:]
    undocumented = "--undocumented" in args
    args = [a for a in args if a != "--undocumented"]
    if len(args) != 1:
        sys.exit(__doc__)
    lines, missing = set(), set()
    for module, graph in graphs(args[0]):
        names = {s["identifier"]["precise"]: ".".join(s["pathComponents"]) for s in graph["symbols"]}
        for s in graph["symbols"]:
            if s.get("accessLevel") not in ("public", "open"):
                continue
            path = ".".join(s["pathComponents"])
            lines.add(f"{module}  {path}  {declaration(s)}")
            if not s.get("docComment") and s["kind"]["identifier"] not in ("swift.enum.case",):
                missing.add(f"{module}  {path}")
        for r in graph.get("relationships", []):
            if r["kind"] != "conformsTo" or r["source"] not in names:
                continue
            target = r.get("targetFallback") or names.get(r["target"]) or r["target"]
            lines.add(f"{module}  {names[r['source']]}  : {target.split('.')[-1]}")
    if undocumented:
        print("\n".join(sorted(missing)))
        sys.exit(1 if missing else 0)
    print("\n".join(sorted(lines)))


if __name__ == "__main__":
    main()
