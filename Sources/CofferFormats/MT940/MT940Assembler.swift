import CofferModel
import Foundation

/// Turns MT940/MT942 fields into statement events.
///
/// A statement starts at `:20:` (or at the first field after a message's end) and ends at the next `:20:`, a `-`
/// line, `-}` or the end of the file; several statements per file are usual (one per day or per page). Its
/// `.begin` is emitted when its first `:61:` arrives (the account and currency are known by then: `:25:`, `:60F:`
/// or an MT942's `:34F:` come first), with the period and as-of time the first pass found (`MT940Summary`).
/// Each `:61:` waits for the `:86:` that may follow it.
struct MT940Assembler {
    let file: String
    /// The first pass: only statement boundaries, dates and balances; no transactions are built.
    let summarizing: Bool
    /// From the first pass, one per statement in file order (empty while summarizing).
    let known: [MT940Summary]
    private(set) var summaries: [MT940Summary] = []
    private(set) var statementCount = 0
    private var statement: MT940Statement?
    private var entry: (line: MT940StatementLine, location: SourceLocation)?
    /// The envelope's message type (`942`), when it names one.
    var messageType: String?

    init(file: String, summarizing: Bool, known: [MT940Summary] = []) {
        self.file = file
        self.summarizing = summarizing
        self.known = known
    }

    typealias Emit = (consuming StatementEvent) throws -> Void

    mutating func handle(_ token: MT940Token, emit: Emit) throws {
        switch token {
        case .messageEnd:
            try finishStatement(emit: emit)
        case .field(let field):
            try handle(field, emit: emit)
        }
    }

    mutating func finish(emit: Emit) throws {
        try finishStatement(emit: emit)
        guard statementCount > 0 else {
            throw CofferError(.badInput, "expected an MT940 statement or MT942 report (:20:, :25:, :60F:, :61:, :62F:), "
                              + "found none", location: SourceLocation(file: file, line: 1))
        }
    }

    private func at(_ field: MT940Field) -> SourceLocation {
        SourceLocation(file: file, line: field.line, element: ":\(field.tag):")
    }

    private mutating func current(_ field: MT940Field) -> MT940Statement {
        if let statement { return statement }
        var fresh = MT940Statement(location: at(field))
        fresh.isInterim = messageType == "942"
        return fresh
    }

    private mutating func handle(_ field: MT940Field, emit: Emit) throws {
        if field.tag != "86" { try flushEntry(info: nil, emit: emit) }
        switch field.tag {
        case "20":
            if statement?.hasContent == true { try finishStatement(emit: emit) }
            var s = current(field)
            s.location = at(field)
            s.reference = field.first.isEmpty ? nil : field.first
            statement = s
        case "25":
            var s = current(field)
            guard let account = MT940Account.parse(field.joined) else {
                throw CofferError(.badInput, "expected the account (an IBAN, or bank code/account number), found nothing",
                                  location: at(field))
            }
            s.account = account
            if s.currency == nil { s.currency = account.currency }
            statement = s
        case "28", "28C":
            var s = current(field)
            s.number = field.first.isEmpty ? nil : field.first
            statement = s
        case "60F", "60M", "62F", "62M", "64", "65":
            try balance(field, emit: emit)
        case "13", "13D":
            var s = current(field)
            s.isInterim = true
            s.reportTime = MT940Values.dateTime(Substring(field.first))
            if s.reportTime == nil, !summarizing {
                try emit(.warning(ParseWarning("expected the report's date and time YYMMDDHHMM+hhmm, found '\(field.first)'; "
                                               + "ignored", location: at(field))))
            }
            statement = s
        case "34F":
            var s = current(field)
            s.isInterim = true
            let code = field.first.prefix(3)
            if s.currency == nil, code.count == 3, code.allSatisfy({ $0.isASCII && $0.isLetter }) { s.currency = code.uppercased() }
            statement = s
        case "90D", "90C":
            var s = current(field)
            let text = Substring(field.first)
            let digits = text.prefix { $0.isNumber }
            if let count = Int(digits), let amount = MT940Values.amount(text.dropFirst(digits.count + 3)) {
                if field.tag == "90D" { s.statedDebits = (count, amount, field.line) } else { s.statedCredits = (count, amount, field.line) }
            } else if !summarizing {
                try emit(.warning(ParseWarning("expected the number of entries, the currency and their sum (3EUR529,90), "
                                               + "found '\(field.first)'; not checked", location: at(field))))
            }
            statement = s
        case "61":
            try statementLine(field, emit: emit)
        case "86":
            if entry != nil {
                try flushEntry(info: MT940Information.parse(field.lines), emit: emit)
            }
            // A :86: after the closing balance is information for the account owner, not a transaction's.
        default:
            break  // :21:, :NS: and other fields say nothing Coffer keeps
        }
    }

    private mutating func balance(_ field: MT940Field, emit: Emit) throws {
        var s = current(field)
        let parsed: MT940Balance
        switch MT940Balance.parse(field.joined) {
        case .success(let value): parsed = value
        case .failure(let problem):
            if !summarizing {
                try emit(.warning(ParseWarning("skipped the :\(field.tag): balance: \(problem.message)", location: at(field))))
            }
            statement = s
            return
        }
        if s.currency == nil { s.currency = parsed.currency }
        switch field.tag {
        case "60F", "60M": s.opening = (parsed, field.tag)
        case "62F", "62M": s.closing = (parsed, field.tag)
        default: break
        }
        // Intermediate balances (`M`, a statement continued on another page) only check the page: the day's
        // balances are the final ones.
        if !summarizing, field.tag != "60M", field.tag != "62M" {
            let kind: RawBalance.Kind = field.tag == "64" || field.tag == "65" ? .available : .booked
            let raw = RawBalance(kind: kind, amount: parsed.amount, indicator: parsed.indicator, currencyCode: parsed.currency,
                                 asOf: parsed.date, code: field.tag, location: at(field))
            if s.begun { try emit(.balance(raw)) } else { s.waiting.append(raw) }
        }
        statement = s
    }

    private mutating func statementLine(_ field: MT940Field, emit: Emit) throws {
        var s = current(field)
        let line: MT940StatementLine
        switch MT940StatementLine.parse(field.lines) {
        case .success(let value): line = value
        case .failure(let problem): throw CofferError(.badInput, problem.message, location: at(field))
        }
        guard s.account != nil else {
            throw CofferError(.badInput, "expected :25: (the account) before the statement's first :61:, found none",
                              location: at(field))
        }
        s.note(entry: line.amount, line.indicator, day: line.entryDate ?? line.valueDate)
        statement = s
        try begin(emit: emit)
        entry = (line, at(field))
    }

    /// Emits the waiting `:61:` with the `:86:` that followed it, if any.
    private mutating func flushEntry(info: MT940Information?, emit: Emit) throws {
        guard let waiting = entry else { return }
        entry = nil
        guard !summarizing, let statement else { return }
        try emit(.transaction(MT940Entry.raw(waiting.line, info: info, location: waiting.location,
                                             currency: statement.currency, pending: statement.isInterim)))
    }

    private mutating func begin(emit: Emit) throws {
        guard var s = statement, !s.begun else { return }
        s.begun = true
        statement = s
        guard !summarizing else { return }
        let summary = statementCount < known.count ? known[statementCount] : s.summary
        if s.currency == nil {
            s.currency = summary.currency
            statement?.currency = summary.currency
        }
        var identity = RawAccountIdentity(institutionID: s.account?.institutionID, accountNumber: s.account?.number,
                                          kind: .asset, currencyCode: s.currency)
        identity.accountType = nil
        var header = RawStatementHeader(account: identity, periodStart: summary.periodStart, periodEnd: summary.periodEnd,
                                        statementID: s.number ?? s.reference, location: s.location)
        header.asOf = summary.asOf
        header.listsPending = s.isInterim
        try emit(.begin(header))
        for raw in s.waiting { try emit(.balance(raw)) }
        statement?.waiting = []
    }

    private mutating func finishStatement(emit: Emit) throws {
        try flushEntry(info: nil, emit: emit)
        guard let s = statement else { return }
        statement = nil
        guard s.hasContent else { return }
        guard s.account != nil else {
            throw CofferError(.badInput, "expected :25: (the account) in the statement, found none", location: s.location)
        }
        statement = s
        try begin(emit: emit)
        statement = nil
        statementCount += 1
        if summarizing {
            summaries.append(s.summary)
            return
        }
        for warning in s.warnings() { try emit(.warning(warning)) }
        try emit(.end)
    }
}
