import Testing

@testable import QuireCore

/// A field's label is shown above its control when it is longer than 80 characters
/// (`FieldPresentation.stacksLabel`, docs/gtk-shell.md, "Window sizes").
@Suite struct LabelPlacementTests {
    func fields(_ labels: [String]) throws -> [FieldPresentation] {
        let fields = labels.enumerated().map { index, label in
            #"{"id": "f\#(index)", "kind": "toggle", "label": "\#(label)"}"#
        }.joined(separator: ",")
        let flow = try makeFlow(#"{"format": "quire.flow/1", "id": "labels", "pages": [{"id": "p", "fields": [\#(fields)]}]}"#)
        return try #require(Session(flow: flow).presentPage(at: 0)).fields
    }

    @Test func aLabelLongerThanEightyCharactersIsShownAboveItsControl() throws {
        let limit = FieldPresentation.maxLabelBesideControl
        #expect(limit == 80)
        let shown = try fields([
            "Send me the newsletter",
            String(repeating: "x", count: limit),
            String(repeating: "x", count: limit + 1),
            String(String(repeating: "word ", count: 400).dropLast()),
            String(repeating: "x", count: Flow.maxDisplayCharacters),
            // Characters, not bytes: 80 Japanese characters are 240 UTF-8 bytes, 81 are more.
            String(repeating: "日", count: limit),
            String(repeating: "日", count: limit + 1),
            // A character of several scalars counts once.
            String(repeating: "e\u{301}", count: limit),
        ])
        #expect(shown.map(\.stacksLabel) == [false, false, true, true, true, false, true, false])
    }
}
