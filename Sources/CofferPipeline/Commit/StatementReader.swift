import CofferFormats
import CofferModel
import CofferStore
import Foundation

/// Reads statement files without a store: each transaction normalized exactly as `Importer` would import it
/// (the same identify, parse and normalize stages, on the same two threads), with no matching and no writing.
///
/// `coffer parse` prints them, to check a file or a CSV profile before importing, and the benchmark compares
/// it with peer tools that only parse (ofxtools, ofxparse, `hledger print`). Without a store there is no
/// account id: `accountID` is all zeros and `account` names the statement's account (its number masked).
package struct StatementReader: Sendable {
    package let configuration: CofferConfiguration

    package init(configuration: CofferConfiguration) {
        self.configuration = configuration
    }

    package struct Item: Sendable {
        package var transaction: Transaction
        /// The statement's account: institution and masked number (or the profile's account name).
        package var account: String
    }

    /// Calls `each` for every transaction of the file, in file order; returns the warnings the parser gave.
    @discardableResult
    package func read(_ path: String, profileID: String? = nil, skipBadRows: Bool = false, dateOrder: QIFDateOrder? = nil,
                     textEncoding: SingleByteTable? = nil, each: (Item) throws -> Void) throws -> [String] {
        let input = StatementInput.file(path)
        let format = try FormatIdentifier(profiles: configuration.profiles).identify(input, profileID: profileID, skipBadRows: skipBadRows,
                                                                                   dateOrder: dateOrder, textEncoding: textEncoding)
        var account = ""
        var warnings: [String] = []
        if let id = format.profile, let profile = configuration.profiles.profile(id: id),
           profile.account.numberFrom == nil, !profile.rules.contains(where: { $0.set?.account != nil }) {
            let fixed = profile.account.number.map { "number \($0)" } ?? "name \(profile.account.name ?? "")"
            warnings.append("\(path): profile \(id) names a fixed account (\(fixed)): every file it reads lands on that "
                            + "one account; if the export names its account, say where with account.number_from")
        }
        let preparer = TransactionPreparer(normalizer: configuration.normalizer, idName: format.idName, idNamespace: format.idNamespace)
        try ImportPipe.run(parser: format.parser, input: input, preparer: preparer, prepareApart: format.parsesApart) { event -> ResolvedAccount? in
            switch event {
            case .begin(let header):
                let identity = header.account
                let number = identity.accountNumber.map { "••••" + String($0.filter { $0.isLetter || $0.isNumber }.suffix(4)) }
                account = [identity.institutionName ?? identity.institutionID, number ?? identity.displayName].compactMap { $0 }
                    .joined(separator: " ")
                // No store, so no account id: a merchant rule's `account` is compared with the statement's own name.
                return ResolvedAccount(id: TransactionPreparer.noAccount, currencyCode: identity.currencyCode ?? identity.assumedCurrency ?? "",
                                       names: [identity.displayName, account].compactMap { $0 })
            case .transaction(let prepared): try each(Item(transaction: prepared.transaction, account: account))
            case .warning(let warning): warnings.append(warning.description)
            case .balance, .end: break
            }
            return nil
        }
        return warnings
    }
}
