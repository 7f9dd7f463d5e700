import Foundation

/// Currency codes a currency column may hold: the ISO 4217 codes of currencies in use.
enum DraftCurrencies {
    static let codes: Set<String> = Set("""
        AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF \
        CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG \
        HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA \
        MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD \
        RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX \
        USD UYU UZS VES VND VUV WST XAF XCD XOF XPF YER ZAR ZMW ZWL
        """.split(separator: " ").map(String.init))

    /// The currency a symbol in the amounts names.
    static let symbols: [Character: String] = ["$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR", "₩": "KRW", "₺": "TRY"]
}

/// What the file's name and preamble say: the profile id, the institution, and where an account number is written.
enum DraftNames {
    /// `Chase1234_Activity_20260315.CSV` → `chase-activity`: lower-case words of the name, without dates, long
    /// numbers and IBANs; `draft` when nothing is left.
    static func id(fileName: String) -> String {
        let stem = (fileName as NSString).deletingPathExtension
        let words = stem.folding(options: [.diacriticInsensitive], locale: nil).lowercased()
            .split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
            .compactMap { word -> String? in
                let letters = word.filter(\.isLetter).count
                let digits = word.count - letters
                if digits >= 4 && letters <= 2 { return nil }          // dates, numbers, IBANs
                let head = word.prefix(while: \.isLetter)
                return head.count >= 2 ? String(head) : (digits == 0 ? String(word) : nil)
            }
            .filter { !$0.isEmpty && !["csv", "txt", "export", "download"].contains($0) }
        let id = words.prefix(4).joined(separator: "-")
        return id.isEmpty ? "draft" : id
    }

    /// `chase-activity` → `Chase Activity`: a display name to replace.
    static func institution(id: String) -> String {
        id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }

    /// A glob for files named like this one: runs of digits become `*` (`export_2026-03.csv` → `export_*-*.csv`).
    static func fileGlob(_ fileName: String) -> String {
        var out = ""
        var inDigits = false
        for c in fileName {
            if c.isNumber {
                if !inDigits { out.append("*") }
                inDigits = true
            } else {
                out.append(c)
                inDigits = false
            }
        }
        return out
    }

    /// An IBAN in `text` (`DE02120300000000202051`, also written in groups of four).
    static func iban(in text: String) -> String? {
        let compact = text.replacingOccurrences(of: " ", with: "")
        let chars = Array(compact)
        var i = 0
        while i + 15 <= chars.count {
            if chars[i].isASCII, chars[i].isUppercase, chars[i + 1].isASCII, chars[i + 1].isUppercase,
               chars[i + 2].isNumber, chars[i + 3].isNumber, i == 0 || !chars[i - 1].isLetter {
                var end = i + 4
                while end < chars.count, end - i < 34, chars[end].isASCII, chars[end].isNumber || chars[end].isUppercase { end += 1 }
                if end - i >= 15, chars[(i + 4)..<end].filter(\.isNumber).count >= 10 { return String(chars[i..<end]) }
            }
            i += 1
        }
        return nil
    }

    /// `DE02120300000000202051` → `DE02••••2051`, for comments that should not repeat a whole number.
    static func masked(_ number: String) -> String {
        number.count <= 8 ? number : String(number.prefix(4)) + "••••" + String(number.suffix(4))
    }
}
