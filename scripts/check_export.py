#!/usr/bin/env python3
"""The export check's work (scripts/check-export.sh runs it): export a store as hledger, ledger and beancount,
have each tool check its journal, and compare each tool's balance of every Coffer account with Coffer's own.

Usage: check_export.py COFFER STORE WORKDIR BEAN_PYTHON

Coffer's balance of an account: its latest booked statement balance plus the booked transactions booked after
that balance's day (the posting date's day when there is one, else the transaction's own day); without a
statement balance, the sum of its booked transactions. Journal accounts are matched to Coffer's by the
coffer-account id each journal's account declaration carries.
"""
import json
import re
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from decimal import Decimal


def run(args, **kw):
    result = subprocess.run(args, capture_output=True, text=True, **kw)
    if result.returncode != 0:
        sys.exit("FAILED: %s\n%s%s" % (" ".join(args), result.stdout, result.stderr))
    return result.stdout


def day_of(text):
    """The day a date counts on, as Coffer's balance chain reads it (StatementPeriod.lastDay(through:))."""
    if len(text) == 10:
        return text
    moment = datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(timezone.utc)
    if moment.hour == 0 and moment.minute == 0 and moment.second == 0:
        return moment.date().isoformat()
    return ((moment + timedelta(hours=12)).date() - timedelta(days=1)).isoformat()


def transaction_day(t):
    if t.get("postedDate"):
        return t["postedDate"][:10]
    return t["transactionDate"][:10]   # the CLI's JSON writes the bank's own day first


def coffer_balances(coffer, store):
    def json_of(*args):
        return json.loads(run([coffer, *args, "--store", store, "--format", "json"]))
    balances = {}
    for b in json_of("balances"):
        booked = b["currentBalance"].get("booked")
        if not booked:
            continue
        signed = Decimal(booked["amount"]["amount"]) * (1 if booked["creditDebitIndicator"] == "credit" else -1)
        key = (day_of(booked["asOfDate"]), booked["asOfDate"])
        if b["accountID"] not in balances or key > balances[b["accountID"]][0]:
            balances[b["accountID"]] = (key, signed)
    result = {}
    for a in json_of("accounts"):
        anchor = balances.get(a["id"])
        result[a["id"]] = (anchor[1] if anchor else Decimal(0), anchor[0][0] if anchor else None, a["currencyCode"])
    for t in json_of("transactions", "--status", "booked"):
        total, since, currency = result[t["accountID"]]
        if since is None or transaction_day(t) > since:
            amount = Decimal(t["transactionAmount"]["amount"])
            result[t["accountID"]] = (total + (amount if t["creditDebitIndicator"] == "credit" else -amount), since, currency)
    return {k: (v[0], v[2]) for k, v in result.items()}


def declared(text, pattern):
    return {m.group(2): m.group(1) for m in re.finditer(pattern, text, re.M)}


def parse_amount(text):
    number, currency = text.strip().rsplit(" ", 1)
    return Decimal(number), currency.strip('"')


def main():
    coffer, store, work, bean_python = sys.argv[1:5]
    expected = coffer_balances(coffer, store)
    journals = {}
    for fmt in ("hledger", "ledger", "beancount"):
        path = "%s/export.%s" % (work, fmt)
        run([coffer, "export", "--store", store, "--format", fmt, "-o", path])
        journals[fmt] = path
    got = {}
    # hledger: its own checks, then the balance of each account.
    path = journals["hledger"]
    run(["hledger", "-f", path, "check"])
    names = declared(open(path, encoding="utf-8").read(), r"^account (.+?)  ; coffer-account:([0-9A-F-]{36})$")
    rows = run(["hledger", "-f", path, "bal", "--flat", "--empty", "-O", "csv"]).splitlines()[1:]
    tool = {}
    for row in rows:
        account, balance = [c.strip('"') for c in row.split('","')]
        tool[account] = balance
    got["hledger"] = {names_id: tool.get(name, "0") for names_id, name in names.items()}
    # ledger: parsing checks the assertions; then the balance of each account.
    path = journals["ledger"]
    names = declared(open(path, encoding="utf-8").read(), r"^account (.+)\n    note coffer-account: ([0-9A-F-]{36})$")
    out = run(["ledger", "-f", path, "bal", "--flat", "--no-total", "--empty", "--balance-format", "%(account)\t%(display_total)\n"])
    tool = dict(line.split("\t", 1) for line in out.splitlines() if "\t" in line)
    got["ledger"] = {i: tool.get(name, "0") for i, name in names.items()}
    # beancount: bean-check, then the balance of each account from beancount's own loader.
    path = journals["beancount"]
    run([bean_python, "-m", "beancount.scripts.check", path])
    names = declared(open(path, encoding="utf-8").read(), r"^\d{4}-\d\d-\d\d open (\S+).*\n  coffer-account: \"([0-9A-F-]{36})\"$")
    script = ("import sys\nfrom beancount import loader\nfrom beancount.core import data\n"
              "entries, errors, _ = loader.load_file(sys.argv[1])\nassert not errors, errors\ntotals = {}\n"
              "for e in entries:\n    if isinstance(e, data.Transaction):\n        for p in e.postings:\n"
              "            totals[p.account] = totals.get(p.account, 0) + p.units.number\n"
              "for k, v in totals.items(): print(k + '\\t' + str(v))\n")
    tool = dict(line.split("\t") for line in run([bean_python, "-c", script, path]).splitlines())
    got["beancount"] = {i: tool.get(name, "0") for i, name in names.items()}

    failures = []
    for fmt, balances in got.items():
        missing = set(expected) - set(balances)
        if missing:
            failures.append("%s: accounts not in the journal: %s" % (fmt, ", ".join(sorted(missing))))
        for account, text in balances.items():
            value = Decimal(text.split()[0]) if text.strip() not in ("0", "") else Decimal(0)
            want, currency = expected[account]
            if text.strip() not in ("0", "") and fmt != "beancount" and parse_amount(text)[1] != currency:
                failures.append("%s: %s is in %s, not %s" % (fmt, account, text, currency))
            if value != want:
                failures.append("%s: %s: the tool says %s, Coffer %s %s" % (fmt, account, text, want, currency))
    if failures:
        sys.exit("FAILED:\n  " + "\n  ".join(failures))
    print("%s: hledger check, ledger and bean-check accept the export; %d accounts' balances equal Coffer's in all three"
          % (store, len(expected)))


if __name__ == "__main__":
    main()
