import Testing

@testable import QuireCore

/// Typing's word-level edits of short ASCII texts (`SmallASCII`) against `String`'s own: every
/// result must be the string the standard library builds for the same bytes, bit for bit, and
/// every text they do not apply to must be left alone for the public API.
@Suite struct SmallASCIITests {
    /// Bytes the generated texts are made of: letters, digits, space, tab, DEL, and CR and LF
    /// (CR LF is one character of two bytes).
    static let alphabet: [UInt8] = Array("ab Z09~\t\u{7F}\r\n".utf8)

    static func text(_ bytes: some Sequence<UInt8>) -> String { String(decoding: Array(bytes), as: UTF8.self) }

    static func random(_ generator: inout SplitMix64, count: Int) -> [UInt8] {
        (0..<count).map { _ in alphabet[generator.below(alphabet.count)] }
    }

    /// The probe passes where Quire is built (64-bit Linux, the layout it reads); elsewhere the
    /// edits are off and typing takes the public API, which the session test below also runs.
    @Test func theProbePassesOnThisPlatform() {
        #if arch(x86_64) || arch(arm64)
            #expect(SmallASCII.isAvailable)
            #expect(Session(flow: try! makeFlow(#"{"format": "quire.flow/1", "id": "f", "pages": [{"id": "p", "fields": []}]}"#)).smallASCII)
        #endif
        #expect(SmallASCII.isAvailable == SmallASCII.probe())
    }

    /// Every head length 0–15 with every tail length 1–16: a result that fits is exactly
    /// `String(decoding: head + tail)` (the same bits, so the same equality, hash and
    /// `isASCII`); one that does not fit leaves the head alone and says so.
    @Test func appendIsTheStandardLibrarysAppend() throws {
        try #require(SmallASCII.isAvailable)
        var generator = SplitMix64(seed: 1)
        for headCount in 0...15 {
            for tailCount in 1...16 {
                for _ in 0..<8 {
                    let head = Self.random(&generator, count: headCount)
                    let tail = Self.random(&generator, count: tailCount)
                    var actual = Self.text(head)
                    let done = SmallASCII.append(Self.text(tail), to: &actual)
                    if headCount + tailCount <= 15 {
                        let expected = Self.text(head + tail)
                        #expect(done)
                        #expect(SmallASCII.words(actual) == SmallASCII.words(expected))
                        #expect(actual == expected && actual.hashValue == expected.hashValue && actual.count == expected.count)
                        var appended = Self.text(head)
                        appended.append(Self.text(tail))
                        #expect(actual == appended)
                    } else {
                        #expect(!done)
                        #expect(Array(actual.utf8) == head)
                    }
                }
            }
        }
    }

    /// Texts the edits do not apply to are left alone: non-ASCII on either side, a head of 16
    /// bytes or more, a tail of 16 or more.
    @Test func otherTextsAreLeftAlone() throws {
        try #require(SmallASCII.isAvailable)
        let cases: [(String, String)] = [
            ("é", "x"), ("abc", "é"), ("ab\u{301}", "x"), ("日本", "a"), ("a", "👍"),
            (String(repeating: "a", count: 16), "x"), (String(repeating: "b", count: 40), "y"),
            ("a", String(repeating: "c", count: 16)),
        ]
        for (head, tail) in cases {
            var actual = head
            #expect(!SmallASCII.append(tail, to: &actual), "\(head.debugDescription) + \(tail.debugDescription)")
            #expect(actual == head)
        }
        for text in ["", "é", "aé", "e\u{301}", String(repeating: "a", count: 16), String(repeating: "z", count: 30)] {
            var actual = text
            #expect(!SmallASCII.removeLastCharacter(&actual), "\(text.debugDescription)")
            #expect(actual == text)
        }
    }

    /// Taking back the last character of every small ASCII text, CR LF included, down to empty:
    /// the same bits as `String(decoding:)` of what `removeLast()` leaves.
    @Test func removeLastCharacterIsTheStandardLibrarysRemoveLast() throws {
        try #require(SmallASCII.isAvailable)
        var generator = SplitMix64(seed: 2)
        for count in 1...15 {
            for _ in 0..<40 {
                var expected = Self.text(Self.random(&generator, count: count))
                var actual = expected
                while !expected.isEmpty {
                    expected.removeLast()
                    #expect(SmallASCII.removeLastCharacter(&actual))
                    #expect(SmallASCII.words(actual) == SmallASCII.words(Self.text(expected.utf8)))
                    #expect(actual == expected && actual.hashValue == expected.hashValue)
                }
                #expect(!SmallASCII.removeLastCharacter(&actual))
            }
        }
    }

    /// Through the session: random typing and BackSpace across the 15-byte boundary, with the
    /// edits on and off (the public API's path), give the same notifications and the same
    /// session at every step.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func typingIsTheSameWithAndWithoutTheEdits(seed: UInt64) throws {
        let flow = try makeFlow(
            #"{"format": "quire.flow/1", "id": "f", "pages": [{"id": "p", "fields": [{"id": "t", "kind": "text", "maxLength": 30}, {"id": "u", "kind": "text"}]}]}"#)
        var words = Session(flow: flow)
        words.send(tapField("t"))
        var plain = words
        plain.smallASCII = false
        let pieces = ["x", "ab", "\r", "\n", "\r\n", "é", "0123456789", "~\t", " "]
        var generator = SplitMix64(seed: seed)
        for step in 0..<600 {
            let event: Event
            switch generator.below(10) {
            case 0..<4: event = .key(.backSpace)
            case 4: event = .key(.tab)
            default: event = .type(pieces[generator.below(pieces.count)])
            }
            let expected = plain.send(event)
            #expect(words.send(event) == expected, "seed \(seed), step \(step): \(event)")
            plain.smallASCII = true
            #expect(words == plain, "seed \(seed), step \(step): \(event)")
            plain.smallASCII = false
        }
    }
}
