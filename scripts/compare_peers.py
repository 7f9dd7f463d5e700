#!/usr/bin/env python3
"""Compare Coffer's OFX reading with two Python peers, ofxtools and ofxparse, file by file.

Usage (from the repository root; scripts/compare-peers.sh is the entry point):

    scripts/compare_peers.py [FOLDER_OR_FILE ...]      default: feeds/ofx Tests/Golden/ofx-shapes

Environment: COFFER_BIN (default .build/debug/coffer), PEER_TIMEOUT (seconds per tool and file, default 60).

For every .ofx/.qfx/.qbo file it runs
  (a) ofxtools  OFXTree().parse(path) then .convert()
  (b) ofxparse  OfxParser.parse(open(path, "rb"))          (fail_fast, the library's default)
  (c) Coffer    COFFER_BIN import --json into a new store (accepts or refuses, with its warnings), and
                COFFER_BIN parse FILE --format ndjson for what it read (one FinanceKit transaction per line)
and prints one row per file: each tool's transaction count and signed total, or REJECT and why, and a verdict.

The rule
--------
* A peer "reads" a file when it parses it without raising AND finds at least one statement (STMTRS, CCSTMTRS or
  INVSTMTRS). A file a peer parses but in which it finds no statement counts as a rejection ("no statement"): a
  file without a statement must not become a silent "imported 0" in Coffer.
* When one peer reads a file, Coffer must read it too (exit 0) with the same transaction count and the same
  signed total as a peer that read it (when both read it and differ, matching either one is enough).
* When both peers reject a file, Coffer must reject it too: non-zero exit and a located message on stderr
  ("NAME:LINE" with NAME the file's name).
* Deliberate differences override the peers. A folder may hold `expected.tsv` (see Tests/Golden/ofx-shapes):
  one row per file with the outcome Coffer is designed to have — `read COUNT TOTAL [STDERR-REGEX]` or
  `reject - - [MESSAGE-REGEX]`. It is used where Coffer goes beyond the peers on purpose (e.g. reading a file
  whose header both peers refuse, recovering an unclosed element) or stops where they go on (an empty CURDEF or
  a missing account, which Coffer refuses without --currency / --account; there `coffer parse`, which reads
  without a store, must still read what the peer reads, since that is what the import stores once told). For a file both peers reject that has
  no row there, a `FILE.expected.json` golden beside it (feeds/ofx) that says "imported" gives the expected count
  and total instead. A row's regex must also be found in Coffer's stderr (a warning when reading, the reason
  when rejecting); a rejection must always be located.

What is counted, the same way for all three
-------------------------------------------
* Bank and credit-card statements: every STMTTRN in BANKTRANLIST.
* Investment statements: only the cash transactions, i.e. the STMTTRN inside INVBANKTRAN. Coffer imports those
  and skips trades (BUYSTOCK, ...) and positions; ofxparse puts trades in statement.transactions as
  InvestmentTransaction objects, which are left out here; ofxtools' INVTRANLIST is filtered to INVBANKTRAN.
* Signed total: the sum of TRNAMT (credit +, debit -). Coffer prints a positive amount and a credit/debit
  indicator; credit counts +, debit -. All sums are Decimal, never float.
* A STMTTRN with a CURRENCY aggregate has its TRNAMT in CURSYM (OFX 2.2, 5.2); Coffer reports it in the
  statement's currency, TRNAMT x CURRATE, so the peers' TRNAMT is multiplied by CURRATE there too. ORIGCURRENCY
  leaves TRNAMT in the statement's currency: nothing changes. ofxparse does not keep CURRENCY, so the rate is
  read from the same parsed element it builds the transaction from (see _ofxparse_rates).
* Corrections (CORRECTACTION) and repeated FITIDs are counted as the transactions they are: `coffer parse`
  matches nothing and prints every transaction, as the peers list every STMTTRN.

Exit status: 0 when every file agrees, 1 when any disagrees, 2 when the peers or the Coffer binary are missing.
"""
from __future__ import annotations

import csv
import json
import os
import re
import signal
import subprocess
import tempfile
import sys
import warnings
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

DEFAULT_FOLDERS = ["feeds/ofx", "Tests/Golden/ofx-shapes"]
EXTENSIONS = {".ofx", ".qfx", ".qbo"}
TIMEOUT = int(os.environ.get("PEER_TIMEOUT", "60"))


def install_hint() -> str:
    return ("the peers are missing: install them with\n"
            "    python3 -m pip install ofxtools==1.1.1 ofxparse==0.21\n"
            "(or point PYTHON at an interpreter that has them, e.g. PYTHON=bench-out/venv/bin/python)")


try:
    warnings.filterwarnings("ignore")
    from ofxtools.Parser import OFXTree
    import ofxparse
except ImportError:
    print(f"compare-peers: {install_hint()}", file=sys.stderr)
    sys.exit(2)


@dataclass
class Outcome:
    read: bool
    count: int = 0
    total: Decimal = Decimal(0)
    reason: str = ""      # why it rejected (peers: exception; Coffer: first stderr line)
    stderr: str = ""      # Coffer only: all of stderr
    # Coffer only, when the import refused the file on purpose (no currency, no account): what `coffer parse`
    # read from it, i.e. what `coffer import --currency/--account` would store.
    parsed: tuple[int, Decimal] | None = None

    def cell(self, path: Path) -> str:
        if self.read:
            return f"{self.count} / {show(self.total)}"
        # Coffer's messages start with the file's path: keep only where in it ("@14:1").
        reason = re.sub(r"^.*?" + re.escape(path.name) + r":(\d+(?::\d+)?):?\s*", r"@\1 ", self.reason)
        return "REJECT " + shorten(reason, 34)

    def same_numbers(self, other: "Outcome") -> bool:
        return self.count == other.count and self.total == other.total


def show(total: Decimal) -> str:
    """A total as people write it: 2 decimals unless it has more significant ones (-158.500000 -> -158.50)."""
    cents = total.quantize(Decimal("0.01"))
    return str(cents) if cents == total else str(total.normalize())


def shorten(text: str, width: int) -> str:
    text = " ".join(text.split())
    text = "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)
    return text if len(text) <= width else text[: width - 1] + "…"


class Timeout(Exception):
    pass


def _alarm(_signum, _frame):
    raise Timeout(f"timed out after {TIMEOUT}s")


def guarded(run, path: Path) -> Outcome:
    """Run one peer on one file; any exception (or none-statement result) is a rejection."""
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIMEOUT)
    try:
        return run(path)
    except RecursionError:
        return Outcome(False, reason="RecursionError")
    except Exception as error:  # noqa: BLE001 - every failure of a peer is a rejection, reported by name
        first = str(error).strip().splitlines()[0] if str(error).strip() else ""
        return Outcome(False, reason=f"{type(error).__name__}: {first}")
    finally:
        signal.alarm(0)


# --- ofxtools -------------------------------------------------------------------------------------------------
def run_ofxtools(path: Path) -> Outcome:
    tree = OFXTree()
    tree.parse(str(path))
    ofx = tree.convert()
    statements = list(ofx.statements)
    if not statements:
        return Outcome(False, reason="no statement")
    count, total = 0, Decimal(0)
    for statement in statements:
        kind = type(statement).__name__
        if kind in ("STMTRS", "CCSTMTRS"):
            # BANKTRANLIST is optional: a statement without one holds no transaction.
            transactions = list(statement.banktranlist or [])
        elif kind == "INVSTMTRS":
            # Only cash transactions: INVBANKTRAN wraps one STMTTRN; trades and positions are not counted.
            transactions = [entry.stmttrn for entry in (statement.invtranlist or [])
                            if type(entry).__name__ == "INVBANKTRAN"]
        else:
            continue
        for stmttrn in transactions:
            amount = Decimal(stmttrn.trnamt)
            if stmttrn.currency is not None and stmttrn.currency.currate is not None:
                amount *= Decimal(stmttrn.currency.currate)
            count += 1
            total += amount
    return Outcome(True, count, total)


# --- ofxparse -------------------------------------------------------------------------------------------------
_original_parse_transaction = ofxparse.OfxParser.parseTransaction.__func__


def _ofxparse_rates(cls, txn_ofx):
    """ofxparse's own parseTransaction, plus the CURRENCY rate read from the same parsed STMTTRN element."""
    transaction = _original_parse_transaction(cls, txn_ofx)
    transaction.coffer_currate = None
    currency = txn_ofx.find("currency")
    if currency is not None:
        rate = currency.find("currate")
        if rate is not None and rate.contents:
            text = str(rate.contents[0]).strip()
            try:
                transaction.coffer_currate = Decimal(text)
            except InvalidOperation:
                pass
    return transaction


ofxparse.OfxParser.parseTransaction = classmethod(_ofxparse_rates)


def run_ofxparse(path: Path) -> Outcome:
    with open(path, "rb") as handle:
        ofx = ofxparse.OfxParser.parse(handle)
    statements = [account.statement for account in ofx.accounts if getattr(account, "statement", None) is not None]
    if not statements:
        return Outcome(False, reason="no statement")
    count, total = 0, Decimal(0)
    for statement in statements:
        for transaction in statement.transactions:
            # Investment statements mix trades (InvestmentTransaction) with INVBANKTRAN cash transactions
            # (Transaction): only the latter are counted.
            if not isinstance(transaction, ofxparse.Transaction):
                continue
            amount = Decimal(transaction.amount)
            if getattr(transaction, "coffer_currate", None) is not None:
                amount *= transaction.coffer_currate
            count += 1
            total += amount
    return Outcome(True, count, total)


# --- Coffer ---------------------------------------------------------------------------------------------------
def run_coffer(binary: str, path: Path) -> Outcome:
    """Whether Coffer imports the file, and what it reads from it.

    Acceptance and messages come from a real `coffer import --json` into a new store in a temporary folder (so
    an empty CURDEF or a missing account is refused exactly as a user would see it); the count and signed total
    come from `coffer parse --format ndjson`, which prints every transaction the parser read, normalized, before
    any matching (an import applies CORRECTACTION deletes and merges repeats, which the peers do not)."""
    with tempfile.TemporaryDirectory(prefix="coffer-compare-") as folder:
        try:
            imported = subprocess.run([binary, "import", "--json", "--store", os.path.join(folder, "s.sqlite"),
                                       str(path)], capture_output=True, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            return Outcome(False, reason=f"import timed out after {TIMEOUT}s")
    try:
        summary = json.loads(imported.stdout.decode("utf-8"))
        report = summary["files"][0]
    except (ValueError, KeyError, IndexError):
        text = imported.stderr.decode("utf-8", "replace").strip()
        return Outcome(False, reason=text.splitlines()[0] if text else f"import exit {imported.returncode}",
                       stderr=text)
    messages = "\n".join(report.get("warnings", []))
    parsed = run_coffer_parse(binary, path)
    if report.get("status") != "imported":
        error = report.get("error", {}).get("description", report.get("status", "failed"))
        numbers = None if isinstance(parsed, str) else parsed
        return Outcome(False, reason=error, stderr=error + "\n" + messages, parsed=numbers)
    first = next((line for line in messages.splitlines() if line.strip()), "")
    if isinstance(parsed, str):
        return Outcome(False, reason="imported, but coffer parse failed: " + parsed, stderr=parsed + messages)
    count, total = parsed
    return Outcome(True, count, total, reason=first, stderr=messages)


def run_coffer_parse(binary: str, path: Path) -> tuple[int, Decimal] | str:
    """The transactions `coffer parse` reads (count, signed total), or why it failed."""
    try:
        done = subprocess.run([binary, "parse", str(path), "--format", "ndjson"], capture_output=True,
                              timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return f"parse timed out after {TIMEOUT}s"
    if done.returncode != 0:
        return done.stderr.decode("utf-8", "replace").strip() or f"exit {done.returncode}"
    count, total = 0, Decimal(0)
    for line in done.stdout.decode("utf-8").splitlines():
        if not line.strip():
            continue
        transaction = json.loads(line)
        amount = Decimal(transaction["transactionAmount"]["amount"])
        indicator = transaction["creditDebitIndicator"]
        if indicator not in ("credit", "debit"):
            return f"unknown creditDebitIndicator {indicator!r}"
        total += amount if indicator == "credit" else -amount
        count += 1
    return count, total


# --- expectations ---------------------------------------------------------------------------------------------
@dataclass
class Expected:
    read: bool
    count: int = 0
    total: Decimal = Decimal(0)
    pattern: str = ""     # regex Coffer's stderr must contain (a warning or the reason)
    source: str = ""


def load_manifest(folder: Path) -> dict[str, Expected]:
    manifest = folder / "expected.tsv"
    rows: dict[str, Expected] = {}
    if not manifest.is_file():
        return rows
    with open(manifest, newline="", encoding="utf-8") as handle:
        for row in csv.reader((line for line in handle if line.strip() and not line.startswith("#")),
                              delimiter="\t"):
            name, outcome, count, total = row[0], row[1], row[2], row[3]
            pattern = row[4] if len(row) > 4 else ""
            if outcome == "read":
                rows[name] = Expected(True, int(count), Decimal(total), pattern, "expected.tsv")
            elif outcome == "reject":
                rows[name] = Expected(False, pattern=pattern, source="expected.tsv")
            else:
                raise SystemExit(f"compare-peers: {manifest}: unknown outcome {outcome!r} for {name}")
    return rows


def golden_json(path: Path) -> Expected | None:
    golden = Path(str(path) + ".expected.json")
    if not golden.is_file():
        return None
    data = json.loads(golden.read_text(encoding="utf-8"))
    if data.get("status") != "imported":
        return None
    total = Decimal(0)
    for transaction in data.get("transactions", []):
        amount = Decimal(transaction["amount"])
        total += amount if transaction["indicator"] == "credit" else -amount
    return Expected(True, len(data.get("transactions", [])), total, source=golden.name)


def located(path: Path, message: str) -> bool:
    return re.search(re.escape(path.name) + r":\d+", message) is not None


def verdict(path: Path, tools: Outcome, parse: Outcome, coffer: Outcome, manifest: dict[str, Expected]) -> str:
    """'' when Coffer agrees, else why not."""
    expected = manifest.get(path.name)
    readers = [peer for peer in (tools, parse) if peer.read]
    if expected is None and not readers:
        expected = golden_json(path)
    if expected is not None:
        if expected.read:
            if not coffer.read:
                return f"{expected.source} says read {expected.count} / {show(expected.total)}; Coffer rejected"
            if coffer.count != expected.count or coffer.total != expected.total:
                return f"{expected.source} says {expected.count} / {show(expected.total)}"
            if expected.pattern and not re.search(expected.pattern, coffer.stderr, re.IGNORECASE):
                return f"no warning matching /{expected.pattern}/ on stderr"
            return ""
        if coffer.read:
            return f"{expected.source} says reject; Coffer read it"
        if not located(path, coffer.stderr):
            return "rejected, but the message names no FILE:LINE"
        if expected.pattern and not re.search(expected.pattern, coffer.stderr, re.IGNORECASE):
            return f"rejected, but the message does not match /{expected.pattern}/"
        if readers:
            # Refused on purpose (it needs --currency or --account), but a peer reads it: what Coffer would
            # import once told must still be what the peer read.
            if coffer.parsed is None or not any(coffer.parsed == (peer.count, peer.total) for peer in readers):
                got = "nothing" if coffer.parsed is None else f"{coffer.parsed[0]} / {show(coffer.parsed[1])}"
                return f"refused as expected, but coffer parse reads {got}, not what a peer reads"
        return ""
    if readers:
        if not coffer.read:
            return "a peer reads it; Coffer rejected"
        if not any(coffer.same_numbers(peer) for peer in readers):
            return "count/total differ from " + " and ".join(
                f"{name} {peer.count} / {show(peer.total)}" for name, peer in (("ofxtools", tools), ("ofxparse", parse))
                if peer.read)
        return ""
    if coffer.read:
        return f"both peers reject; Coffer read {coffer.count} / {show(coffer.total)} (exit 0)"
    if not located(path, coffer.stderr):
        return "rejected, but the message names no FILE:LINE"
    return ""


def collect(arguments: list[str]) -> list[Path]:
    files: list[Path] = []
    for argument in arguments or DEFAULT_FOLDERS:
        root = Path(argument)
        if root.is_file():
            files.append(root)
        elif root.is_dir():
            files += sorted(p for p in root.rglob("*") if p.is_file() and p.suffix.lower() in EXTENSIONS)
        else:
            print(f"compare-peers: no such file or folder: {argument}", file=sys.stderr)
    return files


def main(arguments: list[str]) -> int:
    binary = os.environ.get("COFFER_BIN", ".build/debug/coffer")
    if not os.access(binary, os.X_OK):
        print(f"compare-peers: no Coffer binary at {binary} (build it with `swift build`, or set COFFER_BIN)",
              file=sys.stderr)
        return 2
    files = collect(arguments)
    if not files:
        print("compare-peers: no .ofx/.qfx/.qbo files found", file=sys.stderr)
        return 2
    manifests: dict[Path, dict[str, Expected]] = {}
    rows, details = [], []
    agree = disagree = 0
    for path in files:
        manifest = manifests.setdefault(path.parent, load_manifest(path.parent))
        tools = guarded(run_ofxtools, path)
        parse = guarded(run_ofxparse, path)
        coffer = run_coffer(binary, path)
        why = verdict(path, tools, parse, coffer, manifest)
        if why:
            disagree += 1
            details.append((path, why, coffer))
        else:
            agree += 1
        rows.append((str(path), tools.cell(path), parse.cell(path), coffer.cell(path), "agree" if not why else "DISAGREE"))

    headers = ("FILE", "OFXTOOLS", "OFXPARSE", "COFFER", "VERDICT")
    widths = [max(len(headers[i]), *(len(row[i]) for row in rows)) for i in range(5)]
    line = lambda cells: "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(cells)).rstrip()  # noqa: E731
    print(line(headers))
    print(line(tuple("-" * w for w in widths)))
    for row in rows:
        print(line(row))
    if details:
        print("\nDisagreements:")
        for path, why, coffer in details:
            said = coffer.reason if not coffer.read else (coffer.reason or "(nothing on stderr)")
            print(f"  {path}: {why}\n      coffer {'exit 0' if coffer.read else 'rejected'}: {shorten(said, 160)}")
    reads = lambda column: sum(1 for row in rows if not row[column].startswith("REJECT"))  # noqa: E731
    print(f"\nread: ofxtools {reads(1)}, ofxparse {reads(2)}, coffer {reads(3)} of {len(rows)} files")
    print(f"{agree} agree, {disagree} disagree")
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
