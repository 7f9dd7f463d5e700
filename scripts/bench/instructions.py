#!/usr/bin/env python3
"""Instructions an import executes, and where it copies values, counted by callgrind: exact and repeatable where
wall and CPU time on this shared 2-core machine move by 5-30% from run to run.

    scripts/bench/instructions.py FILE BIN [BIN2 ...] [--top N]

Each binary imports FILE into a new store under valgrind's callgrind. Printed per binary: the instructions of the
whole process (Ir) and, per transaction of FILE, the string and object retains (`swift_bridgeObjectRetain`,
`swift_retain`) by the function that made them. Most come from whole-struct copies (`…Vwcp`, `…OWOy`: a
transaction's value copy retains a dozen strings, and its release later releases them), so this is the list to
read when a change means to move values instead of copying them. With several binaries, the last line gives each
one's Ir against the first.

Valgrind 3.19 cannot read Swift 6.3's DWARF 5, so each binary is run from a copy without debug information
(`objcopy --strip-debug`); symbols stay. Use a small file (10k transactions: about 20 s a binary). Callgrind counts
instructions, not their cost: an atomic retain counts as a few instructions but may cost more, and a cache miss
nothing. Read it beside paired timings (scripts/bench/alternate.py), not instead of them.
"""
import os, re, subprocess, sys, tempfile

args = sys.argv[1:]
top = 12
if "--top" in args:
    i = args.index("--top")
    top = int(args[i + 1])
    del args[i:i + 2]
if len(args) < 2:
    sys.exit(__doc__)
data, bins = args[0], args[1:]
text = open(data, "rb").read()
count = text.count(b"<STMTTRN>") or text.count(b"<Ntry>") or max(text.count(b"\n") - 1, 1)

def callers(tree, function):
    """(calls, caller) for each direct caller of `function` in callgrind_annotate --tree=caller output."""
    for block in tree.split("\n\n"):
        if not re.search(r"\*  \S*:" + re.escape(function) + r" \[", block):
            continue
        rows = []
        for line in block.splitlines():
            m = re.match(r"\s*[\d,]+ .*< \S*?:(\S+) \(([\d,]+)x\)", line)
            if m:
                rows.append((int(m.group(2).replace(",", "")), m.group(1)))
        return sorted(rows, reverse=True)
    return []

def demangle(names):
    try:
        out = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(names),
                             capture_output=True, text=True, check=True).stdout.splitlines()
        return out if len(out) == len(names) else names
    except (OSError, subprocess.CalledProcessError):
        return names

totals = []
with tempfile.TemporaryDirectory() as tmp:
    for b in bins:
        stripped = os.path.join(tmp, "coffer")
        subprocess.run(["objcopy", "--strip-debug", b, stripped], check=True)
        store, out = os.path.join(tmp, "s.sqlite"), os.path.join(tmp, "cg.out")
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(store + suffix):
                os.remove(store + suffix)
        run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", stripped, "import",
                              "--store", store, data], capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"{b}: the import failed under valgrind:\n{run.stderr[-2000:]}")
        ir = int(re.search(r"Collected : (\d+)", run.stderr).group(1))
        totals.append(ir)
        tree = subprocess.run(["callgrind_annotate", "--tree=caller", out], capture_output=True, text=True).stdout
        print(f"== {b}: {ir:,} instructions ({ir / count:,.0f} a transaction of {count:,})")
        retains = callers(tree, "swift_bridgeObjectRetain") + [
            r for r in callers(tree, "swift_retain") if r[1] != "swift_bridgeObjectRetain"]
        total = sum(n for n, _ in retains)
        print(f"   retains: {total / count:.1f} a transaction; by caller:")
        rows = sorted(retains, reverse=True)[:top]
        for (n, _), name in zip(rows, demangle([name for _, name in rows])):
            print(f"   {n / count:7.1f}  {name[:150]}")
if len(totals) > 1:
    print("Ir against the first: " + ", ".join(f"{b}: {ir / totals[0]:.4f}x" for b, ir in zip(bins, totals)))
