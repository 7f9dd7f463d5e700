/// The OFX element names the parser acts on, looked up from raw tag bytes without building a `String`.
///
/// For example:
/// ```swift
/// Array("stmttrn".utf8).withUnsafeBufferPointer { OFXTag.lookup($0) }   // .stmttrn (any case)
/// Array("INTU.BID".utf8).withUnsafeBufferPointer { OFXTag.lookup($0) }  // .other
/// ```
/// Aggregates (elements that hold other elements) are told apart from leaves (elements that hold a value) so
/// the reader can infer SGML structure: a known leaf followed by a tag is an empty value, never a container, and
/// a known aggregate is never closed implicitly (that would be wrong nesting).
enum OFXTag: UInt8, CaseIterable, Sendable {
    case other
    // Aggregates.
    case ofx, signonMsgs, bankMsgs, creditCardMsgs, investmentMsgs, sonrs, status, fi
    case stmtTrnRs, ccStmtTrnRs, invStmtTrnRs, stmtRs, ccStmtRs, invStmtRs
    case bankAcctFrom, ccAcctFrom, invAcctFrom, bankAcctTo, ccAcctTo
    case bankTranList, invTranList, invPosList, invBal, invBankTran, stmtTrn
    case ledgerBal, availBal, currency, origCurrency, payee
    // Leaves.
    case code, severity, message, org, fid, curDef, bankID, branchID, acctID, acctType, brokerID
    case dtStart, dtEnd, trnType, dtPosted, dtUser, dtAvail, trnAmt, fitID, correctFitID, correctAction
    case name, memo, sic, checkNum, refNum, payeeID, curSym, curRate, balAmt, dtAsOf, dtServer, language, trnUID

    /// The element name as OFX spells it.
    var name: String { OFXTag.names[Int(rawValue)] }

    /// Whether the element holds other elements.
    var isAggregate: Bool { rawValue >= OFXTag.ofx.rawValue && rawValue <= OFXTag.payee.rawValue }

    /// Whether the element holds a value.
    var isLeaf: Bool { rawValue >= OFXTag.code.rawValue }

    /// Aggregates whose children are all leaves: one left open ends where another aggregate starts.
    var holdsOnlyLeaves: Bool {
        switch self {
        case .status, .fi, .bankAcctFrom, .ccAcctFrom, .invAcctFrom, .bankAcctTo, .ccAcctTo, .ledgerBal, .availBal,
             .currency, .origCurrency: true
        default: false
        }
    }

    /// The statement aggregates: one account's statement each.
    var isStatement: Bool { self == .stmtRs || self == .ccStmtRs || self == .invStmtRs }

    /// The transaction-response wrappers whose STATUS speaks for one statement.
    var isTransactionResponse: Bool { self == .stmtTrnRs || self == .ccStmtTrnRs || self == .invStmtTrnRs }

    private static let names: [String] = [
        "", "OFX", "SIGNONMSGSRSV1", "BANKMSGSRSV1", "CREDITCARDMSGSRSV1", "INVSTMTMSGSRSV1", "SONRS", "STATUS", "FI",
        "STMTTRNRS", "CCSTMTTRNRS", "INVSTMTTRNRS", "STMTRS", "CCSTMTRS", "INVSTMTRS",
        "BANKACCTFROM", "CCACCTFROM", "INVACCTFROM", "BANKACCTTO", "CCACCTTO",
        "BANKTRANLIST", "INVTRANLIST", "INVPOSLIST", "INVBAL", "INVBANKTRAN", "STMTTRN",
        "LEDGERBAL", "AVAILBAL", "CURRENCY", "ORIGCURRENCY", "PAYEE",
        "CODE", "SEVERITY", "MESSAGE", "ORG", "FID", "CURDEF", "BANKID", "BRANCHID", "ACCTID", "ACCTTYPE", "BROKERID",
        "DTSTART", "DTEND", "TRNTYPE", "DTPOSTED", "DTUSER", "DTAVAIL", "TRNAMT", "FITID", "CORRECTFITID",
        "CORRECTACTION", "NAME", "MEMO", "SIC", "CHECKNUM", "REFNUM", "PAYEEID", "CURSYM", "CURRATE", "BALAMT",
        "DTASOF", "DTSERVER", "LANGUAGE", "TRNUID",
    ]

    /// A name packed into two words, upper-cased; names longer than 16 bytes are never known tags.
    private struct Key: Hashable {
        var low: UInt64 = 0
        var high: UInt64 = 0
    }

    /// An open-addressing table (a dictionary's SipHash is measurably slow for one lookup per tag).
    private static let slots = 512
    private static let table: [(key: Key, tag: OFXTag)] = {
        var table = Array(repeating: (key: Key(), tag: OFXTag.other), count: slots)
        for tag in OFXTag.allCases where tag != .other {
            guard let key = Array(tag.name.utf8).withUnsafeBufferPointer({ pack($0) }) else { continue }
            var slot = index(key)
            while table[slot].tag != .other { slot = (slot &+ 1) & (slots &- 1) }
            table[slot] = (key, tag)
        }
        return table
    }()

    private static func index(_ key: Key) -> Int {
        Int(truncatingIfNeeded: ((key.low ^ (key.high &* 0x9E37_79B9)) &* 0x9E37_79B9_7F4A_7C15) >> 55)
    }

    private static func pack(_ bytes: UnsafeBufferPointer<UInt8>) -> Key? {
        let count = bytes.count
        guard count <= 16, let base = bytes.baseAddress else { return count == 0 ? Key() : nil }
        var key = Key()
        var i = 0
        while i < count {
            var byte = base[i]
            if byte >= 0x61 && byte <= 0x7A { byte &-= 0x20 }
            if i < 8 { key.low |= UInt64(byte) << UInt64(i &* 8) } else { key.high |= UInt64(byte) << UInt64((i &- 8) &* 8) }
            i &+= 1
        }
        return key
    }

    /// The tag for a raw element name, `.other` for names the parser does not act on.
    static func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> OFXTag {
        guard let key = pack(bytes) else { return .other }
        var slot = index(key)
        while true {
            let entry = table[slot]
            if entry.tag == .other { return .other }
            if entry.key == key { return entry.tag }
            slot = (slot &+ 1) & (slots &- 1)
        }
    }
}
