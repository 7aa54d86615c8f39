import Testing

@testable import QuireCore

/// `JSONGrammar.utf8Length`, the one UTF-8 rule of the JSON readers, against the standard
/// library's strict decoder: every lead byte followed by continuation bytes at the edges of the
/// ranges that matter, whole and cut short.
@Suite struct UTF8RuleTests {
    static let tails: [UInt8] = [0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF]

    /// The problem the rule names for `bytes` that the standard library refuses, decided from
    /// the bytes alone: which byte is wrong comes first, then how many there are.
    static func expectedProblem(_ bytes: [UInt8]) -> String {
        let lead = bytes[0]
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return "badLead"
        }
        if bytes.count < length { return "cutOff" }
        if bytes[1..<length].contains(where: { $0 & 0xC0 != 0x80 }) { return "missingContinuation(\(length))" }
        return "overlongOrSurrogate"
    }

    static func name(_ problem: JSONGrammar.UTF8Problem) -> String {
        switch problem {
        case .badLead: "badLead"
        case .cutOff: "cutOff"
        case .missingContinuation(let length): "missingContinuation(\(length))"
        case .overlongOrSurrogate: "overlongOrSurrogate"
        }
    }

    @Test func everyLeadByteAgreesWithTheStandardDecoder() {
        var checked = 0
        for lead in UInt8(0x80)...UInt8(0xFF) {
            var sequences: [[UInt8]] = [[lead]]
            for a in Self.tails {
                sequences.append([lead, a])
                for b in Self.tails {
                    sequences.append([lead, a, b])
                    for c in Self.tails { sequences.append([lead, a, b, c]) }
                }
            }
            for bytes in sequences {
                var iterator = bytes.makeIterator()
                var decoder = Unicode.UTF8.ForwardParser()
                let standard: Int? =
                    switch decoder.parseScalar(from: &iterator) {
                    case .valid(let encoded): encoded.count
                    default: nil
                    }
                let ours: Result<Int, JSONGrammar.UTF8Problem> = Result { () throws(JSONGrammar.UTF8Problem) in
                    try JSONGrammar.utf8Length(bytes, at: 0, end: bytes.count)
                }
                switch ours {
                case .success(let length):
                    #expect(length == standard, "\(bytes)")
                case .failure(let problem):
                    #expect(standard == nil, "\(bytes)")
                    #expect(Self.name(problem) == Self.expectedProblem(bytes), "\(bytes)")
                }
                // The readers' check of a whole text: the rule, character by character.
                let whole = bytes.withUnsafeBufferPointer { FlowReader.isUTF8($0, 0..<bytes.count) }
                #expect(whole == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
                checked += 1
            }
        }
        #expect(checked == 128 * (1 + 10 + 100 + 1000))
    }
}
