import CofferModel
import Foundation

/// The statement's bytes as the `InputStream` Foundation's `XMLParser` reads, with one repair on the way.
///
/// For example:
/// ```swift
/// let stream = CamtInputStream(reader: try input.makeReader())
/// let parser = XMLParser(stream: stream)   // sees `<?pi ?>` where the file has `<?pi?>`
/// ```
/// swift-corelibs-foundation's `XMLParser` crashes (strlen of NULL) on a processing instruction without data,
/// `<?target?>`, wherever it appears in the document. The stream writes a space before its `?>`: the same
/// instruction to XML (its data is empty either way). Only `<?name?>` sequences change, which outside
/// instructions can occur only inside comments and CDATA. Reading failures are kept in `failure`.
final class CamtInputStream: InputStream {
    private enum State { case text, lessThan, target(length: Int) }

    private let reader: ByteReader
    private var chunk: [UInt8] = []
    private var position = 0
    private var state = State.text
    /// A space owed before the `?` at `position`.
    private var pendingSpace = false
    private(set) var failure: CofferError?

    init(reader: ByteReader) {
        self.reader = reader
        super.init(data: Data())
    }

    override func open() {}
    override func close() {}
    override var hasBytesAvailable: Bool { failure == nil }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        guard length > 0, failure == nil else { return failure == nil ? 0 : -1 }
        var written = 0
        while written < length {
            if position >= chunk.count {
                do {
                    guard let next = try reader.next() else { break }
                    chunk = next
                    position = 0
                } catch {
                    failure = CofferError.classifying(error)
                    return -1
                }
                continue
            }
            if pendingSpace {
                buffer[written] = 0x20
                written &+= 1
                pendingSpace = false
                continue
            }
            if case .text = state {
                // Fast path: text up to the next '<' is copied as it is.
                let end = min(chunk.count, position &+ (length &- written))
                let stop = chunk[position..<end].firstIndex(of: UInt8(ascii: "<")) ?? end
                if stop > position {
                    chunk.withUnsafeBufferPointer { source in
                        if let base = source.baseAddress {
                            (buffer + written).update(from: base + position, count: stop &- position)
                        }
                    }
                    written &+= stop &- position
                    position = stop
                    continue
                }
            }
            let byte = chunk[position]
            if case .target(let count) = state, byte == UInt8(ascii: "?"), count > 0 {
                state = .text
                pendingSpace = true
                continue
            }
            state = next(after: byte)
            buffer[written] = byte
            written &+= 1
            position &+= 1
        }
        return written
    }

    /// The state after `byte`: tracks `<`, then `<?`, then the instruction's target name.
    private func next(after byte: UInt8) -> State {
        switch state {
        case .text:
            return byte == UInt8(ascii: "<") ? .lessThan : .text
        case .lessThan:
            if byte == UInt8(ascii: "?") { return .target(length: 0) }
            return byte == UInt8(ascii: "<") ? .lessThan : .text
        case .target(let count):
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ">"): return .text
            case UInt8(ascii: "<"): return .lessThan
            default: return .target(length: count &+ 1)
            }
        }
    }
}
