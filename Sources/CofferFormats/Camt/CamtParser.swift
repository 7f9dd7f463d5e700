import CofferModel

/// Reads ISO 20022 bank-to-customer cash management messages: camt.053 statements, camt.052 intraday reports
/// and camt.054 debit/credit notifications, versions .001.02 and later.
///
/// For example:
/// ```swift
/// let prefix = try input.prefix(4096)
/// if CamtParser.sniff(prefix) {
///     try CamtParser().parse(input) { event in print(event) }
/// }
/// ```
///
/// Each `Stmt`, `Rpt` or `Ntfctn` is one statement: `.begin`, its balances and transactions in file order, a
/// `.warning` when it does not reconcile, `.end`. libxml2's SAX2 parser streams the file, reading it in chunks
/// (`CamtSAXParser`); nothing but the current entry is held. External entities and DTDs are never loaded and a
/// DTD internal subset is refused before parsing, so entity bombs cannot expand.
package struct CamtParser: StatementParser {
    /// How many bytes of a file are read and handed to libxml2 at a time.
    let chunkSize: Int

    package init() { chunkSize = 1 << 20 }

    /// A parser reading files `chunkSize` bytes at a time (tests split documents at every kind of boundary).
    init(chunkSize: Int) { self.chunkSize = chunkSize }

    /// Whether the bytes start an XML document that declares a camt.052, camt.053 or camt.054 namespace
    /// (`urn:iso:std:iso:20022:tech:xsd:camt.053.001.08`), with any prefix, after a BOM, declaration or comments.
    package static func sniff(_ prefix: [UInt8]) -> Bool {
        CamtProlog.namespaceVersion(prefix) != nil
    }

    /// The message and version the bytes declare, like `camt.053.001.08`; nil when they are not camt.
    package static func version(_ prefix: [UInt8]) -> String? {
        CamtProlog.namespaceVersion(prefix)
    }

    package func parse(_ input: StatementInput, emit: (consuming StatementEvent) throws -> Void) throws {
        var input = input
        var prefix = try input.prefix(CamtProlog.prefixLength)
        if input.convertedFrom == nil, let conversion = CamtProlog.conversion(prefix) {
            input = input.converting(conversion)
            prefix = try input.prefix(CamtProlog.prefixLength)
        }
        try CamtProlog.check(prefix, file: input.name, convertedFrom: input.convertedFrom)
        let reader = try input.makeReader(chunkSize: chunkSize)
        try withoutActuallyEscaping(emit) { emit in
            let handler = CamtHandler(file: input.name, emit: emit)
            let sax = CamtSAXParser(handler: handler)
            defer {
                sax.close()
                handler.emit = nil
            }
            sax.parse(reader, ignoringDeclaredEncoding: input.convertedFrom != nil)
            if let failure = sax.readFailure { throw failure }
            if let failure = handler.failure { throw failure }
            func here() -> SourceLocation {
                SourceLocation(file: input.name, line: sax.position?.line, column: sax.position?.column)
            }
            guard handler.version != nil else {
                if sax.resultCode != 0 {
                    throw CofferError(.badInput, "malformed XML (libxml2 error \(sax.resultCode))", location: here())
                }
                throw CofferError(.badInput, "expected an ISO 20022 Document element, found none",
                                  location: SourceLocation(file: input.name))
            }
            guard handler.documentEnded, handler.statementDepth == nil else {
                throw CofferError(.badInput, CamtHandler.truncated, location: here())
            }
            if sax.dataAfterEnd {
                throw CofferError(.badInput, "expected nothing but padding after the end of the Document element, found "
                                  + "other data after NUL bytes (two files joined?)", location: here())
            }
            if let padding = sax.paddingAfterEnd {
                try emit(.warning(ParseWarning(
                    "ignored \(padding) byte\(padding == 1 ? "" : "s") after the end of the Document element: only an end-of-file "
                        + "mark (Ctrl-Z), NUL padding or blanks, which old transfer software adds",
                    location: here())))
            } else if sax.resultCode != 0 {
                throw CofferError(.badInput, "malformed XML (libxml2 error \(sax.resultCode))", location: here())
            }
            if let repair = reader.firstRepair {
                let hex = String(repair.byte, radix: 16, uppercase: true)
                try emit(.warning(ParseWarning(
                    "the file is not valid UTF-8 (byte 0x\(hex) at byte \(repair.offset) is not part of a UTF-8 character): "
                        + "bytes like it were read as Windows-1252, the encoding such files are usually in; if its text "
                        + "reads wrong, convert it to UTF-8 (or declare its encoding) and import it again with --force",
                    location: SourceLocation(file: input.name, line: repair.line))))
            }
        }
    }
}
