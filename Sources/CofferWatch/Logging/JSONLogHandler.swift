import Foundation
import Logging

/// A swift-log handler writing one JSON object per line, for journald and ELK (`coffer watch --log-format json`).
///
/// For example:
/// ```swift
/// LoggingSystem.bootstrap { label in JSONLogHandler(label: label) }
/// // {"timestamp":"2026-03-02T08:15:00.120Z","level":"info","label":"coffer.watch","message":"imported","file":"…","inserted":"12"}
/// ```
/// Metadata keys become top-level fields (a key named like a fixed field is prefixed with `meta.`).
package struct JSONLogHandler: LogHandler {
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level = .info
    package let label: String
    private let output: @Sendable (Data) -> Void

    package init(label: String, output: @escaping @Sendable (Data) -> Void = JSONLogHandler.standardError) {
        self.label = label
        self.output = output
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var fields: [String: Any] = [:]
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        for (key, value) in merged {
            let name = ["timestamp", "level", "label", "message"].contains(key) ? "meta." + key : key
            fields[name] = Self.json(value)
        }
        fields["timestamp"] = Self.timestamp()
        fields["level"] = event.level.rawValue
        fields["label"] = label
        fields["message"] = event.message.description
        guard var line = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        line.append(0x0A)
        output(line)
    }

    /// Writes a line to standard error in one `write(2)`, so lines of concurrent loggers do not interleave.
    package static let standardError: @Sendable (Data) -> Void = { data in
        data.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
    }

    private static func json(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let s): s
        case .stringConvertible(let c):
            // Counts stay numbers, so ELK can sum them.
            if let n = c as? Int { n } else if let d = c as? Double { d } else if let b = c as? Bool { b } else { c.description }
        case .array(let a): a.map(json)
        case .dictionary(let d): d.mapValues(json)
        }
    }

    private static func timestamp() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date())
    }
}
