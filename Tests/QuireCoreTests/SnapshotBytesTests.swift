import Foundation
import PropertyBased
import Testing

@testable import QuireCore

/// The autosave's shortcuts against the general path: `snapshotData` writes the bytes of
/// `JSONWriter.data(snapshot())`, and `restoreDirectly` restores exactly what the parse-then-read
/// path restores, or gives up (never a different session, never one where that path has a problem).
@Suite struct SnapshotBytesTests {
    /// The general path's answer: the session, or the diagnostics as printed.
    static func parsing(_ bytes: [UInt8], flow: Flow?, limits: JSONLimits = .snapshot) -> Result<Session, DocumentError> {
        Result { () throws(DocumentError) in try Session.restoreParsing(bytes, flow: flow, file: "s.json", limits: limits) }
    }

    static func publicInit(_ bytes: [UInt8], flow: Flow?, limits: JSONLimits = .snapshot) -> Result<Session, DocumentError> {
        Result { () throws(DocumentError) in try Session(restoring: bytes, flow: flow, file: "s.json", limits: limits) }
    }

    /// Checks one document both ways; returns what is wrong, or nil. `accepted` counts the
    /// documents the direct path restored.
    static func compare(_ bytes: [UInt8], flow: Flow, limits: JSONLimits = .snapshot, accepted: inout Int) -> String? {
        let general = parsing(bytes, flow: flow, limits: limits)
        if let direct = Session.restoreDirectly(bytes, flow: flow, limits: limits) {
            accepted += 1
            guard case .success(let session) = general else { return "restored directly, but the general path has a problem" }
            guard direct == session else { return "restored directly to another session" }
        }
        switch (publicInit(bytes, flow: flow, limits: limits), general) {
        case (.success(let a), .success(let b)) where a == b: return nil
        case (.failure(let a), .failure(let b)) where a.diagnostics == b.diagnostics: return nil
        default: return "Session(restoring:) differs from the general path"
        }
    }

    /// Events that write answers JSON escapes: quotes, backslashes, controls, U+2028, C1, emoji.
    static let escapingEvents: [Event] = [
        .type("\"q\\"), .type("\u{2028}\u{85}\t"), .type("ü👍🏽"), .type("\u{7F}x/"), .key(.backSpace),
    ]

    @Test(.reproducibleSeed, arguments: 0..<PropertyTests.flows.count)
    func theBytesAreTheTreeWrittenAndReadBackTheSame(flowIndex: Int) async throws {
        let flow = try PropertyTests.flows[flowIndex]()
        let events = PropertyTests.events(for: flow) + Self.escapingEvents
        await propertyCheck(count: 25, input: Gen.int(in: 0...(events.count - 1)).array(of: 1...100)) { indices in
            var session = Session(flow: flow, viewportWidth: 800)
            var accepted = 0
            for (step, index) in indices.enumerated() {
                session.send(events[index])
                // Every step as the autosave writes it; every tenth also with the flow embedded,
                // pretty-printed, and through every path.
                for embedded in step % 10 == 0 ? [false, true] : [false] {
                    let bytes = session.snapshotData(includingFlow: embedded)
                    guard bytes == JSONWriter.data(session.snapshot(includingFlow: embedded)) else {
                        Issue.record("flow \(flow.id), step \(step): snapshotData is not the snapshot written")
                        return
                    }
                    // Written by Quire for this flow: restored directly, to the same session.
                    let documents = step % 10 == 0 ? [bytes, JSONWriter.data(session.snapshot(includingFlow: embedded), style: .pretty)] : [bytes]
                    for document in documents {
                        guard let direct = Session.restoreDirectly(document, flow: flow, limits: .snapshot), direct == session else {
                            Issue.record("flow \(flow.id), step \(step): not restored directly to an equal session")
                            return
                        }
                        if step % 10 == 0, let problem = Self.compare(document, flow: flow, accepted: &accepted) {
                            Issue.record("flow \(flow.id), step \(step): \(problem)")
                            return
                        }
                    }
                }
            }
        }
    }

    /// Damaged snapshots: bytes deleted, inserted, replaced, members repeated. Whatever the
    /// direct path restores, the general path restores the same; the public initializer answers
    /// exactly as the general path (the same session, or the same diagnostics).
    @Test(.reproducibleSeed, arguments: 0..<PropertyTests.flows.count)
    func damagedSnapshotsGetTheGeneralPathsAnswer(flowIndex: Int) async throws {
        let flow = try PropertyTests.flows[flowIndex]()
        let events = PropertyTests.events(for: flow) + Self.escapingEvents
        let alphabet = Array(#" "\{}[],:0-1e.E+antrfulsx/u"#.utf8) + [0x0A, 0x00, 0x1F, 0xC3, 0xA9, 0xE2, 0x80, 0xA8, 0xFF]
        var total = (tried: 0, accepted: 0)
        await propertyCheck(count: 30, input: Gen.int(in: 0...(events.count - 1)).array(of: 1...80)) { indices in
            var session = Session(flow: flow, viewportWidth: 800)
            for index in indices { session.send(events[index]) }
            var random = SplitMix64(seed: indices.reduce(UInt64(flowIndex)) { $0 &* 31 &+ UInt64($1) })
            let original = session.snapshotData(includingFlow: random.below(8) == 0)
            for _ in 0..<20 {
                var bytes = original
                for _ in 0...random.below(3) {
                    let at = random.below(bytes.count + 1)
                    switch random.below(6) {
                    case 0 where at < bytes.count: bytes.remove(at: at)
                    case 1: bytes.insert(alphabet[random.below(alphabet.count)], at: at)
                    case 2 where at < bytes.count: bytes[at] = alphabet[random.below(alphabet.count)]
                    case 3:
                        // Whitespace between tokens keeps most documents whole.
                        let gap = bytes[..<at].lastIndex { [UInt8(ascii: ","), UInt8(ascii: ":")].contains($0) } ?? 0
                        bytes.insert(contentsOf: [0x20, 0x0A, 0x09], at: min(gap + 1, bytes.count))
                    case 4:
                        // A piece of the document repeated elsewhere (duplicate keys, stray members).
                        let start = random.below(bytes.count)
                        let piece = bytes[start..<min(bytes.count, start + 1 + random.below(24))]
                        bytes.insert(contentsOf: Array(piece), at: at)
                    default:
                        // A value or key renamed: one letter of it changed.
                        if let letter = bytes[at...].firstIndex(where: { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) {
                            bytes[letter] = UInt8(ascii: "a") + UInt8(random.below(26))
                        }
                    }
                }
                total.tried += 1
                if let problem = Self.compare(bytes, flow: flow, accepted: &total.accepted) {
                    Issue.record("flow \(flow.id): \(problem) for \(String(decoding: bytes, as: UTF8.self))")
                    return
                }
            }
        }
        // Not a vacuous check: many damaged documents are still snapshots the direct path reads.
        #expect(total.accepted > total.tried / 20, "only \(total.accepted) of \(total.tried) restored directly")
    }

    @Test func documentsOutsideTheDirectPathsSubsetTakeTheGeneralPath() throws {
        let flow = try formFlow()
        var session = Session(flow: flow)
        session.run(next, tapField("name"), .type("ab"), .tap(.background))
        let text = String(decoding: session.snapshotData(includingFlow: false), as: UTF8.self)
        var accepted = 0
        let variants: [(String, JSONLimits, Bool)] = [
            // Restored directly: another key order, whitespace, an embedded flow with the flow given.
            (text.replacingOccurrences(of: #"{"format":"quire.snapshot/1","#, with: "{ ") .replacingOccurrences(
                of: #""completed":null}"#, with: #""completed":null, "format" : "quire.snapshot/1" }"#), .snapshot, true),
            (String(decoding: session.snapshotData(includingFlow: true), as: UTF8.self), .snapshot, true),
            (text.replacingOccurrences(of: #""touched":["name"],"#, with: ""), .snapshot, true),
            (text.replacingOccurrences(of: #""agree":null"#, with: #""agree":true"#), .snapshot, true),
            // The general path: escaped keys and ids, a repeated field, unknown ids, wrong kinds.
            (text.replacingOccurrences(of: #""name":"ab""#, with: #""n\u0061me":"ab""#), .snapshot, false),
            (text.replacingOccurrences(of: #""touched":["name"]"#, with: #""touched":["n\u0061me"]"#), .snapshot, false),
            (text.replacingOccurrences(of: #""name":"ab","#, with: #""name":"ab","name":"cd","#), .snapshot, false),
            (text.replacingOccurrences(of: #""name":"ab","#, with: #""nom":"ab","#), .snapshot, false),
            (text.replacingOccurrences(of: #""name":"ab","#, with: #""name":3,"#), .snapshot, false),
            (text.replacingOccurrences(of: #""name":"ab","#, with: #""name":true,"#), .snapshot, false),
            (text.replacingOccurrences(of: #""agree":null"#, with: #""agree":"ab""#), .snapshot, false),
            (text.replacingOccurrences(of: #""agree":null"#, with: #""agree":"no""#), .snapshot, false),
            (text.replacingOccurrences(of: #""touched":["name"]"#, with: #""touched":["name",]"#), .snapshot, false),
            (text.replacingOccurrences(of: #""locale":"en","#, with: #""locale":"en","locale":"fr","#), .snapshot, false),
            (text.replacingOccurrences(of: #""position":1"#, with: #""position":01"#), .snapshot, false),
            (text.replacingOccurrences(of: #""page":"form""#, with: #""page":"gone""#), .snapshot, false),
            ("\u{FEFF}" + text, .snapshot, false),
            (text + " x", .snapshot, false),
            // Limits: the direct path stops where the parser would.
            (text, JSONLimits(documentBytes: 100, depth: 64, stringBytes: 1 << 20), false),
            (text, JSONLimits(documentBytes: 1 << 20, depth: 1, stringBytes: 1 << 20), false),
            (text, JSONLimits(documentBytes: 1 << 20, depth: 64, stringBytes: 3), false),
        ]
        for (at, (document, limits, direct)) in variants.enumerated() {
            #expect(document != text || limits != .snapshot, "variant \(at) is the snapshot itself")
            let bytes = Array(document.utf8)
            #expect((Session.restoreDirectly(bytes, flow: flow, limits: limits) != nil) == direct, "variant \(at)")
            #expect(Self.compare(bytes, flow: flow, limits: limits, accepted: &accepted) == nil, "variant \(at)")
        }
        #expect(accepted == 4)
    }

    @Test func numbersAreWrittenAsNumberWritesThem() {
        var random = SplitMix64(seed: 9)
        var numbers: [Double] = [0, -0.0, 1, -1, 9, 10, 1e15 - 1, -(1e15 - 1), 1e15, 1e16, 0.5, -2.25, .nan, .infinity, -.infinity,
            .ulpOfOne, .greatestFiniteMagnitude, 123_456_789_012_345, 3.0e-7]
        for _ in 0..<2000 {
            let bits = random.next()
            numbers.append(Double(bitPattern: bits))
            numbers.append(Double(Int64(bitPattern: bits) >> Int64(random.below(64))))
            numbers.append(Double(random.below(2_000_001) - 1_000_000) / Double([1, 2, 4, 10, 1000][random.below(5)]))
        }
        // One output from the smallest capacity, so it grows many times on the way.
        var out = JSONOutput(capacity: 0)
        for number in numbers {
            JSONWriter.writeNumber(number, into: &out)
            out.append(UInt8(ascii: " "))
        }
        #expect(String(decoding: out.bytes, as: UTF8.self) == numbers.map { JSONWriter.number($0) + " " }.joined())
    }
}
