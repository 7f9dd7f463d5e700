import Coffer
import Foundation

// coffer-bench: the library half of scripts/bench.sh. Each command prints `key value` lines.
//   coffer-bench query   --store S [--first-day YYYY-MM-DD] [--iterations N] [--offset N] [--only NAME]
//   coffer-bench history --store S --extend FILE [--runs N]
//   coffer-bench monitor --store S --coffer PATH FILE...
//   coffer-bench parse FILE [--runs N]
let usage = """
    usage: coffer-bench query --store S [--first-day YYYY-MM-DD] [--iterations N] [--offset N] [--only NAME]
           coffer-bench history --store S --extend FILE [--runs N]
           coffer-bench monitor --store S --coffer PATH FILE...
           coffer-bench parse FILE [--runs N]
    """

/// The value after `--name`, if given.
func option(_ name: String, in arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: "--\(name)"), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

/// The arguments that are neither options nor their values.
func positionals(_ arguments: [String]) -> [String] {
    var result: [String] = []
    var skip = false
    for argument in arguments {
        if skip { skip = false; continue }
        if argument.hasPrefix("--") { skip = true; continue }
        result.append(argument)
    }
    return result
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "parse" {
    // The only command without a store: the parser alone over one file.
    guard let file = positionals(arguments).dropFirst().first else {
        FileHandle.standardError.write(Data((usage + "\n").utf8))
        exit(2)
    }
    do {
        try ParseBench(path: file, runs: Int(option("runs", in: arguments) ?? "") ?? 3).run()
    } catch {
        FileHandle.standardError.write(Data("coffer-bench: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
guard let command = arguments.first, let path = option("store", in: arguments) else {
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(2)
}
do {
    switch command {
    case "query":
        let store = try FinanceStore(path: path, access: .readOnly)
        let day = CalendarDay.parse(option("first-day", in: arguments) ?? "2022-09-27") ?? Date(timeIntervalSince1970: 0)
        let iterations = Int(option("iterations", in: arguments) ?? "") ?? 200
        let offset = Int(option("offset", in: arguments) ?? "") ?? 900_000
        try await QueryBench(store: store, iterations: iterations, deepOffset: offset, only: option("only", in: arguments))
            .run(firstDay: day)
    case "history":
        guard let file = option("extend", in: arguments) else { throw CofferError(.badInput, "history needs --extend FILE") }
        let store = try FinanceStore(path: path)
        try await HistoryBench(store: store, runs: Int(option("runs", in: arguments) ?? "") ?? 3).run(extensionFile: file)
    case "monitor":
        guard let coffer = option("coffer", in: arguments) else { throw CofferError(.badInput, "monitor needs --coffer PATH") }
        let store = try FinanceStore(path: path, access: .readOnly)
        try await MonitorBench(store: store, cofferPath: coffer).run(files: Array(positionals(arguments).dropFirst()))
    default:
        FileHandle.standardError.write(Data((usage + "\n").utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("coffer-bench: \(error)\n".utf8))
    exit(1)
}
