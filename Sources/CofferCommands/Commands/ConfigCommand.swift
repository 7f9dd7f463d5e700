import ArgumentParser
import Coffer
import Foundation

/// `coffer config`: the effective configuration and its merchant rules.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Show the effective configuration and how its merchant rules match.",
        discussion: """
            Configuration layers, lowest first: the defaults built into coffer, ~/.config/coffer \
            ($XDG_CONFIG_HOME/coffer), each --config DIR in order, then $COFFER_CONFIG. A later layer adds \
            profiles, merchant rules, category words and institutions and overrides an earlier one's by id; its \
            disable.yaml (disable: [starbucks, profile:amex]) turns earlier ones off.
              coffer config show [--format table|json]
              coffer config rules [--unused] [--include-built-in]
            """,
        subcommands: [Show.self, Rules.self],
        defaultSubcommand: Show.self)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print each profile, merchant rule, category word, institution and account alias with the file it came from.")

        @OptionGroup var configOptions: ConfigOptions
        @Option(help: "table or json.") var format: Format = .table

        func run() async throws {
            try await guarded {
                let report = try configOptions.load(printWarnings: false).report
                if format == .json {
                    printLine(try JSON.document(report))
                    return
                }
                var out = ["Layers, lowest first: " + report.layers.joined(separator: ", ")]
                let titles: [(ConfigurationItem.Kind, String)] = [
                    (.profile, "Profiles"), (.rule, "Merchant rules, in the order they are tried"),
                    (.category, "Categories"), (.institution, "Institutions"), (.account, "Account aliases"),
                ]
                for (kind, title) in titles {
                    let items = report.items.filter { $0.kind == kind && $0.disabledBy == nil }
                    out.append("")
                    out.append("\(title) (\(items.count))")
                    guard !items.isEmpty else { continue }
                    out.append(Table(headers: ["ID", "WHAT", "FROM", "OVERRIDES"], rows: items.map {
                        [$0.id, $0.detail, $0.source, $0.overrides.joined(separator: ", ")]
                    }).render())
                }
                let disabled = report.items.filter { $0.disabledBy != nil }
                if !disabled.isEmpty {
                    out.append("")
                    out.append("Disabled (\(disabled.count))")
                    out.append(Table(headers: ["KIND", "ID", "WHAT", "FROM", "DISABLED BY"], rows: disabled.map {
                        [$0.kind.rawValue, $0.id, $0.detail, $0.source, $0.disabledBy ?? ""]
                    }).render())
                }
                if !report.warnings.isEmpty {
                    out.append("")
                    out.append("Warnings")
                    out += report.warnings.map { "  " + $0 }
                }
                printLine(out.joined(separator: "\n"))
            }
        }
    }

    struct Rules: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rules",
            abstract: "List the merchant rules with how many stored transactions each names.",
            discussion: """
                Runs the rules over every stored transaction (its original text, amount, direction and account) as \
                an import does, so the counts are those of the configuration as it is now. --unused lists the rules \
                that name none, each with the likely reason; built-in rules are counted in one line unless \
                --include-built-in.
                """)

        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var configOptions: ConfigOptions
        @Flag(help: "Only the rules that match no stored transaction.") var unused = false
        @Flag(help: "List built-in rules too (with --unused they are otherwise counted in one line).") var includeBuiltIn = false
        @Option(help: "table or json.") var format: Format = .table

        struct Row: Encodable {
            var id: String
            var name: String
            var source: String
            var matches: Int
            var textMatches: Int?
            var reasons: [String]?
        }

        func run() async throws {
            try await guarded {
                let configuration = try configOptions.load()
                let store = try storeOptions.open(.readOnly)
                let usage = try await MerchantRuleUsage.measure(configuration.normalizer, in: store)
                let report = configuration.report
                var rows: [Row] = []
                var hiddenBuiltIn = 0
                for entry in usage where !unused || entry.matches == 0 {
                    let source = report.item(.rule, entry.rule.id)?.source ?? ""
                    if unused, !includeBuiltIn, source.hasPrefix("built-in:") {
                        hiddenBuiltIn += 1
                        continue
                    }
                    rows.append(Row(id: entry.rule.id, name: entry.rule.name, source: source, matches: entry.matches,
                                    textMatches: (entry.rule.hasConditions || entry.rule.purchasesOnly) && entry.rule.hasPatterns
                                        ? entry.textMatches : nil,
                                    reasons: entry.matches == 0 ? entry.reasons : nil))
                }
                if format == .json {
                    printLine(try JSON.document(rows))
                    return
                }
                var out: [String] = []
                if !rows.isEmpty {
                    out.append(Table(headers: ["ID", "NAME", "FROM", "MATCHES", "WHY IT MAY NOT MATCH"], rows: rows.map {
                        [$0.id, $0.name, $0.source, "\($0.matches)", ($0.reasons ?? []).joined(separator: "; ")]
                    }, rightAligned: [3]).render())
                } else if unused {
                    out.append("Every rule\(includeBuiltIn ? "" : " of your layers") matches at least one stored transaction.")
                }
                if hiddenBuiltIn > 0 {
                    out.append("\(hiddenBuiltIn) built-in rule\(hiddenBuiltIn == 1 ? "" : "s") match nothing stored "
                               + "(--include-built-in lists them).")
                }
                printLine(out.joined(separator: "\n"))
            }
        }
    }
}
