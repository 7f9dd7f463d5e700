import CofferModel
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

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
/// `.warning` when it does not reconcile, `.end`. Foundation's `XMLParser` streams the file (libxml2's push
/// parser underneath, fed through `CamtInputStream`); nothing but the current entry is held. External entities
/// are never resolved and a DTD internal subset is refused before parsing, so entity bombs cannot expand.
package struct CamtParser: StatementParser {
    package init() {}

    /// Whether the bytes start an XML document that declares a camt.052, camt.053 or camt.054 namespace
    /// (`urn:iso:std:iso:20022:tech:xsd:camt.053.001.08`), with any prefix, after a BOM, declaration or comments.
    package static func sniff(_ prefix: [UInt8]) -> Bool {
        CamtProlog.namespaceVersion(prefix) != nil
    }

    /// The message and version the bytes declare, like `camt.053.001.08`; nil when they are not camt.
    package static func version(_ prefix: [UInt8]) -> String? {
        CamtProlog.namespaceVersion(prefix)
    }

    package func parse(_ input: StatementInput, emit: (StatementEvent) throws -> Void) throws {
        try CamtProlog.check(try input.prefix(CamtProlog.prefixLength), file: input.name)
        let stream = CamtInputStream(reader: try input.makeReader())
        let parser = XMLParser(stream: stream)
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        try withoutActuallyEscaping(emit) { emit in
            let handler = CamtHandler(file: input.name, emit: emit)
            defer {
                handler.emit = nil
                parser.delegate = nil
            }
            parser.delegate = handler
            handler.xmlParser = parser
            _ = parser.parse()
            if let failure = stream.failure { throw failure }
            if let failure = handler.failure { throw failure }
            if let error = parser.parserError {
                throw CofferError(.badInput, "malformed XML (XMLParser error \((error as NSError).code))",
                                  location: SourceLocation(file: input.name, line: parser.lineNumber,
                                                           column: parser.columnNumber))
            }
            guard handler.version != nil else {
                throw CofferError(.badInput, "expected an ISO 20022 Document element, found none",
                                  location: SourceLocation(file: input.name))
            }
            guard handler.documentEnded, handler.statementDepth == nil else {
                throw CofferError(.badInput, "the file ends before the Document element is closed (truncated?)",
                                  location: SourceLocation(file: input.name, line: parser.lineNumber,
                                                           column: parser.columnNumber))
            }
        }
    }
}
