import CofferModel
import Testing
@testable import CofferPipeline

@Suite("Normalize: transaction types")
struct NormalizeTypeTests {
    private func infer(_ text: String, _ indicator: CreditDebitIndicator = .debit, code: String? = nil,
                       merchant: Bool = false, mcc: Int16? = nil) -> TransactionType {
        TransactionTypeInference.infer(rawText: text, typeCode: code, indicator: indicator, hasMerchant: merchant,
                                       mcc: mcc.map(MerchantCategoryCode.init(rawValue:)))
    }

    @Test func explicitWordsOnly() {
        #expect(infer("ATM FEE") == .fee)
        #expect(infer("NON-CHASE ATM WITHDRAW 123 MAIN") == .atm)
        #expect(infer("PAYCHECK ADVANCE") == .unknown)  // `^check` needs the word CHECK at the start
        #expect(infer("RETURN OF POSTED CHECK", .debit) == .unknown)
        #expect(infer("RETURN AMAZON", .credit) == .refund)
        #expect(infer("PAYROLL ACME", .debit) == .unknown)  // salary is a credit
        #expect(infer("JOHN SMITH") == .unknown)
        #expect(infer("JOHN SMITH", merchant: true) == .pointOfSale)
        #expect(infer("JOHN SMITH", .credit, merchant: true) == .unknown)
        #expect(infer("CORNER SHOP", mcc: 5411) == .pointOfSale)
        #expect(infer("SEPA-Überweisung an Erika") == .transfer)
        #expect(infer("Echtzeitüberweisung") == .transfer)
        #expect(infer("Dauerauftrag Überweisung") == .standingOrder)
    }

    @Test func feedCodesComeFirst() {
        #expect(infer("STARBUCKS", code: "ATM") == .atm)
        #expect(infer("anything", code: "directdep") == .unknown)  // a credit code on a debit says nothing
        #expect(infer("anything", .credit, code: "DIRECTDEP") == .directDeposit)
        #expect(infer("ATM WITHDRAWAL", code: "DEBIT") == .atm)  // generic code: the text decides
        #expect(infer("x", code: "PMNT/CCRD/CWDL") == .atm)
        #expect(infer("x", .credit, code: "PMNT-RCDT-SALA") == .directDeposit)
        #expect(infer("x", code: "ACH_DEBIT") == .directDebit)
        #expect(infer("x", .credit, code: "Sale") == .refund)
    }
}
