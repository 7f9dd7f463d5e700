import Coffer
import Foundation

/// The parser alone over one OFX or camt file, with nothing after it: no normalizing, matching or store. Prints
/// `parse_ms` (median of the runs), `parse_tx` and `parse_tx_per_s`, the rate `scripts/bench.sh` compares with
/// a whole `coffer import` to tell parse time from the rest of the pipeline.
struct ParseBench {
    let path: String
    let runs: Int

    func run() throws {
        let input = StatementInput.file(path)
        let prefix = try input.prefix(4096)
        let parser: any StatementParser
        if CamtParser.sniff(prefix) {
            parser = CamtParser()
        } else if OFXParser.sniff(prefix) {
            parser = OFXParser()
        } else {
            throw CofferError(.unknownFormat, "parse reads OFX or camt files", location: SourceLocation(file: path))
        }
        var samples: [Double] = []
        var transactions = 0
        for _ in 0..<max(runs, 1) {
            var count = 0
            let start = Timing.now()
            try parser.parse(input) { event in
                if case .transaction = event { count += 1 }
            }
            samples.append(Double(Timing.now() - start) / 1_000_000)
            transactions = count
        }
        let ms = Timing.median(samples)
        report("parse_ms", ms)
        report("parse_tx", Double(transactions), decimals: 0)
        report("parse_tx_per_s", ms > 0 ? Double(transactions) / (ms / 1_000) : 0, decimals: 0)
    }
}
