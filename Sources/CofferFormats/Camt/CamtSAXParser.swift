import CLibXML2
import CofferModel

/// libxml2's SAX2 parser, pulling the document's bytes from a `ByteReader`, calling `CamtHandler` with bytes
/// rather than Foundation strings.
///
/// For example:
/// ```swift
/// let sax = CamtSAXParser(handler: handler)
/// defer { sax.close() }
/// sax.parse(try input.makeReader())
/// ```
/// Only the callbacks camt needs are set: element starts and ends, text, CDATA, entity declarations (refused)
/// and errors. Nothing else is built: no tree, no DTD, no entity table. The options leave out
/// `XML_PARSE_NOENT` (no entity substitution), `XML_PARSE_DTDLOAD` (no external subset) and `XML_PARSE_HUGE`
/// (libxml2's own limits stay), and add `XML_PARSE_NONET`; no entity resolver is installed, so no file or URL
/// is ever opened. Every error or warning libxml2 reports fails the parse, as it did under `XMLParser`.
///
/// libxml2 reads through a callback (`xmlCreateIOParserCtxt`, `xmlParseDocument`) rather than being pushed
/// chunks (`xmlParseChunk`): the push parser looks ahead for the end of every tag before parsing it, and cost
/// 16% more instructions in libxml2 on a camt.053 file of 10k entries (a C program with empty callbacks,
/// callgrind; docs/benchmarks.md).
final class CamtSAXParser {
    /// Held strongly (it holds nothing back): a borrowed `let` costs no retain per callback, where an
    /// `unowned(unsafe)` one was copied (retained and released) at every use.
    private let handler: CamtHandler
    private var context: xmlParserCtxtPtr?
    /// Element name ids by the address libxml2 interns the names at, so each distinct name becomes a `String`
    /// (and a `CamtElementName`) once, with a number for `CamtHandler`'s key cache.
    @exclusivity(unchecked) private var names = CamtIDTable()
    /// Each numbered name's `String` and reading, by id.
    @exclusivity(unchecked) private var nameStrings: [(name: String, element: CamtElementName)] = []
    /// The last `Ccy` value read, by its bytes packed into an integer (`currencyCode(_:)`).
    @exclusivity(unchecked) private var lastCurrency: (packed: UInt64, code: String)?
    /// The first non-zero result of `xmlParseDocument`, in case no error callback said why.
    private(set) var resultCode: Int32 = 0

    /// Where libxml2's reads come from, and the chunk being handed out.
    private var reader: ByteReader?
    private var chunk: [UInt8] = []
    private var chunkOffset = 0
    /// Whether the reader has reached the end of the document's bytes.
    private(set) var readAll = false
    /// The reader's failure (an I/O error), which libxml2 only sees as a failed read.
    private(set) var readFailure: (any Error)?
    /// How many bytes followed the `Document` element's end that were only padding (`restIsPadding`), when libxml2
    /// stopped at them: the document is whole, and the parse counts as a success.
    private(set) var paddingAfterEnd: Int?

    static let options = Int32(XML_PARSE_NONET.rawValue)

    /// libxml2 is initialized once per process, before any thread parses.
    private static let initialized: Void = { xmlInitParser() }()

    init(handler: CamtHandler) {
        Self.initialized
        self.handler = handler
    }

    /// The line and column libxml2 has reached (1-based), nil before parsing.
    var position: (line: Int, column: Int)? {
        guard let context else { return nil }
        return (Int(xmlSAX2GetLineNumber(context)), Int(xmlSAX2GetColumnNumber(context)))
    }

    /// Parses the whole document, reading `reader` as libxml2 asks for bytes. Errors are the handler's `failure`,
    /// `readFailure`, or `resultCode`. `ignoringDeclaredEncoding` is for text converted to UTF-8 as it is read
    /// (a UTF-16 file): its declaration's `encoding="UTF-16"` names what the file was (`XML_PARSE_IGNORE_ENC`).
    func parse(_ reader: ByteReader, ignoringDeclaredEncoding: Bool = false) {
        self.reader = reader
        let me = Unmanaged.passUnretained(self).toOpaque()
        var sax = Self.saxHandler()
        guard let context = xmlCreateIOParserCtxt(&sax, me, Self.onRead, nil, me, XML_CHAR_ENCODING_NONE) else {
            resultCode = -1
            return
        }
        xmlCtxtUseOptions(context, Self.options | (ignoringDeclaredEncoding ? Int32(XML_PARSE_IGNORE_ENC.rawValue) : 0))
        self.context = context
        handler.context = context
        // Errors outside the parser's own domain (encoding, memory) go to the thread's structured handler, which
        // is ours while libxml2 runs: nothing is printed to stderr.
        xmlSetStructuredErrorFunc(me, Self.onError)
        defer { xmlSetStructuredErrorFunc(nil, nil) }
        let result = xmlParseDocument(context)
        if result != 0, resultCode == 0 { resultCode = result }
        // libxml2 takes a NUL byte for the end of its input: what follows one after the document must be padding too.
        if result == 0, handler.documentEnded, handler.failure == nil, paddingAfterEnd == nil {
            if let padding = restIsPadding() {
                if padding > 0 { paddingAfterEnd = padding }
            } else {
                dataAfterEnd = true
            }
        }
    }

    /// Set when bytes other than padding follow a NUL after the `Document` element (a second document?).
    private(set) var dataAfterEnd = false

    /// Frees the context; the handler must not ask for positions afterwards.
    func close() {
        handler.context = nil
        if let context { xmlFreeParserCtxt(context) }
        context = nil
        reader = nil
        chunk = []
        names = CamtIDTable()
        nameStrings = []
    }

    /// Fills `buffer` with up to `count` bytes, across the reader's chunks (libxml2 detects the encoding from the
    /// first four bytes it has, so a short first read would hide a BOM): the count given, 0 at the end, -1 when
    /// reading failed.
    private func read(into buffer: UnsafeMutablePointer<CChar>, count: Int) -> Int32 {
        var filled = 0
        while filled < count {
            if chunkOffset == chunk.count {
                guard loadNextChunk() else { return readFailure == nil ? Int32(filled) : -1 }
                continue
            }
            let n = min(count - filled, chunk.count - chunkOffset)
            chunk.withUnsafeBytes { bytes in
                UnsafeMutableRawPointer(buffer + filled).copyMemory(from: bytes.baseAddress! + chunkOffset, byteCount: n)
            }
            chunkOffset += n
            filled += n
        }
        return Int32(filled)
    }

    /// The number of bytes from libxml2's position to the end of the file when all of them are padding, else nil.
    /// Reads the rest of the file to know.
    private func restIsPadding() -> Int? {
        guard let input = context?.pointee.input, let cur = input.pointee.cur, let end = input.pointee.end else { return nil }
        var count = 0
        var p = cur
        while p < end {
            guard StatementInput.isPadding(p.pointee) else { return nil }
            p += 1
            count += 1
        }
        while true {
            while chunkOffset < chunk.count {
                guard StatementInput.isPadding(chunk[chunkOffset]) else { return nil }
                chunkOffset += 1
                count += 1
            }
            guard loadNextChunk() else { return readFailure == nil ? count : nil }
        }
    }

    /// Replaces the used-up chunk with the reader's next one; false at the end of the file (`readAll`) or when
    /// reading failed (`readFailure`).
    private func loadNextChunk() -> Bool {
        guard !readAll, readFailure == nil, let reader else { return false }
        do {
            guard let next = try reader.next() else {
                readAll = true
                return false
            }
            chunk = next
            chunkOffset = 0
            return true
        } catch {
            readFailure = error
            return false
        }
    }

    /// Whether libxml2 stands at the end of everything the file holds: an error there means the file was cut
    /// short. A character cut in two leaves up to three bytes unread.
    private var isAtEnd: Bool {
        guard readAll, chunkOffset == chunk.count, let input = context?.pointee.input,
              let cur = input.pointee.cur, let end = input.pointee.end else { return false }
        return end - cur <= 3
    }

    private static func saxHandler() -> xmlSAXHandler {
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
        return sax
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

    private static let onRead: xmlInputReadCallback = { pointer, buffer, count in
        guard let pointer, let buffer, count > 0 else { return count == 0 ? 0 : -1 }
        return parser(pointer).read(into: buffer, count: Int(count))
    }

    private static let onError: xmlStructuredErrorFunc = { pointer, error in
        guard let pointer else { return }
        let me = parser(pointer)
        // Data after the root element (XML_ERR_DOCUMENT_END) that is only a DOS end-of-file mark (Ctrl-Z), NUL
        // padding or blanks: the document ended whole, so it is read (`paddingAfterEnd`).
        if error?.pointee.code == 5, me.handler.documentEnded, let padding = me.restIsPadding() {
            me.paddingAfterEnd = padding
            me.stop()
            return
        }
        // libxml2 says "Input is not proper UTF-8" with the same number as a control character (9).
        let notUTF8 = error?.pointee.message.map { String(cString: $0).hasPrefix("Input is not proper UTF-8") } ?? false
        me.handler.parseError(code: Int(error?.pointee.code ?? -1), atEnd: me.isAtEnd, notUTF8: notUTF8)
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
