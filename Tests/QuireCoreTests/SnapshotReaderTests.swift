import Foundation
import PropertyBased
import Testing

@testable import QuireCore

/// The snapshot's one writer (`snapshotData`) and one reader (`SnapshotReader`): what the
/// autosave writes restores to an equal session, however it is laid out; a damaged one is refused
/// with its problems placed.
@Suite struct SnapshotReaderTests {
    /// Events that write answers JSON escapes: quotes, backslashes, controls, U+2028, C1, emoji.
    static let escapingEvents: [Event] = [
        .type("\"q\\"), .type("\u{2028}\u{85}\t"), .type("ü👍🏽"), .type("\u{7F}x/"), .key(.backSpace),
    ]

    @Test(.reproducibleSeed, arguments: 0..<PropertyTests.flows.count)
    func everySnapshotRestoresToAnEqualSession(flowIndex: Int) async throws {
        let flow = try PropertyTests.flows[flowIndex]()
        let events = PropertyTests.events(for: flow) + Self.escapingEvents
        await propertyCheck(count: 25, input: Gen.int(in: 0...(events.count - 1)).array(of: 1...100)) { indices in
            var session = Session(flow: flow, viewportWidth: 800)
            for (step, index) in indices.enumerated() {
                session.send(events[index])
                // Every step as the autosave writes it; every tenth also with the flow embedded,
                // pretty-printed, and as a value.
                for embedded in step % 10 == 0 ? [false, true] : [false] {
                    let bytes = session.snapshotData(includingFlow: embedded)
                    let value = session.snapshot(includingFlow: embedded)
                    guard value == (try? JSONParser.parse(bytes).value) else {
                        Issue.record("flow \(flow.id), step \(step): snapshot() is not snapshotData read back")
                        return
                    }
                    let documents = step % 10 == 0 ? [bytes, JSONWriter.data(value, style: .pretty)] : [bytes]
                    for document in documents {
                        guard (try? Session(restoring: document, flow: flow)) == session else {
                            Issue.record("flow \(flow.id), step \(step): not restored to an equal session")
                            return
                        }
                    }
                    if embedded {
                        guard (try? Session(restoring: bytes)) == session, (try? Session(restoring: value)) == session else {
                            Issue.record("flow \(flow.id), step \(step): not restored from its embedded flow")
                            return
                        }
                    }
                }
            }
        }
    }

    @Test func aSnapshotIsReadWhateverItsLayoutAndRefusedWhenDamaged() throws {
        let flow = try formFlow()
        var session = Session(flow: flow)
        session.run(next, tapField("name"), .type("ab"), .tap(.background))
        let text = String(decoding: session.snapshotData(includingFlow: false), as: UTF8.self)
        let variants: [(String, JSONLimits, Bool)] = [
            // Restored: another key order, whitespace, an embedded flow with the flow given, escapes.
            (
                text.replacingOccurrences(of: #"{"format":"quire.snapshot/1","#, with: "{ ").replacingOccurrences(
                    of: #""completed":null}"#, with: #""completed":null, "format" : "quire.snapshot/1" }"#), .snapshot, true
            ),
            (String(decoding: session.snapshotData(includingFlow: true), as: UTF8.self), .snapshot, true),
            (text.replacingOccurrences(of: #""touched":["name"],"#, with: ""), .snapshot, true),
            (text.replacingOccurrences(of: #""agree":null"#, with: #""agree":true"#), .snapshot, true),
            (text.replacingOccurrences(of: #""name":"ab""#, with: #""n\u0061me":"ab""#), .snapshot, true),
            (text.replacingOccurrences(of: #""touched":["name"]"#, with: #""touched":["n\u0061me"]"#), .snapshot, true),
            ("\u{FEFF}" + text, .snapshot, true),
            // Refused: a repeated field, unknown ids, wrong kinds, bad JSON, limits.
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
            (text + " x", .snapshot, false),
            // Limits: the reader stops where the parser would.
            (text, JSONLimits(documentBytes: 100, depth: 64, stringBytes: 1 << 20), false),
            (text, JSONLimits(documentBytes: 1 << 20, depth: 1, stringBytes: 1 << 20), false),
            (text, JSONLimits(documentBytes: 1 << 20, depth: 64, stringBytes: 3), false),
        ]
        for (at, (document, limits, restores)) in variants.enumerated() {
            #expect(document != text || limits != .snapshot, "variant \(at) is the snapshot itself")
            do {
                let restored = try Session(restoring: Array(document.utf8), flow: flow, limits: limits)
                #expect(restores, "variant \(at)")
                // Laid out otherwise, or with escapes, it is the same session.
                if at < 2 || (at >= 4 && at < 7) { #expect(restored == session, "variant \(at)") }
            } catch {
                #expect(!restores && !error.diagnostics.isEmpty, "variant \(at): \(error)")
            }
        }
    }

    @Test func numbersAreWrittenAsNumberWritesThem() {
        var random = SplitMix64(seed: 9)
        var numbers: [Double] = [
            0, -0.0, 1, -1, 9, 10, 1e15 - 1, -(1e15 - 1), 1e15, 1e16, 0.5, -2.25, .nan, .infinity, -.infinity,
            .ulpOfOne, .greatestFiniteMagnitude, 123_456_789_012_345, 3.0e-7,
        ]
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
