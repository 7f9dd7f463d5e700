import CLibXML2
import CofferModel
import Foundation

/// What `CamtParser` does with libxml2's SAX events (`CamtSAXParser`): follows the element path and turns
/// statements, balances and entries into events as each one ends.
///
/// Errors raised inside callbacks (bad values, `emit` failing, libxml2's own errors) are kept in `failure`, the
/// parser is stopped, and `CamtParser` rethrows once `xmlParseDocument` returns.
final class CamtHandler {
    /// Deeper than this is refused: real camt files nest about 12 levels.
    static let maxDepth = 256
    /// Longer text inside one element is refused: camt's longest values are 500 characters.
    static let maxTextBytes = 1 << 20

    let file: String
    var emit: ((consuming StatementEvent) throws -> Void)?
    @exclusivity(unchecked) private(set) var failure: (any Error)?
    /// The camt version read from the `Document` namespace, once seen.
    private(set) var version: String?

    /// Local names of the open elements, from the root.
    @exclusivity(unchecked) var path: [String] = []
    /// The current element's text as libxml2 delivers it (UTF-8); made a `String` only for the leaves read.
    var text: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: textStorage, count: textCount) }
    /// `text`'s bytes, in one buffer kept (and grown, up to `maxTextBytes`) for the whole parse: an array's
    /// `removeAll(keepingCapacity:)` and `append(contentsOf:)` cost more than the copy itself.
    @exclusivity(unchecked) private var textStorage: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var textCapacity = 256
    @exclusivity(unchecked) private var textCount = 0
    /// The `Ccy` attribute of the innermost open element, if any.
    @exclusivity(unchecked) var currency: String?
    @exclusivity(unchecked) private var lastStartDepth = -1

    @exclusivity(unchecked) var documentDepth: Int?
    @exclusivity(unchecked) var documentEnded = false
    @exclusivity(unchecked) var statementDepth: Int?
    /// The open statement's element path (`Document/BkToCstmrStmt/Stmt[2]`), the start of every path below it.
    @exclusivity(unchecked) private var statementPath: String?
    @exclusivity(unchecked) var entryDepth: Int?
    @exclusivity(unchecked) var txDepth: Int?
    @exclusivity(unchecked) var balanceDepth: Int?
    @exclusivity(unchecked) var statementIndex = 0
    @exclusivity(unchecked) var entryIndex = 0
    @exclusivity(unchecked) var balanceIndex = 0
    @exclusivity(unchecked) var txIndex = 0

    @exclusivity(unchecked) var statement: CamtStatement?
    /// `GrpHdr/CreDtTm`, when a statement has no `CreDtTm` of its own.
    @exclusivity(unchecked) var messageCreated: RawDate?
    /// The current statement is a camt.052 report (`Rpt`), the format that lists pending entries.
    @exclusivity(unchecked) var isReport = false
    @exclusivity(unchecked) var entry: CamtEntry?
    @exclusivity(unchecked) var tx: CamtTxDetails?
    @exclusivity(unchecked) var balance: CamtBalanceDraft?
    /// Per open element, its node in `keyStrings`: its path below the innermost statement, balance, entry or
    /// transaction, so a leaf's key (`RltdPties/Cdtr/Nm`) is looked up, not joined, each time; -1 when not cached.
    @exclusivity(unchecked) private var keyNodes: [Int32] = []
    /// Key nodes by parent node and element name id (`parent << 24 | name`).
    @exclusivity(unchecked) private var keyEdges = CamtIDTable()
    /// Each key node's key; node 0 is the base itself (an empty key).
    @exclusivity(unchecked) private var keyStrings: [String] = [""]
    /// Each key node's field, read once when the node is made, for each kind of base.
    @exclusivity(unchecked) private var keyFields: [CamtField.Codes] = [.base]
    /// More distinct keys than this (only a hostile file has them) are joined each time instead.
    static let maxKeys = 4096

    /// The libxml2 parser this handler serves, asked for the line and column only when a location is made.
    var context: xmlParserCtxtPtr?

    init(file: String, emit: @escaping (consuming StatementEvent) throws -> Void) {
        self.file = file
        self.emit = emit
        textStorage = .allocate(capacity: textCapacity)
    }

    deinit { textStorage.deallocate() }

    /// A `Ccy` attribute as a code: upper-cased and trimmed only when it needs it (almost never: this runs for
    /// every amount).
    static func currencyCode(_ value: String) -> String {
        guard value.utf8.contains(where: { ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x20 }) else { return value }
        return value.trimmingCharacters(in: .whitespaces).uppercased()
    }

    /// Whether the next element's namespace is read: only until the `Document` element is found.
    var wantsNamespace: Bool { documentDepth == nil }

    // MARK: SAX events

    /// An element starts; `nameID` numbers its local name within the document (-1 when not numbered), `element`
    /// is the name's reading.
    func start(_ elementName: String, nameID: Int, element: CamtElementName, namespaceURI: String?,
               currency: String?) {
        guard failure == nil else { return }
        defer { keyNodes.append(keyNode(elementName, nameID: nameID, depth: path.count - 1)) }
        path.append(elementName)
        textCount = 0
        self.currency = currency
        let depth = path.count - 1
        lastStartDepth = depth
        do {
            guard path.count <= Self.maxDepth else {
                throw error("expected camt's shallow structure, found elements nested deeper than \(Self.maxDepth) levels")
            }
            try didStart(elementName, element: element, namespaceURI: namespaceURI, depth: depth)
        } catch {
            fail(error)
        }
    }

    func end() {
        guard failure == nil else { return }
        let depth = path.count - 1
        guard depth >= 0 else { return }
        do {
            try didEnd(depth: depth, isLeaf: lastStartDepth == depth)
        } catch {
            fail(error)
        }
        path.removeLast()
        keyNodes.removeLast()
        textCount = 0  // text after an end tag is the parent's mixed content, which camt never uses
        lastStartDepth = -1
    }

    /// Gathers an element's text (and CDATA), refusing more than `maxTextBytes` so one huge value cannot fill memory.
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard failure == nil else { return }
        let count = textCount &+ bytes.count
        guard count <= Self.maxTextBytes else {
            fail(error("expected a value of at most \(Self.maxTextBytes >> 20) MB (camt values are at most a few "
                       + "hundred characters), found a longer text"))
            return
        }
        if count > textCapacity {
            var capacity = textCapacity
            while capacity < count { capacity &*= 2 }
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            grown.update(from: textStorage, count: textCount)
            textStorage.deallocate()
            textStorage = grown
            textCapacity = capacity
        }
        guard let base = bytes.baseAddress else { return }
        (textStorage + textCount).update(from: base, count: bytes.count)
        textCount = count
    }

    /// An error or warning libxml2 reported, by its error number; `atEnd` when libxml2 stood at the end of the
    /// file's bytes, which inside the `Document` element means the file was cut short.
    func parseError(code: Int, atEnd: Bool, notUTF8: Bool = false) {
        guard failure == nil else { return }
        if atEnd, documentDepth != nil, !documentEnded {
            failure = error(Self.truncated)
            return
        }
        if documentEnded, code == 5 {
            failure = error("expected the file to end after the Document element, found other data after it (two files "
                            + "joined, or a damaged copy?)")
            return
        }
        if notUTF8 {
            // The first 64 KiB were UTF-8 (else the whole file would have been read with Windows-1252 repairs).
            failure = error("expected UTF-8 text, found a byte that is not part of a UTF-8 character: the file is in "
                            + "another encoding though its first 64 KiB read as UTF-8; declare it in the XML declaration "
                            + "(encoding=\"ISO-8859-15\") or convert the file to UTF-8")
            return
        }
        failure = error("malformed XML: \(Self.describe(code))")
    }

    static let truncated = "the file ends before the Document element is closed (truncated?)"

    /// An entity declaration (only possible in a DTD, which `CamtProlog` refuses first).
    func refuseEntity(_ name: String) {
        guard failure == nil else { return }
        fail(error("expected no entity declarations, found '\(name)' (refused as unsafe)"))
    }

    // MARK: Structure

    private func didStart(_ name: String, element: CamtElementName, namespaceURI: String?, depth: Int) throws {
        guard let documentDepth else {
            if element == .document {
                version = try CamtNamespace.version(of: namespaceURI, location: location(upTo: depth))
                self.documentDepth = depth
            }
            return
        }
        if depth == documentDepth + 2, statementDepth == nil, element.isStatement {
            isReport = element == .report
            statementIndex += 1
            entryIndex = 0
            balanceIndex = 0
            statementDepth = depth
            statementPath = nil
            let here = location(upTo: depth)
            statementPath = here.element
            statement = CamtStatement(location: here)
        } else if let s = statementDepth, depth == s + 1, element == .entry || element == .balance {
            // `.begin` waits for the statement's currency: see `CamtStatement`.
            if element == .entry {
                entryIndex += 1
                txIndex = 0
                entryDepth = depth
                entry = CamtEntry(location: location(upTo: depth))
            } else {
                balanceIndex += 1
                balanceDepth = depth
                balance = CamtBalanceDraft()
            }
        } else if let e = entryDepth, depth == e + 2 || depth == e + 1, element == .transaction,
                  depth == e + 1 || path[e + 1] == "NtryDtls" {
            // `Ntry/NtryDtls/TxDtls`; version .001.01 has no `NtryDtls` and puts `TxDtls` in the entry.
            txIndex += 1
            txDepth = depth
            tx = CamtTxDetails()
        }
    }

    private func didEnd(depth: Int, isLeaf: Bool) throws {
        if let t = txDepth {
            if depth > t {
                if isLeaf { try txField(field(.transaction, from: t, to: depth)) }
            } else {
                // An empty `<TxDtls/>` says nothing: it neither makes a batch nor hides the one real detail.
                // Taken, not copied: the details are a large struct.
                if let done = tx.take(), !done.isEmpty { entry?.transactions.append(done) }
                txDepth = nil
            }
        } else if let e = entryDepth {
            if depth > e {
                if isLeaf { try entryField(field(.entry, from: e, to: depth)) }
            } else {
                try finishEntry()
                entry = nil
                entryDepth = nil
            }
        } else if let b = balanceDepth {
            if depth > b {
                if isLeaf { try balanceField(field(.balance, from: b, to: depth)) }
            } else {
                try finishBalance()
                balance = nil
                balanceDepth = nil
            }
        } else if let s = statementDepth {
            if depth > s {
                if isLeaf { try statementField(field(.statement, from: s, to: depth)) }
            } else {
                try finishStatement()
                statement = nil
                statementDepth = nil
                statementPath = nil
            }
        } else if depth == documentDepth {
            documentEnded = true
        } else if let d = documentDepth, depth == d + 3, isLeaf, path[d + 2] == "GrpHdr", path[d + 3] == "CreDtTm" {
            messageCreated = try lenient { try dateTime() }
        }
    }

    /// The field of the leaf ending at `depth` below `base`: its key node's, or read from its key when the key is
    /// not cached.
    private func field(_ kind: CamtField.Base, from base: Int, to depth: Int) -> CamtField {
        let node = keyNodes[depth]
        if node >= 0 { return keyFields[Int(node)][kind] }
        return CamtField(key(from: base, to: depth), below: kind)
    }

    /// The names below `base` down to `depth`, joined: `BkTxCd/Domn/Fmly/Cd`.
    private func key(from base: Int, to depth: Int) -> String {
        // Plain concatenation: `joined` over an array slice costs several times more on this hot path.
        var key = path[base + 1]
        var i = base + 2
        while i <= depth {
            key += "/"
            key += path[i]
            i += 1
        }
        return key
    }

    /// The key node of the element just started at `depth`: 0 for a statement, balance, entry or transaction
    /// itself, its parent's node extended by its name below one, -1 elsewhere (keys are read only below one).
    private func keyNode(_ name: String, nameID: Int, depth: Int) -> Int32 {
        guard let base = txDepth ?? entryDepth ?? balanceDepth ?? statementDepth, depth >= base else { return -1 }
        if depth == base { return 0 }
        let parent = keyNodes[depth - 1]
        guard parent >= 0, nameID >= 0, nameID < 1 << 24 else { return -1 }
        let edge = Int(parent) << 24 | nameID
        if let node = keyEdges[edge] { return node }
        guard keyStrings.count < Self.maxKeys else { return -1 }
        let node = Int32(keyStrings.count)
        let key = parent == 0 ? name : keyStrings[Int(parent)] + "/" + name
        keyStrings.append(key)
        keyFields.append(CamtField.Codes(key))
        keyEdges.insert(key: edge, value: node)
        return node
    }

    // MARK: Errors and locations

    /// The element path up to `depth`, with the index of each statement, entry, transaction and balance:
    /// `Document/BkToCstmrStmt/Stmt[1]/Ntry[3]/Amt`.
    func elementPath(upTo depth: Int) -> String {
        guard depth >= 0, !path.isEmpty else { return "" }
        let last = min(depth, path.count - 1)
        // Below the open statement the path starts with the statement's own, made once when it started: every
        // entry's location is made when the entry starts. Joined with `+=` from the root it was 5,000 instructions
        // an entry (callgrind), and `String.append` alone 300 a piece, so the bytes are written into the string
        // (`UTF8Builder`).
        var first = 0
        var prefix = ""
        if let s = statementDepth, let statementPath, last > s {
            prefix = statementPath
            first = s + 1
        }
        var capacity = prefix.utf8.count
        for i in first...last { capacity += path[i].utf8.count + 1 + 22 }  // a slash, and "[" Int "]" at most
        return UTF8Builder.make(capacity: capacity) { out in
            out.put(prefix)
            for i in first...last {
                if out.count > 0 { out.put(UInt8(ascii: "/")) }
                out.put(path[i])
                let index: Int? = switch i {
                case statementDepth: statementIndex
                case entryDepth: entryIndex
                case txDepth: txIndex
                case balanceDepth: balanceIndex
                default: nil
                }
                if let index {
                    out.put(UInt8(ascii: "["))
                    out.put(number: index)
                    out.put(UInt8(ascii: "]"))
                }
            }
        }
    }

    func location(upTo depth: Int) -> SourceLocation {
        SourceLocation(file: file, line: context.map { Int(xmlSAX2GetLineNumber($0)) },
                       column: context.map { Int(xmlSAX2GetColumnNumber($0)) },
                       element: path.isEmpty ? nil : elementPath(upTo: depth))
    }

    /// A `.badInput` error at the current element.
    func error(_ message: String) -> CofferError {
        CofferError(.badInput, message, location: location(upTo: path.count - 1))
    }

    /// Keeps the first failure; `CamtSAXParser` stops libxml2 when it sees one.
    private func fail(_ error: any Error) {
        if failure == nil { failure = error }
    }

    /// Words for libxml2's error numbers (`xmlParserErrors`).
    private static func describe(_ code: Int) -> String {
        switch code {
        case 3, 4: "expected an XML document, found something else"
        case 5: "the file ends in the middle of an element, or has data after the end (truncated?)"
        case 9: "a character that XML does not allow"
        case 26, 27: "a reference to an undeclared entity (like &nbsp;); escape '&' as &amp;"
        case 76: "an end tag does not match the element it closes (wrong nesting)"
        case 77: "an element is not finished (truncated?)"
        case 85, 86: "elements are not properly nested, or there is content after the document"
        case 89: "entity references loop (refused)"
        default: "libxml2 error \(code)"
        }
    }
}
