import CofferPipeline
import Foundation
import Testing

/// The repository root (for feeds/ and config/).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

/// A fresh store, a configuration folder with the shipped rules plus two small test profiles, and a folder for
/// statement files.
struct Workbench {
    let folder: String
    let store: FinanceStore
    let importer: Importer

    static let testProfile = """
        id: test-bank
        institution: Test Bank
        match:
          header: [Date, Description, Amount, Status]
        date_format: yyyy-MM-dd
        columns:
          date: Date
          description: Description
          amount: Amount
          status: Status
        status_values:
          pending: pending
          booked: booked
        account:
          number: "DE89370400440532013000"
          kind: asset
          currency: EUR
          display_name: Test Giro
        """

    static let testProfileWithIDs = """
        id: test-bank-ids
        institution: Test Bank
        match:
          header: [Id, Date, Description, Amount]
        date_format: yyyy-MM-dd
        columns:
          id: Id
          date: Date
          description: Description
          amount: Amount
        account:
          number: "000111222333"
          kind: asset
          currency: USD
        """

    init() throws {
        folder = NSTemporaryDirectory() + "coffer-pipeline-tests/" + UUID().uuidString
        let fm = FileManager.default
        try fm.createDirectory(atPath: folder + "/config/profiles", withIntermediateDirectories: true)
        for name in ["merchants.yaml", "categories.yaml", "institutions.yaml"] {
            try fm.copyItem(atPath: repositoryRoot + "/config/" + name, toPath: folder + "/config/" + name)
        }
        for profile in try fm.contentsOfDirectory(atPath: repositoryRoot + "/config/profiles") {
            try fm.copyItem(atPath: repositoryRoot + "/config/profiles/" + profile, toPath: folder + "/config/profiles/" + profile)
        }
        try Workbench.testProfile.write(toFile: folder + "/config/profiles/test-bank.yaml", atomically: true, encoding: .utf8)
        try Workbench.testProfileWithIDs.write(toFile: folder + "/config/profiles/test-bank-ids.yaml", atomically: true, encoding: .utf8)
        store = try FinanceStore(path: folder + "/store.sqlite")
        importer = Importer(store: store, configuration: try CofferConfiguration.load(directory: folder + "/config"))
    }

    /// Writes a statement file and returns its path.
    @discardableResult
    func file(_ name: String, _ text: String) throws -> String {
        let path = folder + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func importing(_ name: String, _ text: String, profile: String? = nil, force: Bool = false) throws -> FileReport {
        let path = try file(name, text)
        return importer.importFile(path, options: ImportOptions(force: force, profileID: profile))
    }

    func transactions() async throws -> [Transaction] {
        try await store.transactions(query: TransactionQuery(sortDescriptors: [SortDescriptor(\.transactionDate)]))
    }

    /// The current end of history, to read what a later import changes.
    func token() async throws -> HistoryToken {
        var last: HistoryToken?
        for try await changes in store.allTransactionHistory(isMonitoring: false) { last = changes.newToken }
        return try #require(last)
    }

    func changes(since token: HistoryToken) async throws -> (inserted: [Transaction], updated: [Transaction], deleted: [UUID]) {
        var result: ([Transaction], [Transaction], [UUID]) = ([], [], [])
        for try await c in store.allTransactionHistory(since: token, isMonitoring: false) {
            result.0 += c.inserted
            result.1 += c.updated
            result.2 += c.deleted
        }
        return result
    }
}

func csv(_ rows: [String]) -> String {
    (["Date,Description,Amount,Status"] + rows).joined(separator: "\n") + "\n"
}
