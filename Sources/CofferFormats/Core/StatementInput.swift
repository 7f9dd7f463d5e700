import CofferModel
import Foundation

/// The bytes of one statement: a file on disk or bytes in memory (tests, fuzzing).
///
/// Parsers read it in chunks through `makeReader()`, so a large file is never held whole.
package struct StatementInput: Sendable {
    indirect enum Storage: Sendable {
        case file(String)
        case bytes([UInt8])
        /// Another storage's bytes, converted to UTF-8 as they are read.
        case converted(Storage, TextConversion)
    }
    let storage: Storage
    /// The name errors use: the file's path, or a name given for in-memory bytes.
    package let name: String

    package static func file(_ path: String) -> StatementInput {
        StatementInput(storage: .file(path), name: path)
    }

    package static func bytes(_ bytes: [UInt8], name: String = "<memory>") -> StatementInput {
        StatementInput(storage: .bytes(bytes), name: name)
    }

    package static func string(_ text: String, name: String = "<memory>") -> StatementInput {
        .bytes(Array(text.utf8), name: name)
    }

    /// The path, for a file input.
    package var path: String? {
        var storage = storage
        while case .converted(let base, _) = storage { storage = base }
        if case .file(let path) = storage { return path }
        return nil
    }

    /// The same bytes read as UTF-8 text converted from UTF-16 (`UTF16Text`); the name stays the file's.
    package func decodingUTF16(_ form: UTF16Text.Form) -> StatementInput {
        converting(.utf16(form))
    }

    /// The same bytes converted to UTF-8 as they are read; the name stays the file's.
    package func converting(_ conversion: TextConversion) -> StatementInput {
        StatementInput(storage: .converted(storage, conversion), name: name)
    }

    /// The encoding the bytes were converted from (`UTF-16LE`), when they were: an encoding the text declares
    /// (`<?xml … encoding="UTF-16"?>`) then describes the file, not the bytes a parser is given.
    package var convertedFrom: String? {
        if case .converted(_, let conversion) = storage { return conversion.label }
        return nil
    }

    /// Bytes that are no content after a statement's last record: a DOS end-of-file mark (Ctrl-Z, 0x1A), NUL
    /// padding (a block-sized copy), and blanks.
    static func isPadding(_ byte: UInt8) -> Bool {
        byte == 0x1A || byte == 0 || byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The file's name without folders.
    package var fileName: String { (name as NSString).lastPathComponent }

    /// A reader from the start.
    package func makeReader(chunkSize: Int = 1 << 20) throws -> ByteReader {
        try Self.reader(storage, chunkSize: chunkSize, name: name)
    }

    private static func reader(_ storage: Storage, chunkSize: Int, name: String) throws -> ByteReader {
        switch storage {
        case .bytes(let bytes): return ByteReader(bytes: bytes)
        case .file(let path): return try ByteReader(path: path, chunkSize: chunkSize, name: name)
        case .converted(let base, let conversion):
            let source = try reader(base, chunkSize: chunkSize, name: name)
            return ByteReader(converting: source, try converter(conversion, name: name), name: name)
        }
    }

    private static func converter(_ conversion: TextConversion, name: String, byProfile: Bool = false) throws -> ByteReader.Converter {
        switch conversion {
        case .utf16(let form):
            return .utf16(UTF16Transcoder(form: form, file: name, reason: byProfile ? "as the profile's encoding says" : "the file starts as UTF-16"))
        case .singleByte(let label):
            return .singleByte(try SingleByteDecoder(label: label, file: name, declaredBy: byProfile ? "the profile's encoding" : "the XML declaration"))
        case .utf8Repairing: return .repair(UTF8Repairer())
        case .declaredByProfile(let inner): return try converter(inner, name: name, byProfile: true)
        }
    }

    /// Up to `count` bytes from the start, for identifying the format.
    package func prefix(_ count: Int) throws -> [UInt8] {
        let reader = try makeReader(chunkSize: max(count, 4096))
        var out: [UInt8] = []
        while out.count < count, let chunk = try reader.next() {
            out.append(contentsOf: chunk.prefix(count - out.count))
        }
        return out
    }
}

/// Reads a statement's bytes in chunks.
package final class ByteReader {
    private var bytes: [UInt8]?
    private var handle: FileHandle?
    private let chunkSize: Int
    private let name: String
    /// For converted text: the reader of the file's own bytes, and the conversion.
    private var source: ByteReader?
    private var converter: Converter?

    enum Converter {
        case utf16(UTF16Transcoder)
        case singleByte(SingleByteDecoder)
        case repair(UTF8Repairer)
    }

    /// For `TextConversion.utf8Repairing`: where the first byte read as Windows-1252 was, once read.
    package var firstRepair: (line: Int, byte: UInt8, offset: Int)? {
        if case .repair(let repairer) = converter { return repairer.firstRepair }
        return nil
    }

    init(bytes: [UInt8]) {
        self.bytes = bytes
        self.handle = nil
        self.chunkSize = 0
        self.name = "<memory>"
    }

    init(path: String, chunkSize: Int, name: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CofferError(.fileNotFound, "no such file", location: SourceLocation(file: name))
        }
        guard !isDirectory.boolValue else {
            throw CofferError(.io, "is a folder, not a statement file", location: SourceLocation(file: name))
        }
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        } catch {
            throw CofferError.classifying(error, file: name)  // by errno: permissions, vanished, busy
        }
        self.handle = handle
        self.bytes = nil
        self.chunkSize = chunkSize
        self.name = name
    }

    init(converting source: ByteReader, _ converter: Converter, name: String) {
        self.source = source
        self.converter = converter
        self.bytes = nil
        self.handle = nil
        self.chunkSize = 0
        self.name = name
    }

    /// The next converted chunk (possibly empty), or nil at the end.
    private func nextConverted(_ source: ByteReader) throws -> [UInt8]? {
        let chunk = try source.next()
        switch converter! {
        case .utf16(var transcoder):
            defer { converter = .utf16(transcoder) }
            guard let chunk else { try transcoder.finish(); return nil }
            return try transcoder.transcode(chunk)
        case .singleByte(var decoder):
            defer { converter = .singleByte(decoder) }
            guard let chunk else { return nil }
            return try decoder.convert(chunk)
        case .repair(var repairer):
            defer { converter = .repair(repairer) }
            guard let chunk else {
                let rest = repairer.convert([], atEnd: true)
                return rest.isEmpty ? nil : rest
            }
            return repairer.convert(chunk)
        }
    }

    deinit { try? handle?.close() }

    /// The next chunk, or nil at the end.
    package func next() throws -> [UInt8]? {
        if let source {
            while let converted = try nextConverted(source) {
                if !converted.isEmpty { return converted }
            }
            self.source = nil
            return nil
        }
        if let all = bytes {
            bytes = nil
            return all.isEmpty ? nil : all
        }
        guard let handle else { return nil }
        do {
            // read(2) straight into the chunk's storage: one copy, the kernel's. FileHandle.read(upToCount:) gave a
            // Data that was copied again into the array, and that copy cost as much CPU as the SHA-256 of the
            // file on the digest thread (memmove into fresh pages; docs/benchmarks.md).
            let fd = handle.fileDescriptor
            var failure: Int32 = 0
            let chunk = [UInt8](unsafeUninitializedCapacity: chunkSize) { buffer, count in
                count = 0
                while count < chunkSize {
                    let n = read(fd, buffer.baseAddress! + count, chunkSize - count)
                    if n > 0 { count += n; continue }
                    if n == 0 { break }
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
            }
            if failure != 0 { throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO) }
            guard !chunk.isEmpty else {
                try? handle.close()
                self.handle = nil
                return nil
            }
            return chunk
        } catch {
            let classified = CofferError.classifying(error, file: name)
            throw CofferError(classified.code, "reading failed: \(error.localizedDescription)", location: SourceLocation(file: name),
                              underlying: error)
        }
    }
}
