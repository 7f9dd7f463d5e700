import CofferModel
import CofferPipeline
import CofferStore
import Foundation
import Testing

/// One account per real account: a card's OFX download (full number) and its CSV export (masked number) land on
/// one account in either order; two stored accounts a statement could be fail the file; another currency or kind
/// stays apart; the person's own equivalences and aliases in the configuration folder count.
@Suite struct AccountIdentityTests {
    // MARK: Fixtures (written for this project)

    /// An American Express-like card statement as its OFX download says it: ORG AMEX, FID 3101, the full number.
    static func amexOFX(number: String = "379900000071004", org: String = "AMEX", fid: String = "3101",
                        rows: [(String, String, String, String)] = march) -> String {
        let body = rows.map { date, text, amount, id in
            let ofxDate = date.replacingOccurrences(of: "-", with: "")
            let signed = amount.hasPrefix("-") ? String(amount.dropFirst()) : "-" + amount   // charges are debits
            return "<STMTTRN><TRNTYPE>\(signed.hasPrefix("-") ? "DEBIT" : "CREDIT")<DTPOSTED>\(ofxDate)<TRNAMT>\(signed)"
                + "<FITID>\(id)<NAME>\(text)</STMTTRN>"
        }.joined(separator: "\n")
        return """
            OFXHEADER:100
            DATA:OFXSGML
            VERSION:102

            <OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20260315120000<FI><ORG>\(org)<FID>\(fid)</FI></SONRS></SIGNONMSGSRSV1>
            <CREDITCARDMSGSRSV1><CCSTMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><CCSTMTRS><CURDEF>USD
            <CCACCTFROM><ACCTID>\(number)</CCACCTFROM>
            <BANKTRANLIST><DTSTART>20260301<DTEND>20260315
            \(body)
            </BANKTRANLIST></CCSTMTRS></CCSTMTTRNRS></CREDITCARDMSGSRSV1></OFX>

            """
    }

    /// The same card's CSV export, as the shipped `amex` profile reads it: charges positive, no account number in
    /// the file (the profile's `XXXX-XXXXXX-71004`).
    static func amexCSV(_ rows: [(String, String, String, String)] = march) -> String {
        "Date,Description,Amount\n" + rows.map { date, text, amount, _ in
            let parts = date.split(separator: "-")
            return "\(parts[1])/\(parts[2])/\(parts[0]),\"\(text)\",\(amount)"
        }.joined(separator: "\n") + "\n"
    }

    /// (date, text, amount as the CSV says it: charges positive, id the OFX gives)
    static let march = [
        ("2026-03-03", "PAYPAL *SPOTIFY", "11.99", "AX0303A"),
        ("2026-03-07", "AUTOPAY PAYMENT - THANK YOU", "-1200.00", "AX0307A"),
        ("2026-03-09", "DELTA AIR LINES ATLANTA", "412.60", "AX0309A"),
        ("2026-03-11", "TST* JOES PIZZA NEW YORK NY", "18.25", "AX0311A"),
    ]
    static let april = [
        ("2026-04-02", "PAYPAL *SPOTIFY", "11.99", "AX0402A"),
        ("2026-04-05", "WHOLE FOODS MARKET", "54.10", "AX0405A"),
    ]

    /// A CSV profile for a card (`kind`, `currency`, institution) with a masked number ending in 1004.
    static func cardProfile(id: String, institution: String, kind: String = "liability", currency: String = "USD") -> String {
        """
        id: \(id)
        institution: \(institution)
        match:
          header: [Date, Description, Amount]
          file_name: "\(id)*.csv"
        date_format: MM/dd/yyyy
        sign: debit_positive
        columns: {date: Date, description: Description, amount: Amount}
        account:
          institution: \(institution)
          number: "XXXX-XXXX-XXXX-1004"
          masked: true
          kind: \(kind)
          currency: \(currency)
          display_name: \(id) card
        """
    }

    /// Writes configuration files into the bench's config folder and returns an importer reading them.
    static func importer(_ bench: Workbench, files: [String: String] = [:]) throws -> Importer {
        for (name, text) in files {
            try text.write(toFile: bench.folder + "/config/" + name, atomically: true, encoding: .utf8)
        }
        return Importer(store: bench.store, configuration: try CofferConfiguration.load(directory: bench.folder + "/config"))
    }

    static func run(_ importer: Importer, _ bench: Workbench, _ name: String, _ text: String,
                    _ options: ImportOptions = ImportOptions()) throws -> FileReport {
        importer.importFile(try bench.file(name, text), options: options)
    }

    /// What a person sees of the transactions: per account, date, signed amount, status; sorted.
    static func ledger(_ bench: Workbench) async throws -> [String] {
        try await bench.transactions().map { t in
            let day = ISO8601DateFormatter.string(from: t.transactionDate, timeZone: TimeZone(identifier: "UTC")!,
                                                  formatOptions: [.withFullDate])
            return "\(day) \(t.creditDebitIndicator == .debit ? "-" : "")\(t.transactionAmount.amount) \(t.status)"
        }.sorted()
    }

    static func accounts(_ bench: Workbench) async throws -> [Account] {
        try await bench.store.accounts(query: AccountQuery())
    }

    // MARK: One card, two sources

    @Test(arguments: [true, false]) func anAmexCardFromItsOFXAndItsCSVIsOneAccount(ofxFirst: Bool) async throws {
        let bench = try Workbench()
        let files = [("amex-2026-03.ofx", Self.amexOFX()), ("activity-2026-03.csv", Self.amexCSV())]
        let ordered = ofxFirst ? files : files.reversed()
        let first = try Self.run(bench.importer, bench, ordered[0].0, ordered[0].1)
        #expect(first.status == .imported && first.accountsAdded == 1, "\(first.error?.description ?? "")")
        #expect(first.warnings.isEmpty, "\(first.warnings)")
        let second = try Self.run(bench.importer, bench, ordered[1].0, ordered[1].1)
        #expect(second.status == .imported, "\(second.error?.description ?? "")")
        #expect(second.accountsAdded == 0 && second.inserted == 0, "\(second.inserted) inserted")

        // One account; every transaction once.
        let accounts = try await Self.accounts(bench)
        #expect(accounts.count == 1)
        #expect(try await Self.ledger(bench).count == 4)
        // Said once, plainly: not a warning a person must act on.
        let said = second.warnings.filter { $0.contains("alias") }
        #expect(said.count == 1, "\(second.warnings)")
        #expect(said.first?.contains(accounts[0].id.uuidString) == true)
        #expect(second.attention.isEmpty, "\(second.attention)")

        // Later statements of either source land there by one look-up, silently.
        let laterCSV = try Self.run(bench.importer, bench, "activity-2026-04.csv", Self.amexCSV(Self.april))
        let laterOFX = try Self.run(bench.importer, bench, "amex-2026-04.ofx", Self.amexOFX(rows: Self.april))
        for report in [laterCSV, laterOFX] {
            #expect(report.status == .imported && report.accountsAdded == 0)
            #expect(!report.warnings.contains { $0.contains("alias") }, "\(report.warnings)")
        }
        #expect(try await Self.accounts(bench).count == 1)
        #expect(try await Self.ledger(bench).count == 6)
    }

    @Test func bothOrdersEndInTheSameStore() async throws {
        var ledgers: [[String]] = []
        for ofxFirst in [true, false] {
            let bench = try Workbench()
            var files = [("amex-2026-03.ofx", Self.amexOFX()), ("activity-2026-03.csv", Self.amexCSV()),
                         ("activity-2026-04.csv", Self.amexCSV(Self.april))]
            if !ofxFirst { files.reverse() }
            for (name, text) in files { #expect(try Self.run(bench.importer, bench, name, text).status == .imported) }
            #expect(try await Self.accounts(bench).count == 1)
            ledgers.append(try await Self.ledger(bench))
        }
        #expect(ledgers[0] == ledgers[1])
        #expect(ledgers[0].count == 6)
    }

    // MARK: Two stored accounts could be it

    @Test func twoCardsWithTheSameLastFourMakeTheImportFailAndWriteNothing() async throws {
        let bench = try Workbench()
        #expect(try Self.run(bench.importer, bench, "gold.ofx", Self.amexOFX(number: "379900000071004")).accountsAdded == 1)
        let platinum = Self.march.map { ($0.0, $0.1, $0.2, "P" + $0.3) }
        #expect(try Self.run(bench.importer, bench, "platinum.ofx", Self.amexOFX(number: "379911111111004", rows: platinum))
            .accountsAdded == 1, "a second full number is a second card, even with the same last four")
        let cards = try await Self.accounts(bench)
        #expect(cards.count == 2)
        let before = try await Self.ledger(bench)
        let importsBefore = try await bench.store.imports().count

        let report = try Self.run(bench.importer, bench, "activity-2026-03.csv", Self.amexCSV())
        #expect(report.status == .failed)
        let error = try #require(report.error)
        #expect(error.code == .ambiguousAccount)
        for card in cards {
            #expect(error.message.contains(card.id.uuidString) && error.message.contains(card.displayName), "\(error.message)")
        }
        #expect(error.message.contains("••••1004") && error.message.contains("--account ID"), "\(error.message)")
        #expect(error.location?.file?.hasSuffix("activity-2026-03.csv") == true && error.location?.line != nil, "\(error.description)")
        // Nothing written: no transaction, no account, no ledger entry, no alias.
        #expect(try await Self.ledger(bench) == before)
        #expect(try await Self.accounts(bench).count == 2)
        #expect(try await bench.store.imports().count == importsBefore)

        // The person names the card; it is remembered.
        let gold = try #require(cards.first)
        let chosen = try Self.run(bench.importer, bench, "activity-2026-03.csv", Self.amexCSV(),
                                  ImportOptions(account: .existing(gold.id)))
        #expect(chosen.status == .imported && chosen.inserted == 0, "\(chosen.error?.description ?? "")")
        let later = try Self.run(bench.importer, bench, "activity-2026-04.csv", Self.amexCSV(Self.april))
        #expect(later.status == .imported && later.inserted == 2, "\(later.error?.description ?? "")")
        let goldRows = try await bench.store.transactions(query: TransactionQuery(predicate: #Predicate { $0.accountID == gold.id }))
        #expect(goldRows.count == 6)
        #expect(try await Self.accounts(bench).count == 2)
    }

    // MARK: Nothing may contradict

    @Test(arguments: [("EUR", "liability"), ("USD", "asset")])
    func anotherCurrencyOrKindIsAnotherAccount(_ currency: String, _ kind: String) async throws {
        let bench = try Workbench()
        let importer = try Self.importer(bench, files: [
            "profiles/amex-other.yaml": Self.cardProfile(id: "amexother", institution: "American Express", kind: kind, currency: currency),
        ])
        #expect(try Self.run(importer, bench, "card.ofx", Self.amexOFX()).accountsAdded == 1)
        let report = try Self.run(importer, bench, "amexother-2026-03.csv", Self.amexCSV(), ImportOptions(profileID: "amexother"))
        #expect(report.status == .imported && report.accountsAdded == 1, "\(report.error?.description ?? "")")
        #expect(!report.warnings.contains { $0.contains("alias") })
        #expect(try await Self.accounts(bench).count == 2)
    }

    // MARK: An IBAN, its national number and its last digits

    /// A current account as camt gives it: the IBAN, the servicer's BIC (Commerzbank's, in the shipped table).
    static let camt = """
        <?xml version="1.0" encoding="UTF-8"?>
        <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>
        <GrpHdr><MsgId>M1</MsgId><CreDtTm>2026-03-16T08:00:00Z</CreDtTm></GrpHdr>
        <Stmt><Id>S1</Id><Acct><Id><IBAN>DE00370400440532011234</IBAN></Id><Ccy>EUR</Ccy>
        <Svcr><FinInstnId><BIC>COBADEFFXXX</BIC></FinInstnId></Svcr></Acct>
        <Ntry><Amt Ccy="EUR">42.80</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-03-05</Dt></BookgDt>
        <AcctSvcrRef>CB-1</AcctSvcrRef><NtryDtls><TxDtls><RltdPties><Cdtr><Nm>Stadtwerke Musterstadt</Nm></Cdtr></RltdPties></TxDtls></NtryDtls></Ntry>
        <Ntry><Amt Ccy="EUR">2300.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-03-10</Dt></BookgDt>
        <AcctSvcrRef>CB-2</AcctSvcrRef><NtryDtls><TxDtls><RltdPties><Dbtr><Nm>Beispiel GmbH Gehalt</Nm></Dbtr></RltdPties></TxDtls></NtryDtls></Ntry>
        </Stmt></BkToCstmrStmt></Document>
        """

    /// The same account's export of a bank app that shows only the last four digits.
    static let commerzProfile = """
        id: commerz-app
        institution: Commerzbank
        match: {header: [Buchungstag, Text, Betrag], file_name: "commerz-app*.csv"}
        date_format: yyyy-MM-dd
        columns: {date: Buchungstag, description: Text, amount: Betrag}
        account: {institution: Commerzbank, number: "1234", kind: asset, currency: EUR, display_name: Girokonto}
        """
    static let commerzCSV = "Buchungstag,Text,Betrag\n2026-03-05,Stadtwerke Musterstadt,-42.80\n2026-03-10,Beispiel GmbH Gehalt,2300.00\n"

    @Test(arguments: [true, false]) func anIBANAndTheLastFourDigitsOfTheSameAccountAreOneAccount(camtFirst: Bool) async throws {
        let bench = try Workbench()
        let importer = try Self.importer(bench, files: ["profiles/commerz-app.yaml": Self.commerzProfile])
        var files = [("konto-2026-03.xml", Self.camt), ("commerz-app-2026-03.csv", Self.commerzCSV)]
        if !camtFirst { files.reverse() }
        for (name, text) in files {
            let report = try Self.run(importer, bench, name, text)
            #expect(report.status == .imported, "\(name): \(report.error?.description ?? "")")
        }
        #expect(try await Self.accounts(bench).count == 1)
        #expect(try await Self.ledger(bench).count == 2)
    }

    // MARK: The person's configuration

    static let lakesideOFX = amexOFX(number: "4111000022221004", org: "LSCU", fid: "55123")

    @Test func aUserEquivalenceJoinsAnInstitutionTheShippedTableDoesNotKnow() async throws {
        let profile = ["profiles/lakeside.yaml": Self.cardProfile(id: "lakeside", institution: "Lakeside Credit Union")]
        // Without the person's entry, "LSCU" and "Lakeside Credit Union" are two institutions: two accounts.
        let plain = try Workbench()
        let plainImporter = try Self.importer(plain, files: profile)
        #expect(try Self.run(plainImporter, plain, "lscu.ofx", Self.lakesideOFX).status == .imported)
        #expect(try Self.run(plainImporter, plain, "lakeside-03.csv", Self.amexCSV()).accountsAdded == 1)
        #expect(try await Self.accounts(plain).count == 2)

        let bench = try Workbench()
        let importer = try Self.importer(bench, files: profile.merging([
            "institutions.local.yaml": """
                version: 1
                institutions:
                  - id: lakeside-cu
                    names: [Lakeside Credit Union]
                    ofx: [{org: LSCU, fid: "55123"}]
                """,
        ]) { a, _ in a })
        #expect(try Self.run(importer, bench, "lscu.ofx", Self.lakesideOFX).status == .imported)
        let report = try Self.run(importer, bench, "lakeside-03.csv", Self.amexCSV())
        #expect(report.status == .imported && report.accountsAdded == 0 && report.inserted == 0, "\(report.error?.description ?? "")")
        #expect(try await Self.accounts(bench).count == 1)
        #expect(try await Self.ledger(bench).count == 4)
    }

    @Test func accountsYamlLandsAStatementOnTheAccountItNames() async throws {
        let bench = try Workbench()
        let profile = ["profiles/lakeside.yaml": Self.cardProfile(id: "lakeside", institution: "Lakeside Credit Union")]
        #expect(try Self.run(try Self.importer(bench, files: profile), bench, "lscu.ofx", Self.lakesideOFX).status == .imported)
        let card = try #require(try await Self.accounts(bench).first)
        let importer = try Self.importer(bench, files: ["accounts.yaml": """
            version: 1
            accounts:
              - id: \(card.id.uuidString.lowercased())
                identities:
                  - {institution: Lakeside Credit Union, last_digits: "1004"}
            """])
        let report = try Self.run(importer, bench, "lakeside-03.csv", Self.amexCSV())
        #expect(report.status == .imported && report.accountsAdded == 0 && report.inserted == 0, "\(report.error?.description ?? "")")
        #expect(try await Self.accounts(bench).count == 1)

        // An entry naming an account the store does not have fails the file, naming the entry.
        let other = try Workbench()
        let wrong = try Self.importer(other, files: profile.merging(["accounts.yaml": """
            version: 1
            accounts:
              - id: 0F8E5C43-2D7B-8A1C-9E44-5B6A7C8D9E0F
                identities:
                  - {institution: Lakeside Credit Union, last_digits: "1004"}
            """]) { a, _ in a })
        let failed = try Self.run(wrong, other, "lakeside-03.csv", Self.amexCSV())
        #expect(failed.status == .failed)
        #expect(failed.error?.location?.file?.hasSuffix("accounts.yaml") == true && failed.error?.location?.line == 5, "\(failed.error?.description ?? "")")
        #expect(failed.error?.message.contains("0F8E5C43-2D7B-8A1C-9E44-5B6A7C8D9E0F") == true)
        #expect(try await Self.accounts(other).isEmpty)
    }

    // MARK: The table

    @Test func theShippedTableNamesAmexAsItsSourcesDo() throws {
        let table = try CofferConfiguration.load(directory: repositoryRoot + "/config").institutions
        let ofx = InstitutionSignature(name: "AMEX", ids: ["3101"])
        #expect(table.institution(ofx)?.id == "amex")
        #expect(table.equivalent(ofx, InstitutionSignature(name: "American Express", ids: [])))
        #expect(table.equivalent(InstitutionSignature(name: "B1", ids: ["021000021", "10898"]),
                                 InstitutionSignature(name: "JPMorgan Chase Bank", ids: ["021000021"])))
        #expect(table.equivalent(InstitutionSignature(name: nil, ids: ["COBADEFFXXX"]), InstitutionSignature(name: "Commerzbank", ids: [])))
        #expect(!table.equivalent(ofx, InstitutionSignature(name: "Chase", ids: [])))
        #expect(table.institutions.count >= 12)
    }

    @Test func aNameClaimedByTwoInstitutionsIsAConfigurationErrorWithItsLine() throws {
        let bench = try Workbench()
        #expect {
            _ = try Self.importer(bench, files: ["institutions.local.yaml": """
                version: 1
                institutions:
                  - id: my-card
                    names: [Amex]
                """])
        } throws: { error in
            let error = error as? CofferError
            return error?.code == .badConfiguration && error?.location?.line == 3
                && error?.message.contains("'amex'") == true && error?.message.contains("'my-card'") == true
        }
    }
}
