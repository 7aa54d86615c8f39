import Testing

@testable import QuireCore

/// `JSONScanning.scanString`, which reads a string eight bytes at a time and checks its UTF-8
/// where a byte from 0x80 is met, against `JSONParser` reading the same string: one special
/// sequence (an escape, a control byte, a character good or bad) at every offset of
/// texts of 0–19 bytes, so every place in and across the eight-byte words is tried.
@Suite struct StringScanTests {
    static let specials: [[UInt8]] = [
        Array("\u{65E5}".utf8), Array("\u{E9}".utf8), Array("\u{1F600}".utf8), [0xE6, 0x97], [0xC3], [0x80], [0xBF],
        [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5], [0xFF],
        Array(#"\n"#.utf8), Array(#"\u0041"#.utf8), Array(#"\uD800"#.utf8), Array(#"\x"#.utf8),
        [0x00], [0x01], [0x1F], [0x7F], [0x20], [0x5B],
    ]

    /// What `scanString` makes of a document holding one string: its text, or nil for an error
    /// (and when it reads one, it ends at the closing quote, the document's last byte).
    static func scanned(_ document: [UInt8]) -> [UInt8]? {
        document.withUnsafeBufferPointer { buffer in
            var reader = FlowReader(
                bytes: buffer, limits: .default, folder: nil, source: nil,
                document: DocumentReader(file: "s.json", bytes: document))
            guard let range = try? reader.scanString() else { return nil }
            #expect(reader.at == document.count, "\(document)")
            return reader.usedScratch ? reader.scratch : Array(buffer[range])
        }
    }

    @Test func everyOffsetAgreesWithTheParser() {
        var checked = 0
        for length in 0..<20 {
            for offset in 0...length {
                for special in Self.specials {
                    let text =
                        Array(repeating: UInt8(ascii: "a"), count: offset) + special
                        + Array(repeating: UInt8(ascii: "b"), count: length - offset)
                    // Closed, and cut short before its closing quote.
                    for document in [[0x22] + text + [0x22], [0x22] + text] {
                        let parsed: [UInt8]? =
                            switch try? JSONParser.parse(document).value {
                            case .string(let string)?: Array(string.utf8)
                            default: nil
                            }
                        #expect(Self.scanned(document) == parsed, "\(document)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == 210 * Self.specials.count * 2)
    }
}
