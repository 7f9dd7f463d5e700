/// The account a `:25:` field names, as an identity Coffer can match with other formats.
///
/// For example:
/// ```swift
/// MT940Account.parse("12030000/202051")          // number "DE02120300000000202051", bank "12030000"
/// MT940Account.parse("DE02120300000000202051")   // number as given
/// MT940Account.parse("NL91ABNA0417164300EUR")    // number "NL91ABNA0417164300", currency "EUR"
/// ```
/// German banks write the bank code (BLZ, 8 digits) and the account number (up to 10 digits) separated by `/`:
/// the IBAN is derived from them (`DE`, the ISO 7064 mod 97-10 check digits, the BLZ, the account number padded
/// to 10 digits), so an MT940 file and a camt.053 file of one account, which names its IBAN, land on one account.
/// A trailing currency code (`…EUR`) is read as the account's currency; `BIC/IBAN` gives the IBAN with the BIC as
/// the institution. Anything else is kept as the account number it is.
struct MT940Account: Equatable, Sendable {
    var number: String
    /// The BLZ or BIC, when the field names one.
    var institutionID: String?
    var currency: String?

    static func parse(_ text: String) -> MT940Account? {
        var value = text.filter { !$0.isWhitespace }
        guard !value.isEmpty else { return nil }
        if isIBAN(value) { return MT940Account(number: value.uppercased(), institutionID: nil, currency: nil) }
        var currency: String?
        let tail = value.suffix(3)
        if value.count > 3, tail.allSatisfy({ $0.isASCII && $0.isUppercase }),
           let before = value.dropLast(3).last, before.isNumber || before == "/" {
            // `…0532013000EUR`: an IBAN never ends in three letters after a digit.
            currency = String(tail)
            value = String(value.dropLast(3))
            if value.hasSuffix("/") { value.removeLast() }
        }
        let parts = value.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if parts.count == 2 {
            let (bank, account) = (parts[0], parts[1])
            if isIBAN(account) { return MT940Account(number: account.uppercased(), institutionID: bank, currency: currency) }
            if bank.count == 8, bank.allSatisfy(\.isNumber), (1...10).contains(account.count), account.allSatisfy(\.isNumber),
               let iban = germanIBAN(bankCode: bank, account: account) {
                return MT940Account(number: iban, institutionID: bank, currency: currency)
            }
            return MT940Account(number: account, institutionID: bank, currency: currency)
        }
        return MT940Account(number: value.uppercased(), institutionID: nil, currency: currency)
    }

    /// The German IBAN of a bank code and account number: `DE` + check digits + BLZ + account (10 digits).
    static func germanIBAN(bankCode: String, account: String) -> String? {
        let bban = bankCode + String(repeating: "0", count: 10 - account.count) + account
        guard let check = checkDigits(country: "DE", bban: bban) else { return nil }
        return "DE" + check + bban
    }

    /// ISO 7064 MOD 97-10 check digits of an IBAN: 98 − (BBAN + country + "00", letters as 10…35) mod 97.
    static func checkDigits(country: String, bban: String) -> String? {
        guard let remainder = mod97(bban + country + "00") else { return nil }
        let check = 98 - remainder
        return check < 10 ? "0\(check)" : "\(check)"
    }

    /// Whether `text` is an IBAN whose check digits hold (two letters, two digits, up to 30 letters or digits).
    static func isIBAN(_ text: String) -> Bool {
        let chars = Array(text.uppercased())
        guard (15...34).contains(chars.count), chars[0].isLetter, chars[1].isLetter, chars[2].isNumber, chars[3].isNumber,
              chars.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return false }
        return mod97(String(chars[4...]) + String(chars[..<4])) == 1
    }

    /// The number (letters A=10 … Z=35) modulo 97, digit by digit; nil for other characters.
    static func mod97(_ text: String) -> Int? {
        var remainder = 0
        for c in text.uppercased() {
            guard c.isASCII else { return nil }
            if let digit = c.wholeNumberValue {
                remainder = (remainder * 10 + digit) % 97
            } else if c.isLetter, let ascii = c.asciiValue {
                remainder = (remainder * 100 + Int(ascii) - 55) % 97
            } else {
                return nil
            }
        }
        return remainder
    }
}
