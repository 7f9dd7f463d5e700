import CofferModel

/// Reads SWIFT MT940 customer statements and MT942 interim transaction reports, as banks write them.
///
/// For example:
/// ```swift
/// let input = StatementInput.file("feeds/mt940/sparkasse-2026-03.sta")
/// if MT940Parser.sniff(try input.prefix(4096)) {
///     try MT940Parser().parse(input) { event in print(event) }
/// }
/// ```
/// Each statement (`:20:` … `:62F:`, several per file) is one `.begin` … `.end`: its account from `:25:` (an IBAN,
/// or a German bank code and account number from which the IBAN is derived: `MT940Account`), its balances
/// (`:60F:` opening and `:62F:` closing booked, `:64:` and `:65:` available; intermediate `M` balances only check
/// their page), one transaction per `:61:` with its `:86:` (`MT940StatementLine`, `MT940Information`,
/// `MT940Entry`), and a warning when opening + entries ≠ closing (or an MT942's `:90D:`/`:90C:` totals differ).
/// An MT942 report (`{2:I942`, or `:13D:`/`:34F:`) lists pending entries: its header says it lists pending rows and
/// its as-of time is `:13D:`.
///
/// The file is read twice, line by line: first for each statement's period and closing date (which come after its
/// entries), then for the events; only one statement's fields are held at a time. Lines end in CRLF, LF or CR;
/// text is UTF-8 when valid, else `textEncoding` when one is named (MT940 cannot say: `coffer import --encoding
/// cp1250` for a Polish bank's file), else Windows-1252. A `:61:` that cannot be read, or a statement without
/// `:25:`, fails the file with the line and tag; a balance that cannot be read is skipped with a warning.
package struct MT940Parser: StatementParser {
    package let textEncoding: SingleByteTable?

    package init(textEncoding: SingleByteTable? = nil) { self.textEncoding = textEncoding }

    /// Whether the first bytes look like MT940/MT942: `:20:` and `:25:` fields, and a `:28C:`, `:60F:`/`:60M:`,
    /// `:61:` or `:13D:` among the first lines (after any `{1:…}{2:…}{4:` envelope or bank header).
    package static func sniff(_ prefix: [UInt8]) -> Bool {
        let text = TextEncoding.windows1252.decode(prefix.prefix(16 * 1024))
        var seen: Set<String> = []
        for raw in text.split(whereSeparator: \.isNewline).prefix(200) {
            var line = Substring(raw)
            if let block4 = line.range(of: "{4:") { line = line[block4.upperBound...] }
            if let (tag, _) = MT940FieldReader.tag(line) { seen.insert(tag) }
        }
        return seen.contains("20") && seen.contains("25")
            && !seen.isDisjoint(with: ["28", "28C", "60F", "60M", "61", "13", "13D", "62F"])
    }

    package func parse(_ input: StatementInput, emit: (consuming StatementEvent) throws -> Void) throws {
        var first = MT940Assembler(file: input.name, summarizing: true)
        try read(input, into: &first) { _ in }
        var second = MT940Assembler(file: input.name, summarizing: false, known: first.summaries)
        try read(input, into: &second, emit: emit)
    }

    private func read(_ input: StatementInput, into assembler: inout MT940Assembler,
                      emit: (consuming StatementEvent) throws -> Void) throws {
        var fields = MT940FieldReader(try StatementLineReader(input, table: textEncoding))
        while let token = try fields.next() {
            assembler.messageType = fields.messageType
            try assembler.handle(token, emit: emit)
        }
        try assembler.finish(emit: emit)
    }
}
