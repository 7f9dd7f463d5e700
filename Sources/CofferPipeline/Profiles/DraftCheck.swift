import CofferFormats
import CofferModel
import Foundation

/// Summary rows after the data that the parser would take for data (a date that reads, an amount): each gets a
/// footer marker, a text cell no data row holds (`Anfangssaldo`, `Endsaldo`).
enum DraftFooter {
    static func mark(_ plan: inout DraftPlan, layout: DraftLayout, dateColumn: Int, pattern: DraftDatePattern) {
        guard !layout.footer.isEmpty else { return }
        let dataValues = Set(layout.data.flatMap { layout.rows[$0].cells.map(CSVProfile.normalizedName) })
        var markers: [String] = []
        for index in layout.footer {
            let row = layout.rows[index]
            // A row whose date does not read is set aside by the parser as footer on its own.
            guard pattern.format.parse(row.cell(dateColumn)) != nil else { continue }
            let marker = (0..<row.cells.count).map(row.cell).first { cell in
                cell.contains(where: \.isLetter) && pattern.format.parse(cell) == nil
                    && !dataValues.contains(CSVProfile.normalizedName(cell))
            }
            if let marker {
                if !markers.contains(marker) { markers.append(marker) }
            } else {
                plan.notes.append("footer line \(row.line) reads like a data row and holds no text to tell it apart: "
                                  + "delete it before importing, or set skip_bad_rows")
            }
        }
        plan.footerMarkers = markers
        if !markers.isEmpty {
            plan.comments["footer_markers"] = "summary rows after the data whose date would read as a transaction's"
        }
        if layout.footer.count > 20 {
            plan.notes.append("\(layout.footer.count) lines follow the data; Coffer sets aside at most 20 footer lines")
        }
    }
}

/// Reads the file back with the drafted profile, exactly as `coffer import` would: the YAML through the profile
/// loader, the bytes through `CSVStatementParser`. Every data row must come back as one transaction with the
/// drafted date and signed amount.
enum DraftCheck {
    struct Result {
        var verified: Bool
        var notes: [String]
        /// The file reads only after converting it (UTF-16 on a Coffer that does not convert it itself).
        var needsConversion: Bool
    }

    static func run(yaml: String, bytes: [UInt8], converted: [UInt8]?, fileName: String,
                    expected: [(date: RawDate?, amount: Decimal)]) -> Result {
        let profile: CSVProfile
        do {
            profile = try CSVProfileSet.decode(yaml: yaml, file: fileName)
        } catch {
            let message = (error as? CofferError)?.message ?? "\(error)"
            return Result(verified: false, notes: ["the drafted profile does not load: \(message)"], needsConversion: false)
        }
        func read(_ input: StatementInput) throws -> [RawTransaction] {
            var out: [RawTransaction] = []
            try CSVStatementParser(profile: profile).parse(input) { event in
                if case .transaction(let transaction) = event { out.append(transaction) }
            }
            return out
        }
        let input = StatementInput.bytes(bytes, name: fileName)
        var transactions: [RawTransaction]
        var needsConversion = false
        do {
            transactions = try read(input)
        } catch {
            guard let converted, let read = try? read(.bytes(converted, name: fileName)) else {
                return Result(verified: false, notes: ["reading the file with the draft failed: \(error)"], needsConversion: converted != nil)
            }
            transactions = read
            needsConversion = true
        }
        var notes: [String] = []
        if transactions.count != expected.count {
            notes.append("the draft reads \(transactions.count) transactions but the file has \(expected.count) data rows")
        } else if let (offset, _) = zip(transactions, expected).enumerated().first(where: { _, pair in
            let (t, e) = pair
            let signed = t.indicator == .debit ? -t.amount : t.amount
            return t.transactionDate != e.date || signed != e.amount
        }) {
            let t = transactions[offset]
            notes.append("the draft reads line \(t.location.line ?? 0) as \(t.amount) on \(t.transactionDate.map(\.description) ?? "no date"), "
                         + "not as drafted (\(expected[offset].amount) on \(expected[offset].date?.description ?? "no date"))")
        }
        if !needsConversion, (try? CSVProfileSet(profiles: [profile]).identify(input)) == nil {
            notes.append("coffer import will not recognise the file by itself: name the profile with --profile")
        }
        return Result(verified: notes.isEmpty, notes: notes, needsConversion: needsConversion)
    }
}
