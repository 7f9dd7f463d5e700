import Testing
@testable import CofferFormats

/// Free text is trimmed and its whitespace runs folded, non-ASCII whitespace included; letters pass unchanged.
@Suite struct CamtTextTests {
    @Test(arguments: [
        ("Bäckerei Schäfer", "Bäckerei Schäfer"),
        ("Müller & Söhne GmbH", "Müller & Söhne GmbH"),
        ("  Café\n  Zürich ", "Café Zürich"),
        ("Bäckerei\u{00A0}Schäfer", "Bäckerei Schäfer"),
        ("\u{2003}Straße\u{3000}", "Straße"),
        ("Łódź\u{202F}PL", "Łódź PL"),
        ("€ 12", "€ 12"),
    ])
    func text(_ raw: String, _ clean: String) {
        #expect(CamtValues.text(raw) == clean)
    }

    @Test func onlyWhitespaceIsNothing() {
        #expect(CamtValues.text("\u{00A0} \n") == nil)
        #expect(CamtValues.text("") == nil)
    }
}
