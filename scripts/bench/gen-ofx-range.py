#!/usr/bin/env python3
"""Write an OFX 1.02 statement holding transactions FIRST..FIRST+COUNT-1 of one endless invented series.

Usage: scripts/bench/gen-ofx-range.py --first 500000 --count 1000000 --acct 5555000011 --out B.ofx

Each transaction's fields depend only on its index (500 a day from 2020-01-01, FITID GEN<index>), so two ranges
that overlap carry identical transactions where they overlap: what the overlapping-statement and history
benchmarks need. With --renamed, every payee's name has "New " before it: the same transactions under other names,
so importing the file over its plain form updates every row (the update and undo benchmarks). Payees, amounts and
ids are made up.
"""
import argparse
import datetime

PAYEES = ["Corner Cafe", "Greenleaf Market", "Northwind Payroll", "City Transit", "Blue Door Bistro",
          "Harbor Fuel", "Pinecone Books", "Lakeside Parking", "Maple Pharmacy", "Summit Gym"]
TYPES = [("POS", -1, "5814"), ("DEBIT", -1, "5411"), ("DIRECTDEP", 1, None), ("ATM", -1, None),
         ("CHECK", -1, None), ("XFER", -1, None), ("FEE", -1, None), ("CREDIT", 1, "5812")]
START = datetime.date(2020, 1, 1)


def mix(i):
    """A cheap deterministic hash of the index (64-bit splitmix)."""
    z = (i * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return z ^ (z >> 31)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--count", type=int, default=1000)
    p.add_argument("--acct", default="5555000011")
    p.add_argument("--out", required=True)
    p.add_argument("--renamed", action="store_true")
    a = p.parse_args()
    first_day = START + datetime.timedelta(days=a.first // 500)
    last_day = START + datetime.timedelta(days=(a.first + a.count - 1) // 500)
    with open(a.out, "w", encoding="ascii", newline="\n") as out:
        w = out.write
        w("OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nSECURITY:NONE\nENCODING:USASCII\nCHARSET:1252\n"
          "COMPRESSION:NONE\nOLDFILEUID:NONE\nNEWFILEUID:NONE\n\n")
        w("<OFX>\n<SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS>\n<DTSERVER>%s"
          "<FI><ORG>Example Generated Bank<FID>99999</FI></SONRS></SIGNONMSGSRSV1>\n" % last_day.strftime("%Y%m%d"))
        w("<BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS>\n<STMTRS>\n<CURDEF>USD\n"
          "<BANKACCTFROM><BANKID>000000000<ACCTID>%s<ACCTTYPE>CHECKING</BANKACCTFROM>\n<BANKTRANLIST>\n"
          "<DTSTART>%s\n<DTEND>%s\n" % (a.acct, first_day.strftime("%Y%m%d"), last_day.strftime("%Y%m%d")))
        chunk = []
        for i in range(a.first, a.first + a.count):
            h = mix(i)
            kind, sign, sic = TYPES[h % len(TYPES)]
            cents = 100 + (h >> 8) % 249900
            day = (START + datetime.timedelta(days=i // 500)).strftime("%Y%m%d")
            amount = "%s%d.%02d" % ("-" if sign < 0 else "", cents // 100, cents % 100)
            chunk.append("<STMTTRN>\n<TRNTYPE>%s\n<DTPOSTED>%s120000\n<DTUSER>%s\n<TRNAMT>%s\n<FITID>GEN%010d\n"
                         "<NAME>%s\n<MEMO>Generated transaction %d\n%s</STMTTRN>\n"
                         % (kind, day, day, amount, i, ("New " if a.renamed else "") + PAYEES[(h >> 40) % len(PAYEES)], i,
                            "<SIC>%s\n" % sic if sic else ""))
            if len(chunk) >= 10000:
                w("".join(chunk))
                chunk = []
        w("".join(chunk))
        w("</BANKTRANLIST>\n<LEDGERBAL><BALAMT>0.00<DTASOF>%s</LEDGERBAL>\n</STMTRS>\n</STMTTRNRS></BANKMSGSRSV1>\n"
          "</OFX>\n" % last_day.strftime("%Y%m%d"))


if __name__ == "__main__":
    main()
