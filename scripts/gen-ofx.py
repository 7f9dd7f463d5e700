#!/usr/bin/env python3
"""Write an OFX statement with N invented transactions, for measuring parse speed.

Usage: scripts/gen-ofx.py --count 1000000 --version 1 --out /tmp/big.ofx
  --version 1  OFX 1.02 SGML (unclosed leaves, CHARSET:1252 header)
  --version 2  OFX 2.2 XML (closed leaves, <?OFX?> header)
The data are made up: fake payees, amounts and ids, deterministic for a given count.
"""
import argparse
import datetime
import random
import sys

PAYEES = ["Corner Cafe", "Greenleaf Market", "Northwind Payroll", "City Transit", "Blue Door Bistro",
          "Harbor Fuel", "Pinecone Books", "Lakeside Parking", "Maple Pharmacy", "Summit Gym"]
TYPES = [("POS", -1, "5814"), ("DEBIT", -1, "5411"), ("DIRECTDEP", 1, None), ("ATM", -1, None),
         ("CHECK", -1, None), ("XFER", -1, None), ("FEE", -1, None), ("CREDIT", 1, "5812")]


def header(version):
    if version == 1:
        return ("OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nSECURITY:NONE\nENCODING:USASCII\nCHARSET:1252\n"
                "COMPRESSION:NONE\nOLDFILEUID:NONE\nNEWFILEUID:NONE\n\n")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>\n')


def leaf(version, name, value):
    return f"<{name}>{value}</{name}>" if version == 2 else f"<{name}>{value}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--version", type=int, choices=[1, 2], default=1)
    parser.add_argument("--out", default="-")
    args = parser.parse_args()
    out = sys.stdout if args.out == "-" else open(args.out, "w", encoding="utf-8", newline="\n")
    rng = random.Random(args.count)
    v = args.version
    start = datetime.date(2020, 1, 1)
    end = start + datetime.timedelta(days=max(1, args.count // 500))
    w = out.write
    w(header(v))
    w("<OFX>\n<SIGNONMSGSRSV1><SONRS><STATUS>" + leaf(v, "CODE", "0") + leaf(v, "SEVERITY", "INFO") + "</STATUS>\n")
    w(leaf(v, "DTSERVER", end.strftime("%Y%m%d")) + "<FI>" + leaf(v, "ORG", "Example Generated Bank")
      + leaf(v, "FID", "99999") + "</FI></SONRS></SIGNONMSGSRSV1>\n")
    w("<BANKMSGSRSV1><STMTTRNRS>" + leaf(v, "TRNUID", "1") + "<STATUS>" + leaf(v, "CODE", "0")
      + leaf(v, "SEVERITY", "INFO") + "</STATUS>\n<STMTRS>\n" + leaf(v, "CURDEF", "USD") + "\n<BANKACCTFROM>"
      + leaf(v, "BANKID", "000000000") + leaf(v, "ACCTID", "1234567890") + leaf(v, "ACCTTYPE", "CHECKING")
      + "</BANKACCTFROM>\n<BANKTRANLIST>\n" + leaf(v, "DTSTART", start.strftime("%Y%m%d")) + "\n"
      + leaf(v, "DTEND", end.strftime("%Y%m%d")) + "\n")
    balance = 0
    lines = []
    for i in range(args.count):
        kind, sign, sic = TYPES[rng.randrange(len(TYPES))]
        cents = rng.randrange(100, 250000)
        balance += sign * cents
        day = start + datetime.timedelta(days=i // 500)
        when = day.strftime("%Y%m%d") + f"{rng.randrange(24):02d}{rng.randrange(60):02d}00.000[-5:EST]"
        parts = ["<STMTTRN>\n", leaf(v, "TRNTYPE", kind), "\n", leaf(v, "DTPOSTED", when), "\n",
                 leaf(v, "DTUSER", day.strftime("%Y%m%d")), "\n",
                 leaf(v, "TRNAMT", f"{'-' if sign < 0 else ''}{cents // 100}.{cents % 100:02d}"), "\n",
                 leaf(v, "FITID", f"GEN{i:010d}"), "\n", leaf(v, "NAME", PAYEES[rng.randrange(len(PAYEES))]), "\n",
                 leaf(v, "MEMO", f"Generated transaction {i}"), "\n"]
        if sic:
            parts += [leaf(v, "SIC", sic), "\n"]
        parts.append("</STMTTRN>\n")
        lines.append("".join(parts))
        if len(lines) >= 10000:
            w("".join(lines))
            lines = []
    w("".join(lines))
    sign = "-" if balance < 0 else ""
    w("</BANKTRANLIST>\n<LEDGERBAL>" + leaf(v, "BALAMT", f"{sign}{abs(balance) // 100}.{abs(balance) % 100:02d}")
      + leaf(v, "DTASOF", end.strftime("%Y%m%d")) + "</LEDGERBAL>\n</STMTRS>\n</STMTTRNRS></BANKMSGSRSV1>\n</OFX>\n")
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
