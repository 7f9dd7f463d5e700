#!/usr/bin/env python3
"""Writes an N-row CSV statement in one institution's layout, for throughput and memory measurements.

    scripts/gen-csv.py chase-checking 1000000 > /tmp/chase-1m.csv
    scripts/gen-csv.py dkb-giro 1000000 /tmp/dkb-1m.csv

Rows are invented and deterministic (seeded), with quoted cells, embedded commas and a spread of amounts.
"""
import random
import sys
from datetime import date, timedelta

MERCHANTS = ["SQ *BLUE BOTTLE COFFEE", "TST* JOE'S PIZZA", "SAFEWAY #1234", "AMAZON MKTPL*2K4AB1CD3",
             "UBER *TRIP", "SHELL OIL 57444", "NETFLIX.COM", "Zelle payment to Sam Example, rent"]


def chase(rows, out, rnd):
    out.write("Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #\r\n")
    day = date(2026, 3, 31)
    balance = 1_000_000_00
    for i in range(rows):
        if i % 40 == 0:
            day -= timedelta(days=1)
        cents = rnd.randint(1, 250_000)
        credit = rnd.random() < 0.1
        amount = cents if credit else -cents
        balance -= amount
        out.write('%s,%s,"%s %d",%s%d.%02d,%s,%d.%02d,,\r\n' % (
            "CREDIT" if credit else "DEBIT", day.strftime("%m/%d/%Y"), rnd.choice(MERCHANTS), i,
            "" if credit else "-", cents // 100, cents % 100, "ACH_CREDIT" if credit else "DEBIT_CARD",
            balance // 100, balance % 100))


def dkb(rows, out, rnd):
    out.write('"Kontonummer:";"DE02120300000000202051 / Girokonto";\r\n\r\n')
    out.write('"Buchungstag";"Wertstellung";"Buchungstext";"Auftraggeber / Begünstigter";"Verwendungszweck";'
              '"Kontonummer";"BLZ";"Betrag (EUR)";"Gläubiger-ID";"Mandatsreferenz";"Kundenreferenz";\r\n')
    day = date(2026, 3, 31)
    for i in range(rows):
        if i % 40 == 0:
            day -= timedelta(days=1)
        cents = rnd.randint(1, 250_000)
        euros = "{:,}".format(cents // 100).replace(",", ".")
        d = day.strftime("%d.%m.%Y")
        out.write('"%s";"%s";"Kartenzahlung";"Händler %d";"Einkauf %d, Filiale";"";"";"-%s,%02d";"";"";"";\r\n'
                  % (d, d, i % 997, i, euros, cents % 100))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    layout, rows = sys.argv[1], int(sys.argv[2])
    writers = {"chase-checking": (chase, "utf-8"), "dkb-giro": (dkb, "cp1252")}
    if layout not in writers:
        sys.exit("layouts: " + ", ".join(writers))
    write, encoding = writers[layout]
    out = open(sys.argv[3], "w", encoding=encoding, newline="") if len(sys.argv) > 3 else \
        open(sys.stdout.fileno(), "w", encoding=encoding, newline="", closefd=False)
    write(rows, out, random.Random(42))
    out.close()


if __name__ == "__main__":
    main()
