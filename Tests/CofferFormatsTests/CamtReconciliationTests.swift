import CofferModel
import Foundation
import Testing
@testable import CofferFormats
import CofferTestSupport

/// A statement's booked entries are summed in micro-units, falling back to `Decimal` for amounts finer than a
/// micro-unit and for sums beyond 64 bits. On random entries the sum is exactly what adding the `Decimal`s gives,
/// and so is the warning a statement that does not reconcile gets. A failure prints its seed.
@Suite struct CamtReconciliationTests {
    /// An amount of 0 to 7 fraction digits (7 is finer than a micro-unit), sometimes near `Int64`'s range in
    /// micro-units, sometimes beyond it.
    static func amount(_ rng: inout SplitMix64) -> Decimal {
        let digits = Int.random(in: 0...7, using: &rng)
        let mantissa: UInt64 = switch Int.random(in: 0..<8, using: &rng) {
        case 0: UInt64.random(in: 9_000_000_000_000...UInt64(Int64.max), using: &rng)  // overflows the sum soon
        case 1: UInt64.random(in: 0...9, using: &rng)
        default: UInt64.random(in: 0...10_000_000, using: &rng)
        }
        return Decimal(sign: .plus, exponent: -digits, significand: Decimal(mantissa))
    }

    @Test func theBookedSumIsTheDecimalSum() {
        for seed in UInt64(1)...500 {
            var rng = SplitMix64(state: seed)
            var check = CamtReconciliation()
            var expected = Decimal(0)
            for _ in 0..<Int.random(in: 0...60, using: &rng) {
                let value = Self.amount(&rng)
                let indicator: CreditDebitIndicator = Bool.random(using: &rng) ? .credit : .debit
                let status: TransactionStatus? = [TransactionStatus?.none, .booked, .pending].randomElement(using: &rng)!
                check.note(entry: value, indicator: indicator, status: status)
                if status != .pending { expected += indicator == .debit ? -value : value }
            }
            #expect(check.bookedNet == expected, "seed \(seed)")
            #expect(ExactDecimal.text(check.bookedNet, minimumFractionDigits: 2)
                    == ExactDecimal.text(expected, minimumFractionDigits: 2), "seed \(seed)")
        }
    }

    @Test func aStatementThatDoesNotReconcileIsToldTheDifference() throws {
        var check = CamtReconciliation()
        let location = SourceLocation(file: "s.xml")
        check.note(RawBalance(kind: .booked, amount: 100, indicator: .credit, currencyCode: "EUR",
                              asOf: RawDate(date: Date(timeIntervalSince1970: 1_772_323_200), isDateOnly: true), code: "OPBD", location: location))
        check.note(RawBalance(kind: .booked, amount: Decimal(string: "70.30")!, indicator: .credit, currencyCode: "EUR",
                              asOf: RawDate(date: Date(timeIntervalSince1970: 1_774_915_200), isDateOnly: true), code: "CLBD", location: location))
        check.note(entry: Decimal(string: "12.50")!, indicator: .debit, status: .booked)
        check.note(entry: Decimal(string: "17.20")!, indicator: .debit, status: nil)
        check.note(entry: Decimal(string: "99.99")!, indicator: .debit, status: .pending)
        #expect(check.warning(currency: "EUR", at: location) == nil)
        check.note(entry: Decimal(string: "0.0000001")!, indicator: .credit, status: .booked)
        let warning = try #require(check.warning(currency: "EUR", at: location))
        #expect(warning.message == "the statement does not reconcile: OPBD 100.00 EUR + booked entries -29.6999999 EUR "
                + "= 70.3000001 EUR, but CLBD is 70.30 EUR (difference -0.0000001 EUR); imported as sent")
    }
}
