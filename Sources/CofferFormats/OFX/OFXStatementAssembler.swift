import CofferModel
import Foundation

/// Builds statement events from OFX structure: statements, their accounts, transactions, balances, statuses.
///
/// For example, `<STMTRS><CURDEF>USD<BANKACCTFROM>…<BANKTRANLIST>…<STMTTRN>…</STMTTRN>…<LEDGERBAL>…</STMTRS>`
/// gives `.begin` (at the first transaction, when the account and period are known), `.transaction` per
/// `STMTTRN`, `.balance` per `LEDGERBAL`/`AVAILBAL`, then `.end`.
///
/// - `STMTRS` is an asset account unless its `ACCTTYPE` is `CREDITLINE`; `CCSTMTRS` is a liability;
///   `INVSTMTRS` is an asset whose `INVBANKTRAN` cash transactions are imported, with one warning counting the
///   investment transactions and positions skipped.
/// - The institution is `FI/ORG`; its id is `BANKID` (or `BROKERID`) when the account names one, else `FI/FID`.
/// - A `STATUS` with `SEVERITY` `ERROR` in `SONRS` or a `…TRNRS` throws `.institutionError`.
/// - A `FITID` seen twice for one account in one file: both transactions are emitted, with a warning.
/// - Optional values as real files send them: an empty `NAME`, `MEMO` or `FITID` is absent (a transaction
///   without `FITID` is matched by its content); an empty `CURDEF` leaves the currency to the stored account or
///   `--currency`; a balance whose `BALAMT` or `DTASOF` is empty or unreadable is skipped with a warning; an
///   unreadable `DTSTART`/`DTEND` is dropped with a warning (the transactions' dates bound the period); an
///   unreadable `DTPOSTED` with a readable `DTUSER` is replaced by it, with a warning.
struct OFXStatementAssembler {
    let file: String
    var values: OFXValueReader
    /// Events produced since the caller last drained them.
    var events: [StatementEvent] = []

    private var institutionName: String?
    private var institutionFID: String?
    /// `SONRS/DTSERVER`: when the institution answered, the statements' as-of time.
    private var serverTime: RawDate?
    private var status: (code: String?, severity: String?, message: String?) = (nil, nil, nil)
    private var statement: StatementState?
    private var transaction: OFXTransactionFields?
    private var balance: (amount: Decimal?, asOf: RawDate?, problem: String?)?
    /// Statements opened so far: a file with none is not a statement (see `OFXParser`).
    private(set) var statementCount = 0
    /// A problem with the last leaf that does not stop the file (an optional value dropped); the element reader
    /// emits it as a warning located at that leaf.
    var leafWarning: String?
    /// Set to hear the last leaf's location in `leafLocation` (kept for a problem reported later).
    var wantsLeafLocation = false
    var leafLocation: SourceLocation? {
        didSet { if let leafLocation { transaction?.postedProblemLocation = leafLocation } }
    }

    private struct StatementState {
        var header: RawStatementHeader
        var began = false
        var bankID: String?
        var pendingBalances: [RawBalance] = []
        var skipped: [String: Int] = [:]
        var skippedPositions = 0
        var skippedTransactions = 0
    }

    init(file: String) {
        self.file = file
        self.values = OFXValueReader(file: file)
    }

    mutating func open(_ frame: OFXFrame, parent: OFXTag?) throws {
        switch frame.tag {
        case .status: status = (nil, nil, nil)
        case .stmtRs, .ccStmtRs, .invStmtRs:
            let kind: AccountKind = frame.tag == .ccStmtRs ? .liability : .asset
            let account = RawAccountIdentity(institutionName: institutionName, institutionID: institutionFID,
                                             accountType: frame.tag == .ccStmtRs ? "CREDITCARD" : nil, kind: kind)
            statement = StatementState(header: RawStatementHeader(account: account, location: location(frame)))
            statementCount &+= 1
        case .stmtTrn:
            guard statement != nil else { return }
            beginIfNeeded()
            transaction = OFXTransactionFields(location: location(frame))
        case .ledgerBal, .availBal: balance = (nil, nil, nil)
        default:
            guard statement != nil, let parent else { return }
            if parent == .invTranList, frame.tag != .invBankTran {
                statement?.skippedTransactions &+= 1
                statement?.skipped[frame.name, default: 0] &+= 1
            } else if parent == .invPosList {
                statement?.skippedPositions &+= 1
                statement?.skipped[frame.name, default: 0] &+= 1
            }
        }
    }

    mutating func close(_ frame: OFXFrame, parent: OFXTag?) throws {
        switch frame.tag {
        case .status:
            guard status.severity?.uppercased() == "ERROR", let parent,
                  parent == .sonrs || parent.isTransactionResponse else { return }
            let said = [status.code, status.message].compactMap { $0 }.joined(separator: " ")
            throw CofferError(.institutionError, "the institution said: \(said.isEmpty ? "ERROR" : said)",
                              location: location(frame))
        case .stmtTrn:
            guard statement != nil, let fields = transaction.take() else { return }
            // A FITID repeated in the file is noticed (and warned about) by the import's normalize stage, for
            // every format alike.
            if let problem = fields.postedProblem, fields.user != nil {
                events.append(.warning(ParseWarning("\(problem); DTUSER stands in",
                                                    location: fields.postedProblemLocation ?? fields.location)))
            }
            events.append(.transaction(try fields.build(accountCurrency: statement?.header.account.currencyCode)))
        case .ledgerBal, .availBal:
            guard let values = balance, statement != nil else { return }
            balance = nil
            let code = frame.tag.name
            // A balance is information beside the transactions: one that cannot be read is skipped, not the file.
            func skip(_ why: String) {
                events.append(.warning(ParseWarning("skipped the \(code) balance: \(why)", location: location(frame))))
            }
            if let problem = values.problem { return skip(problem) }
            guard let amount = values.amount else { return skip("expected a <BALAMT> amount, found none") }
            guard let asOf = values.asOf ?? statement?.header.periodEnd else {
                return skip("expected a <DTASOF> date, found none")
            }
            let raw = RawBalance(kind: frame.tag == .ledgerBal ? .booked : .available, amount: amount,
                                 currencyCode: statement?.header.account.currencyCode, asOf: asOf, code: code,
                                 location: location(frame))
            if statement?.began == true { events.append(.balance(raw)) } else { statement?.pendingBalances.append(raw) }
        case .stmtRs, .ccStmtRs, .invStmtRs:
            beginIfNeeded()
            if let current = statement, !current.skipped.isEmpty {
                let kinds = current.skipped.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }
                events.append(.warning(ParseWarning(
                    "skipped \(current.skippedTransactions) investment transaction(s) and \(current.skippedPositions) "
                    + "position(s) (\(kinds.joined(separator: ", "))): only cash transactions (INVBANKTRAN) are imported",
                    location: location(frame))))
            }
            statement = nil
            events.append(.end)
        default: break
        }
    }

    /// Takes one leaf value inside the aggregate `parent`; a bad value throws `OFXValueError`, which the reader
    /// places at the leaf's line, column and path.
    mutating func leaf(_ tag: OFXTag, value: UnsafeBufferPointer<UInt8>, inside parent: OFXTag) throws {
        switch parent {
        case .stmtTrn where transaction != nil:
            try transactionLeaf(tag, value: value)
        case .payee where tag == .name: transaction?.payeeName = values.text(value)
        case .currency where transaction != nil, .origCurrency where transaction != nil:
            transaction?.conversion = parent == .currency ? .currency : .original
            if tag == .curSym { transaction?.currencySymbol = values.code(value) }
            if tag == .curRate {
                transaction?.currencyRate = try values.decimal(value, tag)
            }
        case .status:
            if tag == .code { status.code = values.text(value) }
            if tag == .severity { status.severity = values.text(value) }
            if tag == .message { status.message = values.text(value) }
        case .fi:
            if tag == .org { institutionName = values.text(value) }
            if tag == .fid { institutionFID = values.text(value) }
        case .sonrs where tag == .dtServer:
            serverTime = OFXDate.parse(value)
        case .stmtRs, .ccStmtRs, .invStmtRs:
            if tag == .curDef, !value.isEmpty { statement?.header.account.currencyCode = values.code(value) }
        case .bankAcctFrom, .ccAcctFrom, .invAcctFrom:
            guard statement != nil else { return }
            switch tag {
            case .bankID, .brokerID:
                // The FID stays known beside it: the OFX ORG/FID pair names the institution in equivalence tables.
                if statement?.header.account.otherInstitutionID == nil {
                    let fid = statement?.header.account.institutionID
                    statement?.header.account.otherInstitutionID = fid
                }
                statement?.header.account.institutionID = values.text(value)
            case .acctID:
                if !value.isEmpty { statement?.header.account.accountNumber = values.text(value) }
            case .acctType:
                let type = values.text(value).uppercased()
                statement?.header.account.accountType = type
                if type == "CREDITLINE" { statement?.header.account.kind = .liability }
            default: break
            }
        case .bankTranList, .invTranList:
            guard tag == .dtStart || tag == .dtEnd, !value.isEmpty else { return }
            do {
                let date = try values.date(value, tag)
                if tag == .dtStart { statement?.header.periodStart = date } else { statement?.header.periodEnd = date }
            } catch let problem as OFXValueError {
                leafWarning = "\(problem.message); the statement's period is taken from its transactions"
            }
        case .ledgerBal, .availBal:
            guard balance != nil, tag == .balAmt || tag == .dtAsOf, !value.isEmpty else { return }
            do {
                if tag == .balAmt { balance?.amount = try values.decimal(value, tag) }
                if tag == .dtAsOf { balance?.asOf = try values.date(value, tag) }
            } catch let problem as OFXValueError {
                if balance?.problem == nil { balance?.problem = problem.message }
            }
        default: break
        }
    }

    private mutating func transactionLeaf(_ tag: OFXTag, value: UnsafeBufferPointer<UInt8>) throws {
        switch tag {
        case .trnType: transaction?.typeCode = values.code(value)
        case .dtPosted:
            do {
                transaction?.posted = try values.date(value, tag)
            } catch let problem as OFXValueError {
                // Fatal only when DTUSER cannot stand in (checked when the transaction closes).
                transaction?.postedProblem = problem.message
                wantsLeafLocation = true
            }
        case .dtUser:
            // An empty or unreadable DTUSER is optional information: it is dropped, DTPOSTED stands in.
            transaction?.user = OFXDate.parse(value)
        case .trnAmt: transaction?.amount = try values.decimal(value, tag)
        case .fitID:
            transaction?.fitID = value.isEmpty ? nil : values.text(value)
        case .name: transaction?.name = values.text(value)
        case .payee: transaction?.payeeName = values.text(value)
        case .memo: transaction?.memo = value.isEmpty ? nil : values.text(value)
        case .sic: transaction?.sic = values.merchantCategory(value)
        case .checkNum: transaction?.checkNumber = values.text(value)
        case .correctFitID: transaction?.correctFitID = values.text(value)
        case .correctAction:
            switch values.text(value).uppercased() {
            case "REPLACE": transaction?.correctAction = .replace
            case "DELETE": transaction?.correctAction = .delete
            default:
                throw OFXValueError(message: "expected CORRECTACTION REPLACE or DELETE, found '\(values.text(value))'")
            }
        default: break
        }
    }

    private mutating func beginIfNeeded() {
        // Checked without copying the statement state: this runs for every transaction.
        guard statement?.began == false, var header = statement?.header else { return }
        header.asOf = serverTime ?? header.periodEnd
        statement?.began = true
        events.append(.begin(header))
        for raw in statement?.pendingBalances ?? [] { events.append(.balance(raw)) }
        statement?.pendingBalances = []
    }

    private func location(_ frame: OFXFrame) -> SourceLocation {
        SourceLocation(file: file, line: frame.line, column: frame.column, element: frame.path)
    }
}
