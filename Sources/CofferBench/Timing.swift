import Foundation

/// Wall-clock timing helpers: nanoseconds from a monotonic clock and medians of samples.
enum Timing {
    /// Monotonic nanoseconds.
    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Runs `body` once and returns how long it took, in microseconds.
    static func micros(_ body: () async throws -> Void) async rethrows -> Double {
        let start = now()
        try await body()
        return Double(now() - start) / 1_000
    }

    /// The median of the samples (0 for none).
    static func median(_ samples: [Double]) -> Double {
        guard !samples.isEmpty else { return 0 }
        let sorted = samples.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    /// The value below which `fraction` of the samples lie.
    static func percentile(_ samples: [Double], _ fraction: Double) -> Double {
        guard !samples.isEmpty else { return 0 }
        let sorted = samples.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }
}

/// Prints one result line, `key value`, which scripts/bench.sh collects.
func report(_ key: String, _ value: Double, decimals: Int = 1) {
    FileHandle.standardOutput.write(Data("\(key) \(String(format: "%.\(decimals)f", value))\n".utf8))
}
