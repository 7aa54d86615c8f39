import Foundation
import Testing

@testable import QuireCore

/// Events, notifications, reasons and state keys are declared once in the core; the payloads the
/// session writes, the harness's checks and the docs follow those lists.
@Suite struct NameListTests {
    static let docs: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let files = ["docs/session-semantics.md", "docs/session-scripts.md"]
        return files.map { (try? String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)) ?? "" }.joined()
    }()

    static let samples: [SessionNotification] = [
        .pageWillChange(from: 0, to: 1), .pageDidChange(from: 0, to: 1, completed: true),
        .focusChanged(from: "a", to: nil), .inputPresented(field: "a", view: .keyboard),
        .inputDismissed(field: "a", committed: true), .valueChanged(field: "a", value: "x"),
        .draftChanged(field: "a", draft: 60), .refused(reason: .gate, errors: []),
        .ignored(event: "tap", target: "x", reason: .hidden), .completed(outcome: .finished),
        .applyRequested(page: "p", values: JSONObject()), .applyFinished(page: "p", outcome: .applied),
    ]

    @Test func everyKindOfNotificationWritesExactlyItsDeclaredPayloadKeys() {
        #expect(Set(Self.samples.map(\.kind)) == Set(SessionNotification.Kind.allCases))
        for sample in Self.samples {
            let payload = sample.json[sample.name]?.objectValue
            #expect(payload?.keys == sample.kind.payloadKeys, "\(sample.name)")
        }
    }

    @Test func theStateHasExactlyTheDeclaredKeys() throws {
        let state = try Session(flow: pagesFlow(2)).state.objectValue
        #expect(state?.keys == Session.StateKey.allCases.map(\.rawValue))
    }

    @Test(arguments: [
        SessionNotification.names, Event.names, Session.stateKeys, IgnoreReason.allNames,
        Refusal.allCases.map(\.rawValue),
    ])
    func theDocsNameEveryEntryOfEachList(names: [String]) {
        for name in names {
            // As code (`name`, `name {payload}`) or as a JSON string ("name").
            let mentioned = ["`\(name)`", "`\(name) ", "\"\(name)\""].contains { Self.docs.contains($0) }
            #expect(mentioned, "docs do not mention '\(name)'")
        }
    }
}
