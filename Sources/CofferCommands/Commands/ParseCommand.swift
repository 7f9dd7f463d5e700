import ArgumentParser
import Coffer
import Foundation

struct ParseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse", abstract: "Print the transactions statement files hold, normalized, without a store.",
        discussion: """
            Reads each file as `coffer import` would (format detection, CSV profiles, description cleaning, \
            merchant, MCC and type), but matches nothing and writes nothing: a way to check a file or a CSV profile \
            first. Transactions print in file order; without a store there is no account id (all zeros).
            Examples:
              coffer parse statement.ofx
              coffer parse --profile chase-checking export.csv --format csv
            """)

    @Argument(help: "Statement files, folders (searched recursively) or quoted glob patterns.") var paths: [String]
    @OptionGroup var configOptions: ConfigOptions
    @Option(help: ArgumentHelp("Read the CSV files with this profile: an id (see coffer config show) or a profile file's path "
                               + "(a draft); OFX and camt files among them are read as what they are."))
    var profile: String?
    @Flag(help: "CSV: skip rows with a bad date or amount (each reported) instead of failing the file.") var skipBadRows = false
    @Option(help: ArgumentHelp("QIF: the order of day and month in dates that read both ways (01/02/2026): mdy or dmy.",
                               valueName: "ORDER"))
    var dateOrder: DateOrderOption?
    @Option(help: ArgumentHelp("MT940 and QIF: the single-byte encoding of text that is not UTF-8 (default windows-1252), "
                               + "e.g. cp1250, cp1251, ISO-8859-2.", valueName: "NAME"))
    var encoding: String?
    @Option(help: "table, json, ndjson or csv.") var format: OutputFormat = .table

    func validate() throws {
        if paths.isEmpty { throw ValidationError("name at least one statement file or folder") }
    }

    func run() async throws {
        try await guarded {
            let configuration = try configOptions.load()
            if let profile { try ImportCommand.checkProfile(profile, in: configuration) }
            let table = try encoding.map { try ImportOptions.table(forEncoding: $0) }
            let reader = StatementReader(configuration: configuration)
            var items: [StatementReader.Item] = []
            var output: [UInt8] = []
            output.reserveCapacity(1 << 16)
            func flush() {
                FileHandle.standardOutput.write(Data(output))
                output.removeAll(keepingCapacity: true)
            }
            for file in try Importer.expand(paths) {
                let warnings = try reader.read(file, profileID: profile, skipBadRows: skipBadRows,
                                               dateOrder: dateOrder?.order.qif, textEncoding: table) { item in
                    // ndjson streams: memory stays flat on large files.
                    guard format == .ndjson else { return items.append(item) }
                    ModelJSON.append(item.transaction, to: &output)
                    output.append(UInt8(ascii: "\n"))
                    if output.count >= 1 << 16 { flush() }
                }
                for warning in warnings { FileHandle.standardError.write(Data("coffer: \(warning)\n".utf8)) }
            }
            if !output.isEmpty { flush() }
            guard format != .ndjson else { return }
            try emit(items.map(\.transaction), format: format) {
                Table(headers: ["DATE", "ACCOUNT", "AMOUNT", "CUR", "STATUS", "TYPE", "MCC", "DESCRIPTION"],
                      rows: items.map { item in
                          let t = item.transaction
                          return [Text.date(t), item.account, Text.signed(t.transactionAmount, t.creditDebitIndicator),
                                  t.transactionAmount.currencyCode, t.status.name, t.transactionType.name,
                                  t.merchantCategoryCode?.code ?? "", t.transactionDescription]
                      }, rightAligned: [2])
            }
        }
    }
}
