#!/usr/bin/env python3
"""Writes a large invented camt.053.001.08 statement for speed tests.

Usage: scripts/gen-camt.py ENTRIES OUT.xml

Entries rotate through card payments, SEPA transfers, direct debits and salary credits, each with one TxDtls
(party, remittance text, references); the opening and closing balances reconcile. They come in booking-date order
over the statement's 84 booking days, as banks write a camt.053 (the OFX and CSV generators write their days in
order too). Do not commit the output.
"""
import sys

def main():
    n = int(sys.argv[1])
    out = open(sys.argv[2], "w", encoding="utf-8")
    w = out.write
    w('<?xml version="1.0" encoding="UTF-8"?>\n')
    w('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">\n<BkToCstmrStmt>\n')
    w('<GrpHdr><MsgId>GEN-%d</MsgId><CreDtTm>2026-04-01T06:00:00+02:00</CreDtTm></GrpHdr>\n' % n)
    w('<Stmt>\n<Id>GEN-STMT-1</Id>\n')
    w('<FrToDt><FrDtTm>2026-01-01T00:00:00+01:00</FrDtTm><ToDtTm>2026-03-31T23:59:59+02:00</ToDtTm></FrToDt>\n')
    w('<Acct><Id><IBAN>DE02120300000000202051</IBAN></Id><Ccy>EUR</Ccy>'
      '<Svcr><FinInstnId><BICFI>MUBADEFFXXX</BICFI><Nm>Musterbank Köln eG</Nm></FinInstnId></Svcr></Acct>\n')
    kinds = [
        ("DBIT", "PMNT", "CCRD", "POSD", "Cdtr", "Bäckerei Schäfer Filiale %d", "Kartenzahlung girocard %d"),
        ("DBIT", "PMNT", "ICDT", "ESCT", "Cdtr", "Stadtwerke Düsseldorf AG", "Rechnung %d Abschlag"),
        ("DBIT", "PMNT", "RDDT", "ESDD", "Cdtr", "Versicherung Rheinland %d", "Beitrag Vertrag %d"),
        ("CRDT", "PMNT", "RCDT", "SALA", "Dbtr", "Müller & Söhne GmbH", "Lohn/Gehalt Pers.-Nr. %d"),
    ]
    amounts = ["12.34", "84.00", "23.45", "2850.00"]
    cents = 0
    entries = []
    opening = 100000000  # cents
    w('<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">%d.%02d</Amt><CdtDbtInd>CRDT</CdtDbtInd>'
      '<Dt><Dt>2025-12-31</Dt></Dt></Bal>\n' % (opening // 100, opening % 100))
    # The closing balance is computed first so balances come before entries, as in real files.
    net = 0
    for i in range(n):
        k = i % 4
        value = int(amounts[k].replace(".", ""))
        net += value if kinds[k][0] == "CRDT" else -value
    closing = opening + net
    w('<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">%d.%02d</Amt><CdtDbtInd>%s</CdtDbtInd>'
      '<Dt><Dt>2026-03-31</Dt></Dt></Bal>\n' % (abs(closing) // 100, abs(closing) % 100,
                                                  "CRDT" if closing >= 0 else "DBIT"))
    for i in range(n):
        ind, domn, fmly, sub, side, party, text = kinds[i % 4]
        slot = i * 84 // n  # booking day 0..83, never decreasing
        day = 1 + slot % 28
        month = 1 + slot // 28
        w('<Ntry>\n<Amt Ccy="EUR">%s</Amt>\n<CdtDbtInd>%s</CdtDbtInd>\n<Sts><Cd>BOOK</Cd></Sts>\n' % (amounts[i % 4], ind))
        w('<BookgDt><Dt>2026-%02d-%02d</Dt></BookgDt>\n<ValDt><Dt>2026-%02d-%02d</Dt></ValDt>\n' % (month, day, month, day))
        w('<AcctSvcrRef>GEN%010d</AcctSvcrRef>\n' % i)
        w('<BkTxCd><Domn><Cd>%s</Cd><Fmly><Cd>%s</Cd><SubFmlyCd>%s</SubFmlyCd></Fmly></Domn></BkTxCd>\n' % (domn, fmly, sub))
        w('<NtryDtls><TxDtls>\n<Refs><EndToEndId>E2E-%d</EndToEndId></Refs>\n' % i)
        w('<RltdPties><%s><Pty><Nm>%s</Nm></Pty></%s></RltdPties>\n' % (side, party.replace("&", "&amp;").replace("%d", str(i % 97)), side))
        w('<RmtInf><Ustrd>%s</Ustrd></RmtInf>\n' % (text % i))
        w('</TxDtls></NtryDtls>\n<AddtlNtryInf>SEPA Buchung</AddtlNtryInf>\n</Ntry>\n')
    w('</Stmt>\n</BkToCstmrStmt>\n</Document>\n')
    out.close()

if __name__ == "__main__":
    main()
