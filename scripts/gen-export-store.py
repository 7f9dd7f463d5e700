#!/usr/bin/env python3
"""Writes invented OFX statements of several currencies for the export check (scripts/check-export.sh).

Usage: scripts/gen-export-store.py OUT_DIR [--months 3] [--per-month 40]

Six accounts of one person: checking and a card in USD (the card paid from checking each month: an own transfer),
a current and a savings account in GBP (a monthly transfer between them), a EUR account and a JPY account (no
decimals). Each month is one statement per account with LEDGERBAL, the running balance; texts include the
characters journals must quote or escape (; | " \\ & and accents). Deterministic: the same arguments give the
same files. Do not commit the output.
"""
import argparse
import calendar
import os
import random
from decimal import Decimal

HEADER = """OFXHEADER:100
DATA:OFXSGML
VERSION:102
SECURITY:NONE
ENCODING:UNICODE
CHARSET:NONE
COMPRESSION:NONE
OLDFILEUID:NONE
NEWFILEUID:NONE

"""

ACCOUNTS = [
    # key, org, fid, kind, id, currency, opening, decimals
    ("usd-checking", "Birchwood Bank", "7101", "CHECKING", "4401000111", "USD", Decimal("2500.00"), 2),
    ("usd-card", "Birchwood Bank", "7101", "CARD", "4111222233334444", "USD", Decimal("-310.45"), 2),
    ("gbp-current", "Thamesgate Bank", "7202", "CHECKING", "20451234", "GBP", Decimal("1800.00"), 2),
    ("gbp-savings", "Thamesgate Bank", "7202", "SAVINGS", "20459876", "GBP", Decimal("6000.00"), 2),
    ("eur-giro", "Rheinauen Bank", "7303", "CHECKING", "DE44500105175407324931", "EUR", Decimal("950.00"), 2),
    ("jpy-futsu", "Sakuragawa Bank", "7404", "CHECKING", "0012345", "JPY", Decimal("250000"), 0),
]

TEXTS = ["Blue Bottle Coffee #%d", "Corner Shop; Till %d", "A|B Hardware %d", 'Café "Le Petit" %d', "Back\\slash Books %d",
         "Müller & Söhne %d", "Grocery Outlet %d", "Parking Garage %d"]


def amount(rng, decimals, low, high):
    value = Decimal(rng.randint(low * 100, high * 100)) / 100
    return value.quantize(Decimal(1) if decimals == 0 else Decimal("0.01"))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--months", type=int, default=3)
    p.add_argument("--per-month", type=int, default=40)
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(20)
    balance = {a[0]: a[6] for a in ACCOUNTS}
    fitid = 0
    for month in range(1, args.months + 1):
        rows = {a[0]: [] for a in ACCOUNTS}
        for key, org, fid, kind, acct, cur, _, decimals in ACCOUNTS:
            scale = 150 if cur == "JPY" else 1
            for i in range(args.per_month):
                day = 1 + (i * 27) // args.per_month
                text = TEXTS[i % len(TEXTS)] % (i + 1)
                if i % 9 == 4:
                    value = amount(rng, decimals, 500 * scale, 1500 * scale)      # a deposit
                    kind_ = "DIRECTDEP"
                else:
                    value = -amount(rng, decimals, 2 * scale, 120 * scale)
                    kind_ = "POS"
                rows[key].append((day, kind_, value, text))
        # Own transfers: the card paid from checking; savings topped up from the current account, two days later.
        pay = Decimal(rng.randint(20000, 40000)) / 100
        rows["usd-checking"].append((20, "XFER", -pay, "Online payment to card 4444"))
        rows["usd-card"].append((20, "XFER", pay, "Payment thank you"))
        top = Decimal(rng.randint(10000, 30000)) / 100
        rows["gbp-current"].append((24, "XFER", -top, "Transfer to savings 9876"))
        rows["gbp-savings"].append((26, "XFER", top, "Transfer from current 1234"))
        for key, org, fid, kind, acct, cur, _, decimals in ACCOUNTS:
            lines = []
            for day, kind_, value, text in sorted(rows[key], key=lambda r: r[0]):
                fitid += 1
                balance[key] += value
                lines.append("<STMTTRN>\n<TRNTYPE>%s\n<DTPOSTED>2026%02d%02d\n<TRNAMT>%s\n<FITID>G%06d\n<NAME>%s\n</STMTTRN>"
                             % (kind_, month, day, value, fitid, text.replace("&", "&amp;").replace("<", "&lt;")))
            if kind == "CARD":
                head = "<CREDITCARDMSGSRSV1>\n<CCSTMTTRNRS>\n<TRNUID>1\n<STATUS>\n<CODE>0\n<SEVERITY>INFO\n</STATUS>\n<CCSTMTRS>\n"
                acctfrom = "<CCACCTFROM>\n<ACCTID>%s\n</CCACCTFROM>\n" % acct
                tail = "</CCSTMTRS>\n</CCSTMTTRNRS>\n</CREDITCARDMSGSRSV1>\n"
            else:
                head = "<BANKMSGSRSV1>\n<STMTTRNRS>\n<TRNUID>1\n<STATUS>\n<CODE>0\n<SEVERITY>INFO\n</STATUS>\n<STMTRS>\n"
                acctfrom = "<BANKACCTFROM>\n<BANKID>%s\n<ACCTID>%s\n<ACCTTYPE>%s\n</BANKACCTFROM>\n" % (fid, acct, kind)
                tail = "</STMTRS>\n</STMTTRNRS>\n</BANKMSGSRSV1>\n"
            end = calendar.monthrange(2026, month)[1]
            body = (HEADER + "<OFX>\n<SIGNONMSGSRSV1>\n<SONRS>\n<STATUS>\n<CODE>0\n<SEVERITY>INFO\n</STATUS>\n"
                    "<DTSERVER>2026%02d%02d\n<LANGUAGE>ENG\n<FI>\n<ORG>%s\n<FID>%s\n</FI>\n</SONRS>\n</SIGNONMSGSRSV1>\n"
                    % (month, end, org, fid)
                    + head + "<CURDEF>%s\n" % cur + acctfrom
                    + "<BANKTRANLIST>\n<DTSTART>2026%02d01\n<DTEND>2026%02d%02d\n" % (month, month, end)
                    + "\n".join(lines) + "\n</BANKTRANLIST>\n"
                    + "<LEDGERBAL>\n<BALAMT>%s\n<DTASOF>2026%02d%02d\n</LEDGERBAL>\n" % (balance[key], month, end)
                    + tail + "</OFX>\n")
            with open(os.path.join(args.out, "%s-2026-%02d.ofx" % (key, month)), "w", encoding="utf-8") as f:
                f.write(body)


if __name__ == "__main__":
    main()
