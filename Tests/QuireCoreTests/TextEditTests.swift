import Testing

@testable import QuireCore

/// `TextEdit` counts the clusters an `edit` adds or removes over a window; these check it against
/// counting the whole new text, over texts made of the scalars grapheme breaking is hardest on.
@Suite struct TextEditTests {
    /// Regional indicators (pairs make flags, parity runs far), ZWJ emoji sequences, skin tones,
    /// combining marks, CR LF, Hangul jamo, an Indic conjunct (GB9c), and plain ASCII.
    static let pieces: [String] = [
        "a", "b", "\u{1F1EF}", "\u{1F1F5}", "\u{1F468}", "\u{200D}", "\u{1F469}", "\u{1F3FD}", "\u{0301}",
        "e", "\r", "\n", "\u{1100}", "\u{1161}", "\u{11A8}", "\u{0915}", "\u{094D}", "\u{0937}", "é", "\u{FE0F}", "\u{2764}",
    ]

    static func random(_ generator: inout SplitMix64, _ count: Int) -> String {
        var text = ""
        for _ in 0..<count { text += pieces[Int(generator.next() % UInt64(pieces.count))] }
        return text
    }

    @Test func theLengthChangeIsTheWholeCountsDifference() {
        var generator = SplitMix64(seed: 0x51_2E_ED17)
        for _ in 0..<4_000 {
            let text = Self.random(&generator, Int(generator.next() % 40))
            let scalars = text.unicodeScalars.count
            let from = scalars == 0 ? 0 : Int(generator.next() % UInt64(scalars + 1))
            let to = from + Int(generator.next() % UInt64(scalars - from + 1))
            let replacement = Self.random(&generator, Int(generator.next() % 6))
            let edit = TextEdit(text, scalarCount: scalars, from: from, to: to, replacement)
            var edited = text
            edit.apply(to: &edited)
            let list = Array(text.unicodeScalars)
            var expected = String.UnicodeScalarView()
            expected.append(contentsOf: list[..<from])
            expected.append(contentsOf: replacement.unicodeScalars)
            expected.append(contentsOf: list[to...])
            #expect(
                edited.unicodeScalars.elementsEqual(expected),
                "\(Array(text.unicodeScalars)) [\(from), \(to)) ← \(Array(replacement.unicodeScalars))")
            #expect(
                edit.lengthChange == edited.count - text.count,
                "\(Array(text.unicodeScalars)) [\(from), \(to)) ← \(Array(replacement.unicodeScalars))")
            #expect(edit.changesNothing == Array(list[from..<to]).elementsEqual(replacement.unicodeScalars))
        }
    }

    @Test func aLongRunOfRegionalIndicatorsRepairsWhenOneIsInsertedAtItsStart() {
        let flags = String(repeating: "\u{1F1EF}\u{1F1F5}", count: 300)
        let edit = TextEdit(flags, scalarCount: 600, from: 0, to: 0, "\u{1F1EF}")
        var edited = flags
        edit.apply(to: &edited)
        #expect(edit.lengthChange == edited.count - flags.count)
    }

    /// Edits through a session, each near the last (where the session counts from), against the
    /// same edits made on a plain array of scalars.
    @Test func editsThroughASessionAgreeWithAPlainModel() throws {
        let flow = try makeFlow(#"{"format": "quire.flow/1", "id": "f", "pages": [{"id": "a", "fields": [{"id": "t", "kind": "text"}]}]}"#)
        var generator = SplitMix64(seed: 0xED17_5E55)
        for _ in 0..<40 {
            var session = Session(flow: flow)
            session.run(tapField("t"))
            var model: [Unicode.Scalar] = []
            for step in 0..<60 {
                let count = model.count
                var from = count == 0 ? 0 : Int(generator.next() % UInt64(count + 1))
                if step % 3 == 0 { from = count }
                let to = from + Int(generator.next() % UInt64(min(count - from, 3) + 1))
                let replacement = Self.random(&generator, Int(generator.next() % 4))
                if step % 7 == 6 {
                    session.run(.type("x"))
                    model.append("x")
                    continue
                }
                session.run(.edit(from: from, to: to, text: replacement))
                if from < to || !replacement.isEmpty { model.replaceSubrange(from..<to, with: replacement.unicodeScalars) }
                var expected = String.UnicodeScalarView()
                expected.append(contentsOf: model)
                guard case .string(let held)? = session.at("values.t") else {
                    #expect(model.isEmpty)
                    continue
                }
                #expect(held.unicodeScalars.elementsEqual(expected))
                #expect(session.answers.textLengths[0] == held.count)
                #expect(session.answers.scalarCounts[0] == model.count)
            }
        }
    }
}
