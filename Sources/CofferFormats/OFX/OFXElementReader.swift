import CofferModel

/// One open aggregate: its tag, the name it was opened with, and where.
struct OFXFrame {
    let tag: OFXTag
    /// The reader's index of an unknown element's name; -1 for known tags.
    let unknown: Int32
    let name: String
    /// The element path with indices, `OFX/BANKMSGSRSV1/STMTTRNRS/STMTRS/BANKTRANLIST/STMTTRN[3]`.
    let path: String
    let line: Int
    let column: Int
    /// How many aggregates of each name opened inside this one so far (for the indices in paths); a short
    /// list searched from the end, since siblings of one name come together.
    var childCounts: [(name: String, count: Int)] = []

    /// Counts one more child aggregate called `name` and returns its number.
    mutating func countChild(_ name: String) -> Int {
        var i = childCounts.count &- 1
        while i >= 0 {
            if childCounts[i].name == name {
                childCounts[i].count &+= 1
                return childCounts[i].count
            }
            i &-= 1
        }
        childCounts.append((name, 1))
        return 1
    }
}

/// Turns tokens into OFX structure for both SGML (1.x) and XML (2.x) bodies, and hands it to the assembler.
///
/// For example, these read alike: `<NAME>Acme` (SGML, no end tag), `<NAME>Acme</NAME>`, `<NAME>\nAcme\n`,
/// `<NAME><![CDATA[Acme]]></NAME>`; `<MEMO/>`, `<MEMO></MEMO>` and an SGML `<MEMO>` directly followed by a tag
/// are empty values.
///
/// The rules:
/// - A start tag followed by text (or CDATA) is a leaf; its value runs to the next tag, and a matching end tag
///   right after it is consumed. A start tag followed by a tag is an aggregate, unless its name is a known leaf.
/// - An end tag closes the nearest open aggregate of that name; unknown aggregates left open inside it (SGML
///   leaves without values) close with it. A known aggregate left open inside it is wrong nesting: an error.
/// - An end tag naming no open aggregate: a stray leaf end tag is ignored; any other closes the innermost
///   aggregate (an aggregate closed with the wrong end tag).
/// - Before `<OFX>`, text and comments are the SGML header; after `</OFX>` everything is ignored (trailing NULs).
/// - Nesting deeper than `maxDepth` is an error, and nothing recurses.
struct OFXElementReader: OFXTokenSink {
    static let maxDepth = 256
    static let maxHeaderBytes = 64 << 10
    static let maxValueBytes = 16 << 20

    private enum Phase { case prolog, body, done }

    /// A start tag whose content is not known yet.
    private struct Start {
        let tag: OFXTag
        /// For unknown tags, the index of the upper-cased name in `unknownNames`; -1 for known tags. An index, not
        /// a `String`, keeps this value trivially copyable on the hot path.
        let unknown: Int32
        let line: Int
        let column: Int
    }

    var assembler: OFXStatementAssembler
    private let file: String
    private var phase = Phase.prolog
    private var stack: [OFXFrame] = []
    /// The innermost open element's tag, read in place: `stack.last?.tag` copied the whole frame (its strings and
    /// counts) first, for every element.
    private var topTag: OFXTag? { stack.isEmpty ? nil : stack[stack.count &- 1].tag }
    private var pending: Start?
    private var leaf: Start?
    private let value = OFXValueBuffer()
    private var segmentStart = 0
    private var valueHasAmpersand = false
    private var header = OFXHeader()
    /// Known aggregates a recovery closed, whose late end tags are then ignored.
    private var recovered: [OFXTag] = []
    /// Names of the unknown elements seen (`INTU.BID`), for paths and messages; capped, then shared.
    private var unknownNames: [String] = []
    private var unknownIndex: [String: Int32] = [:]
    static let maxUnknownNames = 4096

    init(file: String) {
        self.file = file
        self.assembler = OFXStatementAssembler(file: file)
    }

    var isFinished: Bool { phase == .done }

    mutating func startTag(_ name: UnsafeBufferPointer<UInt8>, selfClosing: Bool, line: Int, column: Int) throws {
        let start = makeStart(name, line: line, column: column)
        switch phase {
        case .done: return
        case .prolog:
            guard start.tag == .ofx else {
                // A wrapper element around the body (`<html><pre>` of a saved page) is skipped; an OFX element
                // before `<OFX>` means the file is broken.
                if start.tag == .other { return }
                throw error("expected <OFX> as the first element, found <\(self.name(start))>", line: line, column: column)
            }
            phase = .body
            assembler.values.encoding = header.encoding
            assembler.values.table = header.singleByteTable
            try push(start)
            if selfClosing { try close(name: start, line: line, column: column) }
            return
        case .body: break
        }
        try finishLeaf()
        if let open = pending {
            pending = nil
            if open.tag.isLeaf { try emitLeaf(open, value: OFXValueBuffer.empty) } else { try push(open) }
        }
        if selfClosing {
            if start.tag.isAggregate { try push(start); try close(name: start, line: line, column: column) }
            else { try emitLeaf(start, value: OFXValueBuffer.empty) }
        } else {
            pending = start
        }
    }

    mutating func endTag(_ name: UnsafeBufferPointer<UInt8>, line: Int, column: Int) throws {
        let end = makeStart(name, line: line, column: column)
        switch phase {
        case .done: return
        case .prolog:
            if end.tag == .other { return }  // a wrapper's (`</title>` of a saved page)
            throw error("expected <OFX> before any end tag, found </\(self.name(end))>", line: line, column: column)
        case .body: break
        }
        if let open = leaf {
            try finishLeaf()
            if same(open, end) { return }
        }
        if let open = pending {
            pending = nil
            if same(open, end) {
                if open.tag.isAggregate { try push(open); try close(name: end, line: line, column: column) }
                else { try emitLeaf(open, value: OFXValueBuffer.empty) }
                return
            }
            if open.tag.isAggregate { try push(open) } else { try emitLeaf(open, value: OFXValueBuffer.empty) }
        }
        try close(name: end, line: line, column: column)
    }

    mutating func text(_ bytes: UnsafeBufferPointer<UInt8>, isCDATA: Bool, line: Int, column: Int) throws {
        switch phase {
        case .done: return
        case .prolog:
            try header.append(bytes, file: file, line: line, column: column)
            return
        case .body: break
        }
        if leaf == nil {
            guard let open = pending, isCDATA || bytes.contains(where: { !OFXText.isSpace($0) }) else { return }
            pending = nil
            leaf = open
            value.reset()
            segmentStart = 0
            valueHasAmpersand = false
        }
        if value.count &+ bytes.count > OFXElementReader.maxValueBytes, let open = leaf {
            throw error("the value of <\(name(open))> runs past 16 MB", line: open.line, column: open.column)
        }
        if isCDATA {
            if valueHasAmpersand { value.decodeEntities(from: segmentStart) }
            value.append(bytes)
            segmentStart = value.count
            valueHasAmpersand = false
        } else {
            value.append(bytes)
            if !valueHasAmpersand, bytes.contains(0x26) { valueHasAmpersand = true }
        }
    }

    mutating func comment(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        if phase == .prolog { try header.append(bytes, file: file, line: 1, column: 1) }
    }

    mutating func instruction(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        if phase == .prolog { header.readInstruction(bytes) }
    }

    /// Called at the end of the input: everything must be closed.
    mutating func finish(line: Int, column: Int) throws {
        switch phase {
        case .done: return
        case .prolog:
            let message = header.isEmpty ? "the file is empty; expected an OFX statement"
                : "not an OFX file: expected an OFX header and an <OFX> element, found none"
            throw error(message, line: line, column: column)
        case .body:
            let open = leaf ?? pending
            let inside = open.map { "<\(name($0))> (line \($0.line))" }
                ?? stack.last.map { "<\($0.name)> opened at line \($0.line)" } ?? "<OFX>"
            throw CofferError(.badInput, "the file ends inside \(inside); expected the rest of the statement and </OFX>",
                              location: SourceLocation(file: file, line: line, column: column, element: stack.last?.path))
        }
    }

    // MARK: - Structure

    private func name(_ start: Start) -> String { start.unknown < 0 ? start.tag.name : unknownNames[Int(start.unknown)] }

    private mutating func makeStart(_ name: UnsafeBufferPointer<UInt8>, line: Int, column: Int) -> Start {
        let tag = OFXTag.lookup(name)
        let unknown = tag == .other ? intern(String(decoding: name, as: UTF8.self).uppercased()) : -1
        return Start(tag: tag, unknown: unknown, line: line, column: column)
    }

    private func same(_ a: Start, _ b: Start) -> Bool {
        a.tag == b.tag && a.unknown == b.unknown
    }

    private mutating func intern(_ name: String) -> Int32 {
        if let index = unknownIndex[name] { return index }
        if unknownNames.count >= OFXElementReader.maxUnknownNames { return Int32(unknownNames.count &- 1) }
        unknownNames.append(unknownNames.count == OFXElementReader.maxUnknownNames &- 1 ? "UNKNOWN" : name)
        unknownIndex[name] = Int32(unknownNames.count &- 1)
        return Int32(unknownNames.count &- 1)
    }

    private mutating func push(_ start: Start) throws {
        if start.tag.isAggregate {
            recovered.removeAll()  // late end tags come right after their recovery, before any new element
            if start.tag != .ofx, let open = stack.lastIndex(where: { $0.tag == start.tag }) {
                try recover(closingTo: open &- 1, because: "the next <\(start.tag.name)> (line \(start.line))",
                            line: start.line, column: start.column)
            } else if topTag?.holdsOnlyLeaves == true {
                // `<LEDGERBAL><BALAMT>…<DTASOF>…<AVAILBAL>`: a balance or account aggregate holds no aggregate, so
                // the one left open ends here.
                try recover(closingTo: stack.count &- 2, because: "<\(start.tag.name)> (line \(start.line))",
                            line: start.line, column: start.column)
            }
        }
        guard stack.count < OFXElementReader.maxDepth else {
            throw CofferError(.badInput, "elements nest deeper than \(OFXElementReader.maxDepth) levels; an OFX statement "
                              + "needs fewer than 20", location: SourceLocation(file: file, line: start.line,
                                                                              column: start.column, element: stack.last?.path))
        }
        let name = self.name(start)
        var path = name
        if !stack.isEmpty {
            let count = stack[stack.count &- 1].countChild(name)
            let indexed = count > 1 || start.tag == .stmtTrn || start.tag == .invBankTran
            let parentPath = stack[stack.count &- 1].path
            // Written into the string's storage: six `String.append`s were 2% of an OFX import (callgrind).
            path = UTF8Builder.make(capacity: parentPath.utf8.count &+ name.utf8.count &+ 23) { text in
                text.put(parentPath)
                text.put(UInt8(ascii: "/"))
                text.put(name)
                if indexed {
                    text.put(UInt8(ascii: "["))
                    text.put(number: count)
                    text.put(UInt8(ascii: "]"))
                }
            }
        }
        let frame = OFXFrame(tag: start.tag, unknown: start.unknown, name: name, path: path, line: start.line,
                             column: start.column)
        try assembler.open(frame, parent: topTag)
        stack.append(frame)
    }

    private mutating func close(name end: Start, line: Int, column: Int) throws {
        var index = stack.count &- 1
        while index >= 0, !(stack[index].tag == end.tag && stack[index].unknown == end.unknown) {
            index &-= 1
        }
        if index < 0 {
            // No open aggregate of that name: a stray leaf end tag, an unknown element's, or the late end tag of an
            // aggregate a recovery closed, are ignored; a known aggregate's closes the innermost aggregate (one
            // closed with the wrong end tag).
            if end.tag.isLeaf || end.tag == .other || stack.isEmpty { return }
            if let late = recovered.firstIndex(of: end.tag), end.tag != .other {
                recovered.remove(at: late)
                return
            }
            index = stack.count &- 1
            let inner = stack[index]
            if inner.tag != .other {
                assembler.events.append(.warning(ParseWarning(
                    "expected </\(inner.name)> (opened at line \(inner.line)), found </\(name(end))>; read as its end",
                    location: SourceLocation(file: file, line: line, column: column, element: inner.path))))
            }
        }
        if stack.count &- 1 > index {
            try recover(closingTo: index, because: "</\(name(end))>", line: line, column: column)
        }
        try pop()
    }

    /// Closes the aggregates left open inside `stack[index]`: a known one left open (a `<BANKTRANLIST>` that runs
    /// into `</STMTRS>`, an XML `<STMTTRN>` without its end tag) is recovered with one warning, keeping what was
    /// read; unknown ones (SGML leaves without values) close silently.
    private mutating func recover(closingTo index: Int, because cause: String, line: Int, column: Int) throws {
        var unclosed: [String] = []
        while stack.count &- 1 > index {
            let inner = stack[stack.count &- 1]
            if inner.tag.isAggregate {
                unclosed.append("<\(inner.name)> (line \(inner.line))")
                if recovered.count < 16 { recovered.append(inner.tag) }
            }
            try pop()
        }
        guard !unclosed.isEmpty else { return }
        assembler.events.append(.warning(ParseWarning(
            "expected the end tag of \(unclosed.reversed().joined(separator: ", ")) before \(cause); closed there, "
            + "keeping what it holds", location: SourceLocation(file: file, line: line, column: column,
                                                              element: stack.last?.path))))
    }

    private mutating func pop() throws {
        guard let frame = stack.popLast() else { return }
        try assembler.close(frame, parent: topTag)
        if stack.isEmpty { phase = .done }
    }

    private mutating func finishLeaf() throws {
        guard let open = leaf else { return }
        leaf = nil
        if valueHasAmpersand { value.decodeEntities(from: segmentStart) }
        try emitLeaf(open, value: value.trimmed)
    }

    private mutating func emitLeaf(_ open: Start, value: UnsafeBufferPointer<UInt8>) throws {
        guard open.tag != .other, !stack.isEmpty else { return }
        let top = stack.count &- 1
        guard stack[top].tag != .other else { return }
        do {
            try assembler.leaf(open.tag, value: value, inside: stack[top].tag)
        } catch let problem as OFXValueError {
            throw CofferError(.badInput, problem.message, location: SourceLocation(
                file: file, line: open.line, column: open.column, element: stack[top].path + "/" + open.tag.name))
        }
        if assembler.wantsLeafLocation {
            assembler.wantsLeafLocation = false
            assembler.leafLocation = SourceLocation(file: file, line: open.line, column: open.column,
                                                    element: stack[top].path + "/" + open.tag.name)
        }
        if let warning = assembler.leafWarning {
            assembler.leafWarning = nil
            assembler.events.append(.warning(ParseWarning(warning, location: SourceLocation(
                file: file, line: open.line, column: open.column, element: stack[top].path + "/" + open.tag.name))))
        }
    }

    private func error(_ message: String, line: Int, column: Int) -> CofferError {
        CofferError(.badInput, message, location: SourceLocation(file: file, line: line, column: column,
                                                                 element: stack.last?.path))
    }
}
