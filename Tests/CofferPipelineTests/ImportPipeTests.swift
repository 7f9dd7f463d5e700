@testable import CofferPipeline
import CofferFormats
import CofferModel
import Foundation
import Synchronization
import Testing

/// A parser that emits a header and `count` transactions, then fails if asked to; it records how far it got.
struct CountingParser: StatementParser {
    let count: Int
    let failAfter: Int?
    let emitted: Progress
    /// The row (0-based) given no date, which the prepare stage refuses.
    var undatedRow: Int? = nil

    final class Progress: Sendable {
        let value = Mutex(0)
        let stoppedEarly = Mutex(false)
    }

    func parse(_ input: StatementInput, emit: (consuming StatementEvent) throws -> Void) throws {
        try emit(.begin(RawStatementHeader(account: RawAccountIdentity(accountNumber: "1", currencyCode: "USD"),
                                           location: SourceLocation(file: "x"))))
        for i in 0..<count {
            if let failAfter, i == failAfter {
                throw CofferError(.badInput, "bad row \(i + 1)", location: SourceLocation(file: "x", line: i + 1))
            }
            do {
                try emit(.transaction(RawTransaction(location: SourceLocation(file: "x", line: i + 1), externalID: "T\(i)",
                                                     amount: Decimal(i + 1),
                                                     transactionDate: i == undatedRow ? nil : RawDate(date: Date(), isDateOnly: true),
                                                     name: "Row \(i)")))
            } catch {
                emitted.stoppedEarly.withLock { $0 = true }
                throw error
            }
            emitted.value.withLock { $0 += 1 }
        }
        try emit(.end)
    }
}

@Suite("Import pipe: parsing thread(s) → writing thread") struct ImportPipeTests {
    let preparer = TransactionPreparer(normalizer: DescriptionNormalizer())

    // Each test runs with the prepare stage on the parsing thread (OFX, CSV) and on a thread of its own (camt).
    @Test(arguments: [false, true]) func everyEventArrivesOnceInOrder(prepareApart: Bool) throws {
        let parser = CountingParser(count: 10_000, failAfter: nil, emitted: .init())
        var lines: [Int] = []
        try ImportPipe.run(parser: parser, input: .string(""), preparer: preparer, prepareApart: prepareApart) { event in
            if case .transaction(let p) = event { lines.append(p.raw.location.line ?? -1) }
            return nil
        }
        #expect(lines == Array(1...10_000))
    }

    @Test(arguments: [false, true]) func aParseErrorArrivesAfterEveryEventBeforeIt(prepareApart: Bool) throws {
        let parser = CountingParser(count: 10_000, failAfter: 7_777, emitted: .init())
        var seen = 0
        #expect {
            try ImportPipe.run(parser: parser, input: .string(""), preparer: preparer, prepareApart: prepareApart) { event in
                if case .transaction = event { seen += 1 }
                return nil
            }
        } throws: { error in
            (error as? CofferError)?.location?.line == 7_778
        }
        #expect(seen == 7_777)
    }

    @Test(arguments: [false, true]) func aWriterErrorStopsTheParsingThreadBeforeReturning(prepareApart: Bool) throws {
        // Far more events than the queues hold: the parser is blocked on a full queue when the writer fails.
        let progress = CountingParser.Progress()
        let parser = CountingParser(count: 200_000, failAfter: nil, emitted: progress)
        struct WriterFailed: Error {}
        var seen = 0
        #expect(throws: WriterFailed.self) {
            try ImportPipe.run(parser: parser, input: .string(""), preparer: preparer, prepareApart: prepareApart) { event in
                if case .transaction = event { seen += 1 }
                if seen == 100 { throw WriterFailed() }
                return nil
            }
        }
        try Self.expectStopped(progress, total: 200_000)
    }

    @Test(arguments: [false, true]) func aPrepareErrorArrivesInOrderAndStopsTheParser(prepareApart: Bool) throws {
        // Row 5,001 has no date, which the prepare stage (not the parser) refuses; the parser has far more to give.
        let progress = CountingParser.Progress()
        let parser = CountingParser(count: 200_000, failAfter: nil, emitted: progress, undatedRow: 5_000)
        var seen = 0
        #expect {
            try ImportPipe.run(parser: parser, input: .string(""), preparer: preparer, prepareApart: prepareApart) { event in
                if case .transaction = event { seen += 1 }
                return nil
            }
        } throws: { error in
            let error = error as? CofferError
            return error?.location?.line == 5_001 && error?.message.contains("no date") == true
        }
        #expect(seen == 5_000)
        try Self.expectStopped(progress, total: 200_000)
    }

    /// `run` returned only after the parser stopped: it makes no progress since, and it stopped early.
    static func expectStopped(_ progress: CountingParser.Progress, total: Int) throws {
        let emittedAtReturn = progress.value.withLock { $0 }
        // Sleep justified: showing that a thread makes *no* progress takes time passing; the parser thread has no clock.
        Thread.sleep(forTimeInterval: 0.05)
        #expect(progress.value.withLock { $0 } == emittedAtReturn)
        #expect(progress.stoppedEarly.withLock { $0 })
        #expect(emittedAtReturn < total)
    }
}

/// A parser that emits the given events.
private struct ListParser: StatementParser {
    let events: [StatementEvent]
    func parse(_ input: StatementInput, emit: (consuming StatementEvent) throws -> Void) throws {
        for event in events { try emit(event) }
    }
}

@Suite("Prepare stage") struct PrepareStageTests {
    static func header(_ number: String) -> StatementEvent {
        .begin(RawStatementHeader(account: RawAccountIdentity(accountNumber: number, currencyCode: "EUR"), location: SourceLocation(file: "x")))
    }

    static func coffee(_ id: String?, line: Int) -> StatementEvent {
        .transaction(RawTransaction(location: SourceLocation(file: "x", line: line), externalID: id, amount: -3,
                                    transactionDate: RawDate(date: Date(timeIntervalSince1970: 1_773_446_400), isDateOnly: true),
                                    name: "CORNER CAFE"))
    }

    @Test func transactionsCarryTheWritersAccountAndNumberRepeatsPerAccount() throws {
        let a = ResolvedAccount(id: UUID(), currencyCode: "EUR"), b = ResolvedAccount(id: UUID(), currencyCode: "CHF")
        let parser = ListParser(events: [Self.header("1"), Self.coffee("T1", line: 1), Self.coffee("T1", line: 2), Self.coffee(nil, line: 3), .end,
                                         Self.header("2"), Self.coffee("T1", line: 4), .end])
        var accounts = [a, b]
        var prepared: [PreparedTransaction] = []
        var warnings: [ParseWarning] = []
        try ImportPipe.run(parser: parser, input: .string(""), preparer: TransactionPreparer(normalizer: DescriptionNormalizer(), idName: "FITID")) { event in
            switch event {
            case .begin: return accounts.removeFirst()
            case .transaction(let p): prepared.append(p)
            case .warning(let w): warnings.append(w)
            default: break
            }
            return nil
        }
        #expect(prepared.map(\.transaction.accountID) == [a.id, a.id, a.id, b.id])
        // The statement's currency comes from the stored account (CHF), not the header (EUR).
        #expect(prepared.map(\.transaction.transactionAmount.currencyCode) == ["EUR", "EUR", "EUR", "CHF"])
        #expect(prepared.map(\.occurrence) == [1, 2, 3, 1])
        #expect(prepared.map(\.externalID) == ["T1", nil, nil, "T1"])
        #expect(prepared.map(\.repeatedID) == [false, true, false, false])
        #expect(warnings.map(\.location.line) == [2])
        #expect(warnings.first?.message.contains("FITID 'T1' appears more than once") == true)
    }
}
