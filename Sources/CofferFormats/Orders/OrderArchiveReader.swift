import CofferModel
import Crypto
import Foundation
import ZIPFoundation

/// Bounds an order archive is read within: a Wallet order is a few kilobytes of JSON and a few images, so anything
/// far larger is refused before it is unpacked (a zip bomb declares small sizes and inflates to gigabytes).
public struct OrderArchiveLimits: Sendable, Hashable {
    /// The archive itself, as received.
    public var archiveBytes: Int
    /// Files (and folders) in it.
    public var entries: Int
    /// One file, unpacked.
    public var fileBytes: Int
    /// All files together, unpacked.
    public var totalBytes: Int
    /// How many times larger than its compressed size a file over 64 KiB may unpack to.
    public var compressionRatio: Int

    /// Limits; the defaults fit every real order (16 MiB archive, 256 entries, 8 MiB a file, 32 MiB in all, 100x).
    public init(archiveBytes: Int = 16 << 20, entries: Int = 256, fileBytes: Int = 8 << 20, totalBytes: Int = 32 << 20,
                compressionRatio: Int = 100) {
        self.archiveBytes = archiveBytes
        self.entries = entries
        self.fileBytes = fileBytes
        self.totalBytes = totalBytes
        self.compressionRatio = compressionRatio
    }
}

/// The files of an order archive whose manifest was verified: every file is listed in `manifest.json` with the
/// SHA-256 it has, and nothing else is there.
package struct OrderArchiveContents: Sendable {
    /// Every file but `manifest.json` and `signature`, by its path in the archive.
    package var files: [String: Data]
    /// `manifest.json` as it is in the archive: what the signature signs.
    package var manifest: Data
    /// `signature`: a detached CMS (PKCS #7) signature of `manifest.json`.
    package var signature: Data
    /// `order.json`.
    package var orderJSON: Data { files["order.json"] ?? Data() }
}

/// Reads an order archive (`.order`): a zip holding `order.json`, `manifest.json` (each other file's SHA-256, hex) and
/// `signature`, and verifies the manifest. Every refusal names the file and the check that failed.
package enum OrderArchiveReader {
    static let manifestName = "manifest.json"
    static let signatureName = "signature"

    /// The archive's files, once its structure and manifest are verified; throws `CofferError(.badInput)` located at
    /// `name` and the file concerned.
    package static func read(_ data: Data, name: String, limits: OrderArchiveLimits = OrderArchiveLimits()) throws -> OrderArchiveContents {
        func refuse(_ element: String?, _ message: String) -> CofferError {
            CofferError(.badInput, message, location: SourceLocation(file: name, element: element))
        }
        guard data.count <= limits.archiveBytes else {
            throw refuse(nil, "the order archive is \(data.count) bytes; at most \(limits.archiveBytes) are accepted")
        }
        let archive: Archive
        do {
            archive = try Archive(data: data, accessMode: .read)
        } catch {
            throw refuse(nil, "not an order archive: expected a zip file holding order.json, manifest.json and signature")
        }
        var files: [String: Data] = [:]
        var count = 0
        var total = 0
        for entry in archive {
            count += 1
            guard count <= limits.entries else { throw refuse(nil, "more than \(limits.entries) files in the archive") }
            let path = entry.path
            try checkPath(path, refuse: refuse)
            switch entry.type {
            case .directory: continue
            case .symlink: throw refuse(path, "a symbolic link; an order archive holds plain files only")
            case .file: break
            }
            guard files[path] == nil else { throw refuse(path, "the archive holds this file twice") }
            let declared = entry.uncompressedSize
            guard declared <= UInt64(limits.fileBytes) else {
                throw refuse(path, "unpacks to \(declared) bytes; at most \(limits.fileBytes) are accepted for one file")
            }
            if declared > 65_536, declared / max(entry.compressedSize, 1) > UInt64(limits.compressionRatio) {
                throw refuse(path, "unpacks to \(declared / max(entry.compressedSize, 1)) times its compressed size; "
                             + "at most \(limits.compressionRatio) is accepted (a zip bomb?)")
            }
            var content = Data()
            do {
                _ = try archive.extract(entry, skipCRC32: false) { chunk in
                    // The declared size may lie: count what really comes out.
                    guard content.count + chunk.count <= Int(declared), total + content.count + chunk.count <= limits.totalBytes else {
                        throw OversizedEntry()
                    }
                    content.append(chunk)
                }
            } catch is OversizedEntry {
                throw refuse(path, "unpacks to more than its declared \(declared) bytes or past the archive's \(limits.totalBytes)-byte limit")
            } catch {
                throw refuse(path, "cannot be unpacked: the zip entry is damaged (\(error))")
            }
            guard content.count == Int(declared) else {
                throw refuse(path, "unpacks to \(content.count) bytes, not the \(declared) its zip entry declares")
            }
            total += content.count
            files[path] = content
        }
        guard let manifest = files.removeValue(forKey: manifestName) else {
            throw refuse(manifestName, "missing: an order archive lists its files' SHA-256 hashes in manifest.json")
        }
        guard let signature = files.removeValue(forKey: signatureName) else {
            throw refuse(signatureName, "missing: an order archive carries a signature of manifest.json")
        }
        guard files["order.json"] != nil else { throw refuse("order.json", "missing: an order archive describes its order in order.json") }
        try verify(manifest: manifest, files: files, refuse: refuse)
        return OrderArchiveContents(files: files, manifest: manifest, signature: signature)
    }

    /// Every file listed with its SHA-256, every listed file present.
    static func verify(manifest: Data, files: [String: Data], refuse: (String?, String) -> CofferError) throws {
        let listed: [String: String]
        do {
            listed = try JSONDecoder().decode([String: String].self, from: manifest)
        } catch {
            throw refuse(manifestName, "not a JSON object of file paths to SHA-256 hashes (hex): \(error.localizedDescription)")
        }
        for path in files.keys.sorted() where listed[path] == nil {
            throw refuse(path, "in the archive but not listed in manifest.json; every file must be")
        }
        for (path, hash) in listed.sorted(by: { $0.key < $1.key }) {
            guard path != manifestName, path != signatureName else {
                throw refuse(manifestName, "lists '\(path)', which is not hashed: only the order's own files are")
            }
            guard let content = files[path] else {
                throw refuse(manifestName, "lists '\(path)', which is not in the archive")
            }
            let actual = SHA256.hash(data: content).lowercaseHex
            guard actual == hash.lowercased() else {
                throw refuse(path, "SHA-256 is \(actual) but manifest.json says \(hash): the file was changed after the manifest was made")
            }
        }
    }

    /// Refuses paths that could name something outside the archive or hide a file: absolute, `..`, backslashes,
    /// control characters.
    static func checkPath(_ path: String, refuse: (String?, String) -> CofferError) throws {
        let shown = path.unicodeScalars.map { $0.value < 0x20 ? "?" : String($0) }.joined()
        guard !path.isEmpty else { throw refuse(nil, "an entry without a name") }
        guard !path.hasPrefix("/"), !path.contains("\\"), !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw refuse(shown, "not a plain relative path (absolute, a backslash or a control character): refused")
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        for (index, part) in parts.enumerated() {
            if part == ".." || part == "." || (part.isEmpty && index != parts.count - 1) {
                throw refuse(shown, "a path with '\(part)' in it could reach outside the archive: refused")
            }
        }
    }

    /// Thrown by the extraction consumer when an entry inflates past what it declared or the limits.
    struct OversizedEntry: Error {}
}
