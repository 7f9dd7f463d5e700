import CofferPipeline
import Foundation
import Testing

/// Files saved under a statement's name that are something else, and `--profile` beside OFX and camt files.
@Suite struct NotAStatementTests {
    let identifier: FormatIdentifier

    init() throws {
        identifier = FormatIdentifier(profiles: try CSVProfileSet.load(directory: repositoryRoot + "/config/profiles"))
    }

    func failure(_ text: String, profile: String? = nil) -> String {
        do {
            let format = try identifier.identify(.bytes(Array(text.utf8), name: "download.ofx"), profileID: profile)
            return "identified as \(format.name)"
        } catch {
            return "\(error)"
        }
    }

    @Test func aPDFIsNamedAsSuchWhateverProfileIsForced() {
        #expect(failure("%PDF-1.4\n1 0 obj\n").contains("a PDF document, not a statement file"))
        #expect(failure("%PDF-1.4\n1 0 obj\n", profile: "chase-checking").contains("a PDF document"))
    }

    @Test func aWebPageIsNamedWithItsTitle() {
        let page = "\u{FEFF}\n  <!doctype HTML>\n<html><head><TITLE>Session\n expired</TITLE></head></html>"
        #expect(failure(page).contains("an HTML web page (\"Session expired\"), not a statement file"), "\(failure(page))")
        let xhtml = "<?xml version=\"1.0\"?>\n<html xmlns=\"http://www.w3.org/1999/xhtml\"><body>Sign in</body></html>"
        #expect(failure(xhtml).contains("an HTML web page, not a statement file"), "\(failure(xhtml))")
        #expect(failure("<html><body>Sign in</body></html>").contains("HTML web page"))
    }

    @Test func aForcedProfileLeavesOFXAndCamtFilesAlone() {
        let ofx = "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX></OFX>"
        #expect(failure(ofx, profile: "chase-checking") == "identified as ofx")
        let camt = #"<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"></Document>"#
        #expect(failure(camt, profile: "chase-checking").hasPrefix("identified as camt"))
        // A CSV file is still read with the forced profile.
        #expect(failure("a,b\n1,2\n", profile: "chase-checking") == "identified as csv")
    }
}
