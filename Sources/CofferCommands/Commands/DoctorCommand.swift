import ArgumentParser
import Coffer
import Foundation

/// `coffer doctor`: checks the store, one line per check.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor", abstract: "Check the store: SQLite's own checks and Coffer's invariants.",
        discussion: """
            One line per check, "ok" or "FAILED" with what was found and where (--verbose lists every problem): SQLite's integrity_check and \
            foreign_key_check; the change log's sequence only growing (above the history horizon, the counter \
            ahead of every entry); each import's counts equal to its change-log rows; every transaction's and \
            balance's account existing; no tombstone (a deleted key) shadowing a live transaction; the store id \
            and token key present. Nothing is changed. Exit 0 when every check passes, 1 when any fails.
            """)

    @OptionGroup var storeOptions: StoreOptions
    @Flag(help: "Print the report as JSON (every problem of each check).") var json = false
    @Flag(name: .shortAndLong, help: "List every problem under its check.") var verbose = false

    func run() async throws {
        var failed = false
        try await guarded {
            let path = storeOptions.path
            let report = FinanceStore.doctor(path: path)
            // A Coffer store's log is checkpointed at exit like any command's; a file that is none is left alone.
            if report.checks.map(\.name) != ["open"] { OpenStores.register(path: path) }
            failed = !report.ok
            if json {
                printLine(try JSON.document(report))
                return
            }
            for check in report.checks {
                printLine((check.ok ? "ok      " : "FAILED  ") + check.title + ": " + check.detail)
                if verbose, !check.ok {
                    for problem in check.problems { printLine("          " + problem) }
                }
            }
            let bad = report.failed.count
            printLine(bad == 0 ? "\(path): all \(report.checks.count) checks passed"
                               : "\(path): \(bad) of \(report.checks.count) checks FAILED")
        }
        if failed { throw ExitCode(1) }
    }
}
