import CofferModel

/// Parses OFX 1.x (SGML), OFX 2.x (XML), QFX and QBO statements into statement events, streaming.
///
/// For example:
/// ```swift
/// let input = StatementInput.file("feeds/ofx/bank-ofx1-sgml.ofx")
/// if OFXParser.sniff(try input.prefix(4096)) {
///     try OFXParser().parse(input) { event in print(event) }
/// }
/// ```
/// One tokenizer reads both dialects and the ways real files bend them (see `OFXElementReader` for the
/// structure rules, `OFXDate` and `OFXAmount` for values, `OFXStatementAssembler` and `OFXTransactionFields` for
/// the mapping). The file is read in chunks and events are handed out after each chunk, so memory stays bounded
/// whatever the file's size. Everything after the first `</OFX>` is ignored. Malformed input throws
/// `CofferError(.badInput)` with the line, column and element path; an institution's error status throws
/// `CofferError(.institutionError)`; a file with no statement at all is `.badInput` too.
package struct OFXParser: StatementParser {
    package init() {}

    /// Whether `prefix` (the first bytes of a file; 1 KB is plenty) looks like OFX of any version.
    package static func sniff(_ prefix: [UInt8]) -> Bool { OFXHeader.sniff(prefix) }

    package func parse(_ input: StatementInput, emit: (consuming StatementEvent) throws -> Void) throws {
        let file = input.name
        let reader = try input.makeReader()
        let tokenizer = OFXTokenizer(file: file)
        var elements = OFXElementReader(file: file)
        var spare: [StatementEvent] = []
        while let chunk = try reader.next() {
            // A byte order mark is text before <OFX>: part of the (ignored) header, wherever chunks split it.
            try tokenizer.feed(chunk, eof: false, into: &elements)
            try drain(&elements, &spare, emit)
            if elements.isFinished { return try requireStatement(elements, tokenizer, file) }
        }
        try tokenizer.feed([], eof: true, into: &elements)
        try drain(&elements, &spare, emit)
        let end = tokenizer.position
        try elements.finish(line: end.line, column: end.column)
        try requireStatement(elements, tokenizer, file)
    }

    /// A file that holds no statement is not a statement file, however OFX-like its tags: "imported, 0
    /// transactions" would hide that it is something else (an empty response, a sign-on only, garbage). An
    /// institution's error status has been thrown before this; an empty statement with its period counts.
    private func requireStatement(_ elements: OFXElementReader, _ tokenizer: OFXTokenizer, _ file: String) throws {
        guard elements.assembler.statementCount == 0 else { return }
        let end = tokenizer.position
        throw CofferError(.badInput, "expected a bank, card or investment statement (<STMTRS>, <CCSTMTRS> or "
                          + "<INVSTMTRS>) inside <OFX>, found none: the file holds no statement",
                          location: SourceLocation(file: file, line: end.line, column: end.column, element: "OFX"))
    }

    /// Hands out the events so far; the two buffers swap so neither is reallocated chunk after chunk.
    private func drain(_ elements: inout OFXElementReader, _ spare: inout [StatementEvent],
                       _ emit: (consuming StatementEvent) throws -> Void) throws {
        guard !elements.assembler.events.isEmpty else { return }
        swap(&spare, &elements.assembler.events)
        // Each event is moved out to `emit`, neither copied (a transaction's event is a few hundred bytes and a
        // dozen references to retain and release) nor released here afterwards.
        try spare.drainMoving(leaving: .end) { event in try emit(event) }
    }
}
