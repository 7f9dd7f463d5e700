import CofferModel

/// Reads QIF (Quicken Interchange Format) files of bank, cash, credit card and other asset/liability accounts, as
/// Quicken, Microsoft Money, GnuCash and banks write them.
///
/// For example:
/// ```swift
/// let input = StatementInput.file("feeds/qif/checking-2026-03.qif")
/// if QIFParser.sniff(try input.prefix(4096)) {
///     try QIFParser(dateOrder: nil).parse(input) { event in print(event) }
/// }
/// ```
/// Each `!Type:Bank`, `CCard`, `Cash`, `Oth A` or `Oth L` section is one statement of the account the `!Account`
/// block before it names (without one the import's `--account`/`--new-account` says which). A record (`^` ends
/// it; a missing last `^` is fine) is one transaction: `D` date, `T` (or `U`) amount, signed from the account's
/// side (on a card a negative amount is a charge, a debit), `P` payee, `M` memo, `N` number (digits: a check
/// number; `ATM`, `DEP`, `XFER`: its type), `L` category (kept for the MCC table; `[Account]` is a transfer),
/// `C` cleared mark; splits (`S`, `E`, `$`) stay one transaction for the total with the splits in the memo
/// (FinanceKit has no splits). When a file marks cleared records (`C*`, `CX`), an unmarked one is pending.
/// Investment sections are skipped with a warning; category, class and memorized lists are skipped.
///
/// QIF states no currency (the stored account's, `--currency`, else USD) and no period or ids: the content decides
/// what is already stored. The file is read twice: first to decide the order of day and month (`QIFFileFacts`),
/// then for the events.
package struct QIFParser: StatementParser {
    /// The order of day and month in dates like `01/02/2026` (`--date-order`); nil lets the file's dates decide.
    package let dateOrder: QIFDateOrder?
    /// The single-byte encoding of text that is not UTF-8 (QIF cannot say; Quicken writes the system's code page):
    /// nil reads it as Windows-1252.
    package let textEncoding: SingleByteTable?

    package init(dateOrder: QIFDateOrder? = nil, textEncoding: SingleByteTable? = nil) {
        self.dateOrder = dateOrder
        self.textEncoding = textEncoding
    }

    /// Whether the first non-blank line is a QIF header: `!Type:…`, `!Account`, `!Option:…` or `!Clear:…`.
    package static func sniff(_ prefix: [UInt8]) -> Bool {
        var bytes = prefix[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let head = bytes.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }.prefix(64)
        let line = String(decoding: head.prefix { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self).lowercased()
        return ["!type:", "!account", "!option:", "!clear:"].contains { line.hasPrefix($0) }
    }

    package func parse(_ input: StatementInput, emit: (consuming StatementEvent) throws -> Void) throws {
        let facts = try QIFFileFacts.scan(input, given: dateOrder)
        var records = QIFRecordReader(try StatementLineReader(input, table: textEncoding))
        var assembler = QIFAssembler(file: input.name, facts: facts)
        while let item = try records.next() { try assembler.handle(item, emit: emit) }
        try assembler.finish(emit: emit)
    }
}
