import CofferModel
import Foundation

/// Reads leaf values as text, amounts and dates in the file's character set.
///
/// For example, an unreadable `<TRNAMT>12abc` throws `OFXValueError`, which the reader reports as
/// `bank.ofx:7:40 (OFX/…/STMTTRN[1]/TRNAMT): expected an amount like -12.34 in <TRNAMT>, found '12abc'`.
struct OFXValueReader {
    let file: String
    var encoding = TextEncoding.windows1252
    /// The header's character set when it is a single-byte one `TextEncoding` does not name (`CHARSET:1251`).
    var table: SingleByteTable?

    func text(_ value: UnsafeBufferPointer<UInt8>) -> String {
        if let table { return table.decode(value) }
        return encoding.decode(value)
    }

    /// An upper-cased code word (`TRNTYPE`, `CURSYM`), without re-casing when it already is.
    func code(_ value: UnsafeBufferPointer<UInt8>) -> String {
        value.contains { $0 >= 0x61 && $0 <= 0x7A } ? text(value).uppercased() : text(value)
    }

    /// A merchant category code: up to four digits read directly, anything else through
    /// `MerchantCategoryCode(_:)`.
    func merchantCategory(_ value: UnsafeBufferPointer<UInt8>) -> MerchantCategoryCode? {
        guard !value.isEmpty, value.count <= 4 else { return value.isEmpty ? nil : MerchantCategoryCode(text(value)) }
        var code: Int16 = 0
        for b in value {
            guard b >= 0x30, b <= 0x39 else { return MerchantCategoryCode(text(value)) }
            code = code &* 10 &+ Int16(b &- 0x30)
        }
        return MerchantCategoryCode(rawValue: code)
    }

    func decimal(_ value: UnsafeBufferPointer<UInt8>, _ tag: OFXTag) throws -> Decimal {
        if let amount = OFXAmount.parse(value) { return amount }
        throw OFXValueError(message: "expected an amount like -12.34 in <\(tag.name)>, found '\(text(value))'")
    }

    func date(_ value: UnsafeBufferPointer<UInt8>, _ tag: OFXTag) throws -> RawDate {
        if let date = OFXDate.parse(value) { return date }
        throw OFXValueError(message: "expected a date like 20260314 or 20260314120000[-5:EST] in <\(tag.name)>, "
                            + "found '\(text(value))'")
    }
}

/// A leaf value that cannot be read; the reader turns it into a located `CofferError(.badInput)`.
struct OFXValueError: Error {
    let message: String
}
