import CLibXML2
import CofferModel

/// libxml2's SAX2 push parser, fed in chunks, calling `CamtHandler` with bytes rather than Foundation strings.
///
/// For example:
/// ```swift
/// let sax = CamtSAXParser(handler: handler)
/// defer { sax.close() }
/// while let chunk = try reader.next(), handler.failure == nil { sax.feed(chunk) }
/// sax.finish()
/// ```
/// Only the callbacks camt needs are set: element starts and ends, text, CDATA, entity declarations (refused)
/// and errors. Nothing else is built: no tree, no DTD, no entity table. The options leave out
/// `XML_PARSE_NOENT` (no entity substitution), `XML_PARSE_DTDLOAD` (no external subset) and `XML_PARSE_HUGE`
/// (libxml2's own limits stay), and add `XML_PARSE_NONET`; no entity resolver is installed, so no file or URL
/// is ever opened. Every error or warning libxml2 reports fails the parse, as it did under `XMLParser`.
final class CamtSAXParser {
    /// Held strongly (it holds nothing back): a borrowed `let` costs no retain per callback, where an
    /// `unowned(unsafe)` one was copied (retained and released) at every use.
    private let handler: CamtHandler
    private var context: xmlParserCtxtPtr?
    /// The first bytes, until there are 4 to make the context with.
    private var head: [UInt8] = []
    /// Element name ids by the address libxml2 interns the names at, so each distinct name becomes a `String`
    /// (and a `CamtElementName`) once, with a number for `CamtHandler`'s key cache.
    @exclusivity(unchecked) private var names = CamtIDTable()
    /// Each numbered name's `String` and reading, by id.
    @exclusivity(unchecked) private var nameStrings: [(name: String, element: CamtElementName)] = []
    /// The last `Ccy` value read, by its bytes packed into an integer (`currencyCode(_:)`).
    @exclusivity(unchecked) private var lastCurrency: (packed: UInt64, code: String)?
    /// The first non-zero result of `xmlParseChunk`, in case no error callback said why.
    private(set) var resultCode: Int32 = 0

    static let options = Int32(XML_PARSE_NONET.rawValue)

    /// libxml2 is initialized once per process, before any thread parses.
    private static let initialized: Void = { xmlInitParser() }()

    init(handler: CamtHandler) {
        Self.initialized
        self.handler = handler
    }

    /// The line and column libxml2 has reached (1-based), nil before the first chunk.
    var position: (line: Int, column: Int)? {
        guard let context else { return nil }
        return (Int(xmlSAX2GetLineNumber(context)), Int(xmlSAX2GetColumnNumber(context)))
    }

    /// Parses the next bytes of the document.
    func feed(_ chunk: [UInt8]) {
        guard !chunk.isEmpty else { return }
        guard context != nil else {
            // Like XMLParser: the context is made with the first 4 bytes, from which libxml2 detects the encoding
            // (a BOM, or `<?xm` in UTF-8 or an ASCII-compatible encoding); the rest follows as the first chunk.
            head += chunk
            if head.count >= 4 { start() }
            return
        }
        push(chunk)
    }

    /// Tells libxml2 the document has ended, so it reports what is left unfinished.
    func finish() {
        if context == nil, !head.isEmpty { start() }
        guard let context else { return }
        parse(context, nil, count: 0, terminate: true)
    }

    /// Makes the context from the bytes gathered so far and parses the rest of them.
    private func start() {
        let first = min(4, head.count)
        context = head.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { makeContext($0.baseAddress, count: first) }
        }
        handler.context = context
        let rest = Array(head[first...])
        head = []
        push(rest)
    }

    private func push(_ bytes: [UInt8]) {
        guard let context, !bytes.isEmpty else { return }
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { parse(context, $0.baseAddress, count: $0.count, terminate: false) }
        }
    }

    /// Frees the context; the handler must not ask for positions afterwards.
    func close() {
        handler.context = nil
        if let context { xmlFreeParserCtxt(context) }
        context = nil
        names = CamtIDTable()
        nameStrings = []
    }

    private func parse(_ context: xmlParserCtxtPtr, _ bytes: UnsafePointer<CChar>?, count: Int, terminate: Bool) {
        guard handler.failure == nil else { return }
        let me = Unmanaged.passUnretained(self).toOpaque()
        // Errors outside the parser's own domain (encoding, memory) go to the thread's structured handler, which
        // is ours while libxml2 runs: nothing is printed to stderr.
        xmlSetStructuredErrorFunc(me, Self.onError)
        defer { xmlSetStructuredErrorFunc(nil, nil) }
        let result = xmlParseChunk(context, bytes, Int32(count), terminate ? 1 : 0)
        if result != 0, resultCode == 0 { resultCode = result }
    }

    private func makeContext(_ bytes: UnsafePointer<CChar>?, count: Int) -> xmlParserCtxtPtr? {
        var sax = xmlSAXHandler()
        sax.initialized = UInt32(truncatingIfNeeded: XML_SAX2_MAGIC)
        sax.startElementNs = Self.onStart
        sax.endElementNs = Self.onEnd
        sax.characters = Self.onText
        // Without a DTD libxml2 never calls this for text, but the same function keeps any blank text as text.
        sax.ignorableWhitespace = Self.onText
        sax.cdataBlock = Self.onText
        sax.entityDecl = Self.onEntity
        sax.unparsedEntityDecl = Self.onUnparsedEntity
        sax.serror = Self.onError
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard let context = xmlCreatePushParserCtxt(&sax, me, bytes, Int32(count), nil) else { return nil }
        xmlCtxtUseOptions(context, Self.options)
        return context
    }

    /// Stops libxml2 after a callback failed; no callback runs after this.
    func stop() {
        if let context { xmlStopParser(context) }
    }

    /// The `String` for an element's local name, made once per distinct name: libxml2 interns names in its
    /// dictionary, so the same name arrives at the same address for the whole document.
    private func name(_ localname: UnsafePointer<xmlChar>) -> (id: Int, name: String, element: CamtElementName) {
        let key = Int(bitPattern: UnsafeRawPointer(localname))
        if let id = names[key] {
            let known = nameStrings[Int(id)]
            return (Int(id), known.name, known.element)
        }
        let name = String(cString: localname)
        let element = CamtElementName(name)
        guard let context, xmlDictOwns(context.pointee.dict, localname) == 1 else { return (-1, name, element) }
        let id = nameStrings.count
        names.insert(key: key, value: Int32(truncatingIfNeeded: id))
        nameStrings.append((name, element))
        return (id, name, element)
    }

    // MARK: Callbacks (C function pointers: the parser comes back through the user-data pointer)

    private static func parser(_ pointer: UnsafeMutableRawPointer?) -> CamtSAXParser {
        Unmanaged<CamtSAXParser>.fromOpaque(pointer!).takeUnretainedValue()
    }

    /// Runs `body` on the parser behind `pointer` without retaining it (it outlives every callback).
    private static func with(_ pointer: UnsafeMutableRawPointer?, _ body: (CamtSAXParser) -> Void) {
        Unmanaged<CamtSAXParser>.fromOpaque(pointer!)._withUnsafeGuaranteedRef(body)
    }

    private static let onStart: startElementNsSAX2Func = { pointer, localname, _, uri, _, _, count, _, attributes in
        guard let localname else { return }
        with(pointer) { $0.started(localname, uri: uri, attributeCount: Int(count), attributes: attributes) }
    }

    private static let onEnd: endElementNsSAX2Func = { pointer, _, _, _ in
        with(pointer) { $0.ended() }
    }

    private static let onText: charactersSAXFunc = { pointer, bytes, count in
        guard let bytes, count > 0 else { return }
        with(pointer) { $0.text(UnsafeBufferPointer(start: bytes, count: Int(count))) }
    }

    private func started(_ localname: UnsafePointer<xmlChar>, uri: UnsafePointer<xmlChar>?, attributeCount: Int,
                         attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
        guard handler.failure == nil else { return }
        var currency: String?
        if attributeCount > 0, let attributes {
            // Five pointers per attribute: local name, prefix, URI, value start, value end.
            for i in 0..<attributeCount {
                let base = i &* 5
                guard attributes[base + 1] == nil, let local = attributes[base], Self.isCcy(local),
                      let start = attributes[base + 3], let end = attributes[base + 4] else { continue }
                currency = currencyCode(UnsafeBufferPointer(start: start, count: end - start))
            }
        }
        let (id, name, element) = name(localname)
        let namespace = handler.wantsNamespace ? uri.map { String(cString: $0) } : nil
        handler.start(name, nameID: id, element: element, namespaceURI: namespace, currency: currency)
        if handler.failure != nil { stop() }
    }

    private func ended() {
        guard handler.failure == nil else { return }
        handler.end()
        if handler.failure != nil { stop() }
    }

    private func text(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard handler.failure == nil else { return }
        handler.append(bytes)
        if handler.failure != nil { stop() }
    }

    private static let onEntity: entityDeclSAXFunc = { pointer, name, _, _, _, _ in
        let me = parser(pointer)
        me.handler.refuseEntity(name.map { String(cString: $0) } ?? "")
        me.stop()
    }

    private static let onUnparsedEntity: unparsedEntityDeclSAXFunc = { pointer, name, _, _, _ in
        let me = parser(pointer)
        me.handler.refuseEntity(name.map { String(cString: $0) } ?? "")
        me.stop()
    }

    private static let onError: xmlStructuredErrorFunc = { pointer, error in
        guard let pointer else { return }
        let me = parser(pointer)
        me.handler.parseError(code: Int(error?.pointee.code ?? -1))
        me.stop()
    }

    /// A `Ccy` attribute's code; the last one is kept by its bytes (a file names one or two currencies, on every
    /// amount), so the same value is not made a `String` again.
    private func currencyCode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        // Up to 7 bytes and their count fit one integer exactly.
        guard bytes.count <= 7 else { return CamtHandler.currencyCode(String(decoding: bytes, as: UTF8.self)) }
        var packed = UInt64(bytes.count) << 56
        for (i, b) in bytes.enumerated() { packed |= UInt64(b) << (i &* 8) }
        if let last = lastCurrency, last.packed == packed { return last.code }
        let code = CamtHandler.currencyCode(String(decoding: bytes, as: UTF8.self))
        lastCurrency = (packed, code)
        return code
    }

    private static func isCcy(_ name: UnsafePointer<xmlChar>) -> Bool {
        name[0] == UInt8(ascii: "C") && name[1] == UInt8(ascii: "c") && name[2] == UInt8(ascii: "y") && name[3] == 0
    }
}
